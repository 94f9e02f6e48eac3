// What every conversion is (WFDB or EDF input, copied or cleaned): an EDF+C header, data records
// of digital samples, and the annotations as TALs, written in two passes over the annotations.
// Pass 1 sizes the 'EDF Annotations' signal (the fullest data record); pass 2 streams the TALs
// beside the samples. Both passes place a TAL by the same rule, so the size always fits: in the
// data record holding its onset, or in the record of the TAL before it when that is later (an
// EDF+ file may store a TAL after its onset, a WFDB annotation file may be out of order). Record
// numbers never decrease, so each pass reads the annotations once, in order, in O(1) memory.
import { PipelineError } from '../core/errors.ts'
import { encodeDataRecord, encodeEdfHeader, type EdfWriteSpec } from '../formats/edf-writer.ts'
import { encodeTalBlock, talBytes, type TalAnnotation } from '../formats/tal.ts'
import type { ReadContext } from '../readers/read-context.ts'

/** An annotation as a reader found it, with the output data record holding its onset. */
export interface SourcedTal {
  onsetRecord: number
  tal: TalAnnotation
}

/** One conversion, ready to write; every generator starts a fresh pass over its input. */
export interface ConvertPlan {
  /** Data record layout of the output; records start at onset0Sec + r * recordDurationSec. */
  layout: { recordDurationSec: number; recordCount: number; onset0Sec: number }
  /** The annotations in reading order; `ctx.warn` is a no-op in the second pass. */
  annotations(ctx: ReadContext): AsyncGenerator<SourcedTal>
  /** The header without the annotation signal; called once, after pass 1 (which may refuse the input). */
  header(): Promise<Omit<EdfWriteSpec, 'annotationBytesPerRecord'>>
  /** Digital samples of each data record, one array per signal in header order. */
  records(): AsyncGenerator<Int32Array[]>
  /** Lines for the report, once written (e.g. the scaling of cleaned signals). */
  report?(): string[]
}

/** The output record of each TAL: the running maximum of onset records, within [0, last]. */
export async function* placeTals(source: AsyncIterable<SourcedTal>, lastRecord: number): AsyncGenerator<{ record: number; tal: TalAnnotation }> {
  let at = 0
  for await (const s of source) {
    at = Math.max(at, s.onsetRecord)
    yield { record: Math.min(lastRecord, at), tal: s.tal }
  }
}

const keeper = (onsetSec: number): TalAnnotation => ({ onsetSec, durationSec: null, texts: [''] })

/** Pass 1: bytes per data record of the annotation signal (even, with a spare 0 byte). */
export async function sizeAnnotationSignal(plan: ConvertPlan, ctx: ReadContext): Promise<number> {
  const { recordDurationSec: dur, recordCount: n, onset0Sec } = plan.layout
  const last = onset0Sec + (n - 1) * dur
  // The time-keeping TAL alone; up to 6 decimals (formatSeconds) when onsets are fractional.
  let most = talBytes(keeper(Math.max(0, last))) + (Number.isInteger(onset0Sec) && Number.isInteger(dur) ? 0 : 7)
  let record = -1
  let bytes = 0
  for await (const p of placeTals(plan.annotations(ctx), n - 1)) {
    if (p.record !== record) {
      most = Math.max(most, bytes)
      record = p.record
      bytes = talBytes(keeper(onset0Sec + record * dur))
    }
    bytes += talBytes(p.tal)
  }
  most = Math.max(most, bytes)
  return 2 * Math.ceil((most + 1) / 2)
}

/** Pass 2: the EDF+C file as chunks (header, then one data record at a time). */
export async function* encodePlan(plan: ConvertPlan, spec: EdfWriteSpec & { annotationBytesPerRecord: number }, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  const { recordDurationSec: dur, recordCount: n, onset0Sec } = plan.layout
  const annotationBytes = spec.annotationBytesPerRecord
  yield encodeEdfHeader(spec)
  const quiet: ReadContext = { signal, warn: () => undefined }
  const notes = placeTals(plan.annotations(quiet), n - 1)
  try {
    let next = await notes.next()
    let r = 0
    for await (const digital of plan.records()) {
      const mine: TalAnnotation[] = []
      while (!next.done && next.value.record <= r) {
        mine.push(next.value.tal)
        next = await notes.next()
      }
      yield encodeDataRecord(digital, encodeTalBlock(onset0Sec + r * dur, mine, annotationBytes))
      r++
    }
    if (r !== n) throw new PipelineError('E_INTERNAL', `convert wrote ${r} data records, expected ${n} (the header says ${n}); report this`)
  } finally {
    await notes.return(undefined)
  }
}
