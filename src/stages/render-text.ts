// `render-text`: the paper's text rendering (issue 4) for models that cannot read raw signals.
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
// The file is written to `<file>.partial` and renamed when the record's stream ends, so a record
// interrupted and redone on resume never leaves half a file (the render items name the final
// path); an error or abort removes the partial file.
// Tokens are counted while formatting (src/render/text-tokens.ts), equal to estimateTokens over
// the window's bytes. Formatting runs in a WebAssembly kernel for the usual layout (3 decimals, a
// 1-byte separator; src/render/window-text.ts, format-mv-wasm.ts), and the bytes are copied into
// pooled 1 MiB chunks for the file (src/sinks/text-file.ts). On the 24 h benchmark file, 8
// alternating rounds against the code before (`pipeline run bench/data/render-text.yaml`):
// 1.14-1.29 s -> 0.63-0.80 s in run, read -> segment alone 0.33-0.39 s. Formatting in a worker
// thread was tried and measured no faster on 2 cores (the notes of bench/results/render-24h.md).
import path from 'node:path'
import { defineStage } from '../core/stage.ts'
import type { Item, RenderItem, WindowItem } from '../core/items.ts'
import { PipelineError } from '../core/errors.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { createResampler, type Resampler } from '../render/resample.ts'
import { createWindowTextWriter } from '../render/window-text.ts'
import { createTextFile, type TextFile } from '../sinks/text-file.ts'
import { endMs, noWindows, pickLeads, runPath } from '../render/render-options.ts'

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
})

export type RenderTextOptions = z.infer<typeof schema>

export default defineStage<RenderTextOptions>({
  name: 'render-text',
  version: 1,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const { decimals, rate } = ctx.options
    const separator = Buffer.from(ctx.options.separator, 'utf8')
    const target = path.join(ctx.mediaDir, ctx.options.file.replaceAll('{recordId}', ctx.recordId))
    const relPath = runPath(ctx.runDir, target)
    let file: TextFile | null = null
    let done = false
    let sawBlock = false
    const writer = createWindowTextWriter(decimals, separator)
    // Chosen leads and resampler, made again only when a window's labels or rate change.
    let labels: string[] | null = null
    let indices: number[] = []
    let resampler: Resampler | null = null
    try {
      for await (const item of source as AsyncIterable<Item>) {
        yield item
        if (item.kind === 'block') sawBlock = true
        if (item.kind !== 'window') continue
        ctx.signal.throwIfAborted()
        const w = item as WindowItem
        if (labels !== w.labels) {
          indices = pickLeads('render-text', ctx.options.leads, w.labels)
          labels = w.labels
        }
        if (rate !== undefined && rate > w.fs) {
          throw new PipelineError('E_CONFIG_VALUE', `render-text: option "rate" (${rate} Hz) is above the signal's rate (${w.fs} Hz); resampling only lowers the rate: set a rate up to ${w.fs} or leave it out`, { field: 'rate' })
        }
        if (resampler?.fromHz !== w.fs) resampler = createResampler(w.fs, rate ?? w.fs)
        const rs = resampler
        const leads = indices.map((i) => rs.apply(w.samples[i]))
        const text = { labels: indices.map((i) => w.labels[i]), startMs: w.startMs, rate: rs.toHz, leads }
        const { bytes, tokens } = writer.format(text)
        file ??= await createTextFile(target, { signal: ctx.signal })
        const offset = file.offset
        await file.write(bytes) // copied: the writer reuses its buffer
        const render: RenderItem = {
          kind: 'render', recordId: ctx.recordId, format: 'text', path: relPath, bytes: bytes.length, offset,
          tokens, windowIndex: w.index,
          startSample: w.startSample, endSample: w.startSample + w.lengthSamples,
          startMs: w.startMs, endMs: endMs(w.startMs, w.lengthSamples, w.fs),
          leads: text.labels, fs: text.rate, values: leads.reduce((n, x) => n + x.length, 0),
        }
        yield render
      }
      if (!file && sawBlock) {
        throw noWindows('render-text')
      }
      await file?.close()
      done = true
    } finally {
      if (!done && file) {
        // A failed removal is reported, never thrown over the error that brought us here.
        await file.abort().catch((err: unknown) => ctx.warn('W_RENDER_TEXT_CLEANUP', `could not remove ${target}.partial: ${(err as Error).message}`))
      }
    }
  },
})
