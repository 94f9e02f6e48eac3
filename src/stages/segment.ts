// `segment`: sliding windows over the sample stream (default 10 s, step = window), the unit the
// paper's engine rendered to text and video. Windows never straddle an EDF+D gap: at a gap the
// partly filled window is dropped and windowing restarts after it. Each window has the id
// <recordId>:w<index>; watermarks passing on are lowered to the start of the window being filled.
import { defineStage } from '../core/stage.ts'
import { PipelineError } from '../core/errors.ts'
import type { WindowItem } from '../core/items.ts'
import { createWatermarks } from '../core/watermark.ts'
import { createWindower, type Windower } from '../dsp/windower.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'

const schema = z.strictObject({
  /** Window length in seconds. */
  window: z.number().positive().max(3600).default(10),
  /** Step between window starts in seconds (default: the window length). */
  step: z.number().positive().max(3600).optional(),
  /** Emit the last, shorter window at the end of the record. */
  partial: z.boolean().default(false),
})

export type SegmentOptions = z.infer<typeof schema>

export default defineStage<SegmentOptions>({
  name: 'segment',
  version: 3,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const { window, partial } = ctx.options
    const step = ctx.options.step ?? window
    let windower: Windower | null = null
    let fs = 0
    let labels: string[] = []
    let index = 0
    let gapMs = 0
    const marks = createWatermarks(ctx.recordId)
    const toItem = (startSample: number, samples: Float32Array[]): WindowItem => ({
      kind: 'window', id: `${ctx.recordId}:w${index}`, recordId: ctx.recordId, index: index++, startSample,
      startMs: Math.round((startSample / fs) * 1000 + gapMs), fs,
      lengthSamples: samples[0].length, stepSamples: Math.round(step * fs), labels, samples,
    })
    for await (const item of source) {
      if (item.kind === 'watermark') {
        marks.seen(item.sample)
        const w = marks.next(windower?.openStart())
        if (w) yield w
        continue
      }
      yield item
      if (item.kind === 'gap') {
        windower?.reset()
        gapMs += item.endMs - item.startMs
      } else if (item.kind === 'block') {
        const block = item
        if (!windower) {
          fs = block.fs
          labels = block.labels
          windower = createWindower(block.leads.length, samplesOf('window', window, fs), samplesOf('step', step, fs))
        }
        for (const w of windower.push(block.leads, block.startSample)) yield toItem(w.startSample, w.samples)
      }
    }
    const last = partial ? windower?.flush() : null
    if (last) yield toItem(last.startSample, last.samples)
    const w = marks.next()
    if (w) yield w
  },
})

/**
 * An option in seconds as samples at rate fs. The options are checked when the dataset is read,
 * before the rate is known, so a value under one sample period is refused here (it would round
 * to a window of no samples, or to a step that never moves).
 */
function samplesOf(field: 'window' | 'step', seconds: number, fs: number): number {
  if (seconds * fs >= 1 - 1e-9) return Math.max(1, Math.round(seconds * fs))
  const min = Math.ceil(1e6 / fs) / 1e6
  throw new PipelineError(
    'E_CONFIG_VALUE',
    `segment option ${field}: expected at least one sample period at the record's ${fs} Hz (${field} >= ${min} s), found ${seconds} s (${Math.round(seconds * fs * 1000) / 1000} samples); set ${field} to ${min} s or more`,
    { field, fs, min, value: seconds },
  )
}
