// `segment`: sliding windows over the sample stream (default 10 s, step = window), the unit the
// paper's engine rendered to text and video. Windows never straddle an EDF+D gap: at a gap the
// partly filled window is dropped and windowing restarts after it.
import { defineStage } from '../core/stage.ts'
import type { Item, SampleBlock, GapItem, WindowItem } from '../core/items.ts'
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
  version: 2,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const { window, partial } = ctx.options
    const step = ctx.options.step ?? window
    let windower: Windower | null = null
    let fs = 0
    let labels: string[] = []
    let index = 0
    let gapMs = 0
    const toItem = (startSample: number, samples: Float32Array[]): WindowItem => ({
      kind: 'window', recordId: ctx.recordId, index: index++, startSample,
      startMs: Math.round((startSample / fs) * 1000 + gapMs), fs,
      lengthSamples: samples[0].length, stepSamples: Math.round(step * fs), labels, samples,
    })
    for await (const item of source as AsyncIterable<Item>) {
      yield item
      if (item.kind === 'gap') {
        windower?.reset()
        gapMs += (item as GapItem).endMs - (item as GapItem).startMs
      } else if (item.kind === 'block') {
        const block = item as SampleBlock
        if (!windower) {
          fs = block.fs
          labels = block.labels
          windower = createWindower(block.leads.length, Math.round(window * fs), Math.round(step * fs))
        }
        for (const w of windower.push(block.leads, block.startSample)) yield toItem(w.startSample, w.samples)
      }
    }
    const last = partial ? windower?.flush() : null
    if (last) yield toItem(last.startSample, last.samples)
  },
})
