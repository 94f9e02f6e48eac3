// `render-text`: the paper's text rendering for models that cannot read raw signals.
// Over the `window` items of the segment stage: every item passes through; each window's text is
// appended to ONE file per record as the stream flows, and a `render` item follows the window
// with where its text is (offset, bytes), its span and an estimate of its tokens.
// Layout, one line per chosen lead per window, windows in stream order:
//   <label> <hh:mm:ss.mmm> <rate>Hz: <v><sep><v><sep>...<v>\n
//   e.g. "MLII 00:00:10.000 360Hz: -0.145,-0.150,-0.155"
// The time is the window's start from the recording's start (gaps included, hours not wrapped),
// the rate is the rate written (the `rate` option or the signal's, up to 3 decimals), the values
// are in mV with `decimals` decimals, exactly Number(v).toFixed(decimals) but without a sign on
// a zero result, NaN for invalid samples (src/render/format-mv.ts).
// With `excerpts`, the excerpts of those sets (the excerpt stage's) are written too, each as one
// line per lead over its whole span, cut from a ring of recent blocks.
// The file grows under its own name through the record's media store, whose writes are in the
// file when they resolve (src/sinks/text-file.ts), so a `render` item follows its write at once
// and whoever reads it can read its range; a record that fails has its media removed, and one
// redone on resume starts its file afresh.
// Tokens are counted while formatting (src/render/text-tokens.ts), equal to estimateTokens over
// the window's bytes. Formatting runs in a WebAssembly kernel for the usual layout (3 decimals, a
// 1-byte separator; src/render/window-text.ts, format-mv-wasm.ts). Formatting in a worker thread
// was tried and was no faster on 2 cores (the notes of bench/results/render-24h.md).
import path from 'node:path'
import { defineStage } from '../core/stage.ts'
import type { RenderItem } from '../core/items.ts'
import type { MediaAppender } from '../core/services.ts'
import { PipelineError } from '../core/errors.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { createWatermarks } from '../core/watermark.ts'
import { createResampler, type Resampler } from '../render/resample.ts'
import { createWindowTextWriter } from '../render/window-text.ts'
import { createSpanCutter } from '../render/span-cutter.ts'
import { endMs, excerptSetsOption, noWindows, pickLeads } from '../render/render-options.ts'

const schema = z.strictObject({
  /** Leads to write, by index among the window's leads or by label. */
  leads: z.array(z.union([z.number().int().min(0), z.string().min(1)])).min(1).default([0]),
  /** Decimals of the mV values. */
  decimals: z.number().int().min(0).max(6).default(3),
  /** Rate to write in Hz (resampled, src/render/resample.ts); at most the signal's rate. Default: the signal's. */
  rate: z.number().positive().max(1e6).optional(),
  /** Between values: no digits, ".", "-" or line breaks, so the values can be read back. */
  separator: z.string().min(1).max(8).regex(/^[^0-9.\-\r\n]+$/, 'expected 1-8 characters without digits, ".", "-" or line breaks').default(','),
  /** File name inside <runDir>/media/<recordId>/; "{recordId}" is replaced by the record's id. */
  file: z.string().min(1).refine((f) => !path.isAbsolute(f) && !f.split(/[\\/]/).includes('..') && !f.endsWith('/'), 'expected a relative file name without ".." (it is placed under media/<recordId>/)').default('text.txt'),
  /** Write the segment stage's windows. */
  windows: z.boolean().default(true),
  /** Also write the excerpts of these sets (the excerpt stage's `set`). */
  excerpts: excerptSetsOption.optional(),
})

export type RenderTextOptions = z.infer<typeof schema>

interface Span {
  labels: string[]
  /** The samples are the chosen leads already (an excerpt's cut). */
  picked?: boolean
  samples: Float32Array[]
  fs: number
  startSample: number
  startMs: number
  length: number
  /** The id suffix and the item's own fields. */
  key: string
  fields: Record<string, unknown>
}

export default defineStage<RenderTextOptions>({
  name: 'render-text',
  version: 2,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const o = ctx.options
    const separator = Buffer.from(o.separator, 'utf8')
    const rel = o.file.replaceAll('{recordId}', ctx.recordId)
    const sets = new Set(o.excerpts ?? [])
    const cutter = sets.size ? createSpanCutter('render-text', o.leads) : null
    const marks = createWatermarks(ctx.recordId)
    let file: MediaAppender | null = null
    let sawBlock = false
    let sawWindow = false
    const writer = createWindowTextWriter(o.decimals, separator)
    // Chosen leads and resampler, made again only when the labels or the rate change.
    let labels: string[] | null = null
    let indices: number[] = []
    let resampler: Resampler | null = null
    const write = async (s: Span): Promise<RenderItem> => {
      if (labels !== s.labels) {
        indices = s.picked ? s.labels.map((_, i) => i) : pickLeads('render-text', o.leads, s.labels)
        labels = s.labels
      }
      if (o.rate !== undefined && o.rate > s.fs) {
        throw new PipelineError('E_CONFIG_VALUE', `render-text: option "rate" (${o.rate} Hz) is above the signal's rate (${s.fs} Hz); resampling only lowers the rate: set a rate up to ${s.fs} or leave it out`, { field: 'rate' })
      }
      if (resampler?.fromHz !== s.fs) resampler = createResampler(s.fs, o.rate ?? s.fs)
      const rs = resampler
      const leads = indices.map((i) => rs.apply(s.samples[i]))
      const text = { labels: indices.map((i) => s.labels[i]), startMs: s.startMs, rate: rs.toHz, leads }
      const { bytes, tokens } = writer.format(text)
      file ??= await ctx.media.append(rel)
      const offset = file.offset
      await file.write(bytes) // in the file now; the writer may reuse its buffer
      return {
        kind: 'render', id: `${ctx.recordId}:${rel}#${s.key}`, recordId: ctx.recordId, format: 'text', path: file.path, bytes: bytes.length, offset,
        tokens, ...s.fields,
        startSample: s.startSample, endSample: s.startSample + s.length,
        startMs: s.startMs, endMs: endMs(s.startMs, s.length, s.fs),
        leads: text.labels, fs: text.rate, values: leads.reduce((n, x) => n + x.length, 0),
      }
    }
    for await (const item of source) {
      if (item.kind === 'watermark') {
        marks.seen(item.sample)
        cutter?.keepFrom(item.sample)
        const w = marks.next()
        if (w) yield w
        continue
      }
      yield item
      if (item.kind === 'block') {
        sawBlock = true
        cutter?.feed(item)
      } else if (item.kind === 'window' && !o.windows) {
        cutter?.feed(item)
      } else if (item.kind === 'window') {
        cutter?.feed(item)
        sawWindow = true
        ctx.signal.throwIfAborted()
        yield await write({ labels: item.labels, samples: item.samples, fs: item.fs, startSample: item.startSample, startMs: item.startMs, length: item.lengthSamples, key: `w${item.index}`, fields: { windowIndex: item.index, from: [item.id] } })
      } else if (item.kind === 'excerpt' && sets.has(item.set)) {
        const cut = cutter!.cut(item.startSample, item.endSample)
        yield await write({ labels: cut.labels, samples: cut.samples, picked: true, fs: cut.fs, startSample: item.startSample, startMs: item.startMs, length: item.endSample - item.startSample, key: item.id.slice(ctx.recordId.length + 1), fields: { of: item.id, from: [item.id] } })
      }
    }
    if (o.windows && !sawWindow && sawBlock && !sets.size) throw noWindows('render-text')
    await (file as MediaAppender | null)?.close()
    const w = marks.next()
    if (w) yield w
  },
})
