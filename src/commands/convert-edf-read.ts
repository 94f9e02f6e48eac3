// Reading an EDF/EDF+/BDF input for `convert`: whole data records in reads of about 1 MB (never
// the whole file), the start of its first record, and its TALs as annotations for the output.
// An EDF+D file whose records are not contiguous is refused here, while the annotations are
// sized, before anything is written: EDF+C output cannot hold gaps.
import { open } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'
import type { EdfHeader } from '../formats/edf-header.ts'
import { parseTalsOfRecord } from '../readers/read-edf.ts'
import type { ReadContext } from '../readers/read-context.ts'
import type { SourcedTal } from './convert-plan.ts'

const READ_BYTES = 1 << 20
/** Whole data records are read at once; this bounds the memory one record may take. */
const MAX_RECORD_BYTES = 64 << 20

/** Complete data records present (a truncated file is read up to its last complete record). */
export function recordsToRead(h: EdfHeader): number {
  return Math.min(h.recordCount, h.recordsOnDisk)
}

/**
 * Chunks of whole data records from the start, about 1 MB each. The bytes are a view of one
 * reused buffer: use them before pulling the next chunk.
 */
export async function* readRecordChunks(h: EdfHeader, signal: AbortSignal): AsyncGenerator<{ first: number; count: number; bytes: Uint8Array }> {
  if (h.recordBytes > MAX_RECORD_BYTES) {
    throw new PipelineError('E_EDF_HEADER_FIELD', `${h.file}: data records of ${(h.recordBytes / 2 ** 20).toFixed(1)} MB exceed convert's bound of ${MAX_RECORD_BYTES / 2 ** 20} MB per data record (it reads whole records); re-export the recording with shorter data records (e.g. 1 s)`, { file: h.file, field: 'duration of a data record', offset: 244 })
  }
  const total = recordsToRead(h)
  const per = Math.max(1, Math.floor(READ_BYTES / h.recordBytes))
  const buf = new Uint8Array(Math.min(per, Math.max(1, total)) * h.recordBytes)
  const fh = await open(h.file, 'r')
  try {
    for (let first = 0; first < total; first += per) {
      signal.throwIfAborted()
      const count = Math.min(per, total - first)
      const want = count * h.recordBytes
      const offset = h.headerBytes + first * h.recordBytes
      const { bytesRead } = await fh.read(buf, 0, want, offset)
      if (bytesRead < want) throw new PipelineError('E_TRUNCATED', `${h.file}: file shrank while being read: expected ${want} bytes of data records ${first}..${first + count - 1}, found ${bytesRead}; convert a file that is not being written`, { file: h.file, offset })
      yield { first, count, bytes: buf.subarray(0, want) }
    }
  } finally {
    await fh.close()
  }
}

const annotationSignals = (h: EdfHeader) => h.signals.filter((s) => s.isAnnotation).map((s) => s.index)

/** Onset (s) of the first data record from its time-keeping TAL; 0 without one. */
export async function readFirstOnset(h: EdfHeader, signal: AbortSignal): Promise<number> {
  const [t] = annotationSignals(h)
  if (t === undefined || recordsToRead(h) === 0) return 0
  for await (const { bytes } of readRecordChunks(h, signal)) return parseTalsOfRecord(bytes, h, t, 0, 0).recordOnsetSec ?? 0
  return 0
}

/**
 * The TALs of every annotation signal, in file order, placed in output records of `outDur`
 * seconds from `onset0`; `keep` false reads them only to check an EDF+D file for gaps.
 */
export async function* readEdfTals(h: EdfHeader, onset0: number, outDur: number, keep: boolean, ctx: ReadContext): AsyncGenerator<SourcedTal> {
  const tals = annotationSignals(h)
  const isD = h.format.endsWith('+D')
  if (tals.length === 0 || (!keep && !isD)) return
  let expected = onset0
  for await (const { first, count, bytes } of readRecordChunks(h, ctx.signal)) {
    for (let k = 0; k < count; k++) {
      const record = first + k
      for (const [i, t] of tals.entries()) {
        const parsed = parseTalsOfRecord(bytes, h, t, k, record)
        if (i === 0) {
          const onset = parsed.recordOnsetSec ?? expected
          if (isD && onset > expected + 1e-6) throw gapError(h, record, onset, expected)
          expected = onset + h.recordDurationSec
        }
        if (!keep) continue
        for (const tal of parsed.annotations) yield { onsetRecord: Math.max(0, Math.floor((tal.onsetSec - onset0) / outDur + 1e-9)), tal }
      }
    }
  }
}

function gapError(h: EdfHeader, record: number, onset: number, expected: number): PipelineError {
  const offset = h.headerBytes + record * h.recordBytes + h.signals[annotationSignals(h)[0]].byteOffsetInRecord
  const s = (x: number) => `${Math.round(x * 1e6) / 1e6} s`
  return new PipelineError(
    'E_USAGE',
    `${h.file} is EDF+D with a gap: data record ${record} starts at ${s(onset)}, ${s(onset - expected)} after the previous record ends (${s(expected)}); convert writes EDF+C, which cannot hold gaps: split the file at its gaps into EDF+C parts (e.g. EDFbrowser: Tools > Convert EDF+D to EDF+C) and convert each part`,
    { file: h.file, field: 'EDF Annotations', offset, dataRecord: record },
  )
}
