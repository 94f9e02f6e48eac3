// `annotate` (issue 3): the reference annotations of a record (WFDB annotator file or EDF+ TALs,
// as the read stage emits them) become `beat` items with their AAMI class and `rhythm` items,
// tagged source "reference", so later stages (summaries, QA, scoring) can use them beside a
// detector's beats. A rhythm episode runs from its rhythm-change annotation ("+" with aux
// "(AFIB") to the next one, or to the end of the record; it is emitted when it closes.
// Every item passes through unchanged; beat and rhythm items follow the annotation they come from.
import { defineStage } from '../core/stage.ts'
import type { AnnotationItem, BeatItem, Item, RhythmItem, SampleBlock } from '../core/items.ts'
import { aamiClass } from '../metrics/aami-classes.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'

const schema = z.strictObject({
  /** Emit beat items for the reference beats. */
  beats: z.boolean().default(true),
  /** Emit rhythm episodes from the reference rhythm changes. */
  rhythms: z.boolean().default(true),
})

export type AnnotateOptions = z.infer<typeof schema>

/** The rhythm an annotation starts, or null: MIT writes a rhythm change as "+" with aux "(NAME". */
export function rhythmOf(a: Pick<AnnotationItem, 'symbol' | 'aux'>): string | null {
  if (a.symbol !== '+' || !a.aux.startsWith('(')) return null
  const name = a.aux.slice(1).trim()
  return name === '' ? null : name
}

export default defineStage<AnnotateOptions>({
  name: 'annotate',
  version: 1,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    let open: { rhythm: string; startSample: number; startMs: number } | null = null
    let fs = 0
    let endSample = 0
    const close = (sample: number, timeMs: number): RhythmItem | null => {
      if (!open) return null
      const item: RhythmItem = { kind: 'rhythm', recordId: ctx.recordId, source: 'reference', rhythm: open.rhythm, startSample: open.startSample, startMs: open.startMs, endSample: sample, endMs: timeMs }
      open = null
      return item
    }
    for await (const item of source as AsyncIterable<Item>) {
      yield item
      if (item.kind === 'block') {
        const b = item as SampleBlock
        fs = b.fs
        endSample = Math.max(endSample, b.startSample + (b.leads[0]?.length ?? 0))
        continue
      }
      if (item.kind !== 'annotation') continue
      const a = item as AnnotationItem
      if (a.source !== 'reference') continue
      const label = aamiClass(a.symbol)
      if (label && ctx.options.beats) {
        const beat: BeatItem = { kind: 'beat', recordId: ctx.recordId, source: 'reference', sample: a.sample, timeMs: a.timeMs, label, symbol: a.symbol }
        yield beat
      }
      const rhythm = ctx.options.rhythms ? rhythmOf(a) : null
      if (rhythm) {
        const closed = close(a.sample, a.timeMs)
        if (closed) yield closed
        open = { rhythm, startSample: a.sample, startMs: a.timeMs }
      }
    }
    // The last episode ends with the signal (its time from the sample count, gaps aside).
    const last = open as { startSample: number; startMs: number } | null
    if (last) {
      const end = Math.max(endSample, last.startSample)
      const endMs = fs > 0 ? Math.max(last.startMs, Math.round((last.startMs + ((end - last.startSample) / fs) * 1000) * 1000) / 1000) : last.startMs
      const closed = close(end, endMs)
      if (closed) yield closed
    }
  },
})
