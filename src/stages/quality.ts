// `quality`: per window (default 10 s) and lead, flags a lead that is invalid, flat,
// saturated or noisy (src/dsp/signal-quality.ts), so `summarize` can leave artifact periods out
// of its statistics and `pipeline beats --score` can score with and without them. Place it
// before `clean`: flat lines and rail-clipped plateaus are properties of the raw signal that the
// high-pass would bend. A window's `quality` item is yielded just before the block that completes
// it, so it travels ahead of the beats detected in it. Each lead's entry carries its index among
// the block's leads as well as its label, since two leads may share a label. At a gap and at the end of the record
// the partly filled window is assessed too when it holds at least 1 s, so every second with
// signal is covered.
import { defineStage } from '../core/stage.ts'
import type { LeadQuality, QualityItem } from '../core/items.ts'
import { createWatermarks } from '../core/watermark.ts'
import { createWindower, type WindowOut, type Windower } from '../dsp/windower.ts'
import { assessWindow, DEFAULT_QUALITY_OPTIONS as D } from '../dsp/signal-quality.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'

const schema = z.strictObject({
  /** Window length, seconds. */
  window: z.number().min(1).max(60).default(10),
  flatMv: z.number().nonnegative().default(D.flatMv),
  saturationMs: z.number().positive().default(D.saturationMs),
  noiseKurtosis: z.number().nonnegative().default(D.noiseKurtosis),
  rhythmCorr: z.number().min(0).max(1).default(D.rhythmCorr),
  invalidPct: z.number().min(0).max(100).default(D.invalidPct),
  flatPct: z.number().min(0).max(100).default(D.flatPct),
  saturatedPct: z.number().min(0).max(100).default(D.saturatedPct),
})

export type QualityOptions = z.infer<typeof schema>

export default defineStage<QualityOptions>({
  name: 'quality',
  version: 3,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const { window, ...thresholds } = ctx.options
    let windower: Windower | null = null
    let fs = 0
    let labels: string[] = []
    let index = 0
    let gapMs = 0
    let next = -1 // the sample expected next; a jump restarts the windows like a gap
    const marks = createWatermarks(ctx.recordId)
    const toItem = (w: WindowOut): QualityItem => {
      const n = w.samples[0].length
      const leads: LeadQuality[] = w.samples.map((x, l) => {
        const q = assessWindow(x, fs, thresholds)
        return { label: labels[l], index: l, flags: q.flags, invalidPct: q.invalidPct, flatPct: q.flatPct, saturatedPct: q.saturatedPct, slopeKurtosis: q.slopeKurtosis }
      })
      const startMs = Math.round((w.startSample / fs) * 1000 + gapMs)
      const id = `${ctx.recordId}:q${index}`
      return { kind: 'quality', id, recordId: ctx.recordId, index: index++, startSample: w.startSample, endSample: w.startSample + n, startMs, endMs: startMs + Math.round((n / fs) * 1000), leads }
    }
    // The partly filled window, when it holds at least 1 s (at a gap or the end).
    const tail = (): QualityItem | null => {
      const last = windower?.flush()
      return last && last.samples[0].length >= fs ? toItem(last) : null
    }
    for await (const item of source) {
      if (item.kind === 'watermark') {
        // The window being filled comes out later, at its start.
        marks.seen(item.sample)
        const w = marks.next(windower?.openStart())
        if (w) yield w
        continue
      }
      if (item.kind === 'gap') {
        const t = tail()
        if (t) yield t
        windower?.reset()
        gapMs += item.endMs - item.startMs
      } else if (item.kind === 'block') {
        const block = item
        if (windower && block.startSample !== next) {
          const t = tail()
          if (t) yield t
          windower.reset()
        }
        if (!windower || block.fs !== fs || block.leads.length !== labels.length) {
          const t = tail()
          if (t) yield t
          fs = block.fs
          labels = block.labels
          const length = Math.max(1, Math.round(window * fs))
          windower = createWindower(block.leads.length, length, length)
        }
        for (const w of windower.push(block.leads, block.startSample)) yield toItem(w)
        next = block.startSample + (block.leads[0]?.length ?? 0)
      }
      yield item
    }
    const t = tail()
    if (t) yield t
    const w = marks.next()
    if (w) yield w
  },
})
