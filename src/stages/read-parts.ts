// A recording stored as consecutive parts (Icentia11k keeps each patient's Holter as 50 WFDB
// segments of about 70 minutes) read as one record: the parts are read one after the other and
// their items renumbered, so samples, times, annotations and gaps run on from the part before,
// and one `recording` item states the whole (durations from the parts' headers). Every part must
// have the first part's sampling rate and leads; the parts are taken as contiguous in time.
import { PipelineError } from '../core/errors.ts'
import type { AnnotationItem, GapItem, Item, RecordingItem, SampleBlock } from '../core/items.ts'
import type { RecordSpec } from '../core/config-schema.ts'
import type { ReadOptions } from './read-options.ts'
import type { ReadContext } from './read-context.ts'
import { probeRecord } from './read-probe.ts'

type ReadItems = (spec: RecordSpec, opts: ReadOptions, ctx: ReadContext) => AsyncGenerator<Item>

/** Yields the items of every part of `spec` as one record. */
export async function* readParts(spec: RecordSpec, opts: ReadOptions, ctx: ReadContext, read: ReadItems): AsyncGenerator<Item> {
  const parts = spec.parts ?? [spec.path]
  let totalSec = 0
  for (const part of parts) totalSec += (await probeRecord({ ...spec, path: part, parts: undefined })).durationSec
  let first: RecordingItem | null = null
  let offset = 0 // samples before this part
  let offsetMs = 0 // time before this part
  for (const [k, part] of parts.entries()) {
    let samples = 0
    let gapMs = 0
    for await (const item of read({ ...spec, path: part, parts: undefined, source: k === 0 ? spec.source : part }, opts, ctx)) {
      if (item.kind === 'recording') {
        const r = item as RecordingItem
        if (!first) {
          first = r
          yield { ...r, durationSec: totalSec, totalSamples: Math.round(totalSec * r.fs), parts: parts.length }
        } else if (r.fs !== first.fs || r.labels.join('\n') !== first.labels.join('\n')) {
          throw new PipelineError('E_CONFIG_VALUE', `part ${k} of record ${spec.id} (${part}) has ${r.fs} Hz and leads [${r.labels.join(', ')}], the first part ${first.fs} Hz and [${first.labels.join(', ')}]; a record's parts must match (give them leads: to pick the same signals, or make them separate records)`, { file: part, field: 'path' })
        }
      } else if (item.kind === 'block') {
        const b = item as SampleBlock
        samples = Math.max(samples, b.startSample + (b.leads[0]?.length ?? 0))
        yield offset ? { ...b, startSample: b.startSample + offset } : b
      } else if (item.kind === 'annotation') {
        const a = item as AnnotationItem
        yield offset ? { ...a, sample: a.sample + offset, timeMs: Math.round((a.timeMs + offsetMs) * 1000) / 1000 } : a
      } else if (item.kind === 'gap') {
        const g = item as GapItem
        gapMs += g.endMs - g.startMs
        yield offset ? { ...g, atSample: g.atSample + offset, startMs: g.startMs + offsetMs, endMs: g.endMs + offsetMs } : g
      } else yield item
    }
    if (first) {
      offset += samples
      offsetMs += (samples / first.fs) * 1000 + gapMs
    }
  }
}
