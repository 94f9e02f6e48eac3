// A recording stored as consecutive parts (Icentia11k keeps each patient's Holter as 50 WFDB
// segments of about 70 minutes) read as one record: the parts are read one after the other and
// their items renumbered, so samples, times, annotations and gaps run on from the part before,
// and one `recording` item states the whole (durations from the parts' headers). Every part must
// have the first part's sampling rate and leads; the parts are taken as contiguous in time.
import { PipelineError } from '../core/errors.ts'
import type { Item, RecordingItem } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import type { ReadOptions } from './read-options.ts'
import type { ReadContext } from './read-context.ts'
import { probeRecord } from './read-probe.ts'
import { readEdfHeaderFromFile } from '../formats/edf-file.ts'
import { selectEcgSignals } from '../formats/edf-select.ts'
import { readWfdbHeaderFile } from '../formats/wfdb-path.ts'
import { selectWfdbSignals } from '../formats/wfdb-select.ts'

type ReadItems = (spec: RecordSpec, opts: ReadOptions, ctx: ReadContext) => AsyncGenerator<Item>

/** Yields the items of every part of `spec` as one record. */
export async function* readParts(spec: RecordSpec, opts: ReadOptions, ctx: ReadContext, read: ReadItems): AsyncGenerator<Item> {
  const parts = spec.parts ?? [spec.path]
  let totalSec = 0
  const heads: { fs: number; labels: string[] }[] = []
  for (const part of parts) {
    const one = { ...spec, path: part, parts: undefined }
    totalSec += (await probeRecord(one)).durationSec
    heads.push(await headerFacts(one))
  }
  // Every part is checked against the first from its header, before any signal is read.
  for (let k = 1; k < parts.length; k++) mismatch(spec, k, heads[k], heads[0])
  let first: RecordingItem | null = null
  let offset = 0 // samples before this part
  let offsetMs = 0 // time before this part
  for (const [k, part] of parts.entries()) {
    let samples = 0
    let gapMs = 0
    for await (const item of read({ ...spec, path: part, parts: undefined, source: k === 0 ? spec.source : part }, opts, ctx)) {
      if (item.kind === 'recording') {
        const r = item
        if (!first) {
          first = r
          yield { ...r, durationSec: totalSec, totalSamples: Math.round(totalSec * r.fs), parts: parts.length }
        } else mismatch(spec, k, r, first)
      } else if (item.kind === 'block') {
        const b = item
        samples = Math.max(samples, b.startSample + (b.leads[0]?.length ?? 0))
        yield offset ? { ...b, startSample: b.startSample + offset } : b
      } else if (item.kind === 'annotation') {
        const a = item
        yield offset ? { ...a, sample: a.sample + offset, timeMs: Math.round((a.timeMs + offsetMs) * 1000) / 1000 } : a
      } else if (item.kind === 'gap') {
        const g = item
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

/** The rate and labels of the leads a part's header offers for `spec.leads` (what its recording item will say). */
async function headerFacts(spec: RecordSpec): Promise<{ fs: number; labels: string[] }> {
  if (spec.format === 'edf') {
    const { header } = await readEdfHeaderFromFile(spec.path)
    const leads = selectEcgSignals(header, spec.path, spec.leads)
    return { fs: header.signals[leads[0]].sampleRate, labels: leads.map((i) => header.signals[i].label) }
  }
  const header = await readWfdbHeaderFile(spec.path)
  return { fs: header.fs, labels: selectWfdbSignals(header, spec.leads).map((i) => header.signals[i].label) }
}

function mismatch(spec: RecordSpec, k: number, part: { fs: number; labels: string[] }, first: { fs: number; labels: string[] }): void {
  if (part.fs === first.fs && part.labels.join('\n') === first.labels.join('\n')) return
  const file = spec.parts![k]
  throw new PipelineError('E_CONFIG_VALUE', `part ${k} of record ${spec.id} (${file}) has ${part.fs} Hz and leads [${part.labels.join(', ')}], the first part ${first.fs} Hz and [${first.labels.join(', ')}]; a record's parts must match (give them leads: to pick the same signals, or make them separate records)`, { file, field: 'path' })
}
