// Streams an EDF/EDF+/BDF file as items: one `recording` item, then blocks of whole data records
// (never the whole file) with the reference annotations of those records before their block,
// and for EDF+D an explicit `gap` item wherever a record's onset jumps. Sample numbering of the
// blocks is continuous (gaps are not filled); annotation times stay absolute.
// The TALs are parsed even with `annotations: false`, as `pipeline info` parses them: the
// time-keeping TAL at its place in every record is what shows that the header's signal layout
// (samples per record) matches the data, and a file one command rejects must not be read as
// misaligned samples by another.
import { open } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'
import type { AnnotationItem, Item } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { readEdfHeaderFromFile } from '../formats/edf-file.ts'
import { selectEcgSignals } from '../formats/edf-select.ts'
import { signalBytes } from '../formats/edf-decode.ts'
import { createEdfLeadsDecoder } from '../formats/edf-decode-wasm.ts'
import { parseTalBlock } from '../formats/tal.ts'
import { splitAnnotationText } from '../formats/annotation-text.ts'
import type { EdfHeader } from '../formats/edf-header.ts'
import type { ReadOptions } from './read-options.ts'
import type { ReadContext } from './read-context.ts'

const READ_BYTES = 1 << 20
/** Whole data records are read at once; this bounds the memory one record may take. */
const MAX_RECORD_BYTES = 64 << 20

/** Yields the items of one EDF-family record. */
export async function* readEdfItems(spec: RecordSpec, opts: ReadOptions, ctx: ReadContext): AsyncGenerator<Item> {
  const { header } = await readEdfHeaderFromFile(spec.path)
  const file = spec.path
  const leads = selectEcgSignals(header, file, spec.leads)
  const fs = header.signals[leads[0]].sampleRate
  const labels = leads.map((i) => header.signals[i].label)
  const tals = header.signals.filter((s) => s.isAnnotation).map((s) => s.index)
  const nRecords = Math.min(header.recordCount, header.recordsOnDisk)
  const truncation = describeTruncation(header)
  if (truncation && opts.onTruncated === 'fail') throw new PipelineError('E_TRUNCATED', `${truncation} (read: onTruncated is 'fail'; use 'warn' to read the complete records)`, { file, offset: header.headerBytes + nRecords * header.recordBytes })
  for (const i of leads) {
    const s = header.signals[i]
    if (s.toMv === null) ctx.warn('W_UNIT', `signal "${s.label}": unit "${s.physicalDimension}" is not a voltage unit known to the reader; its values are kept unconverted`)
  }
  if (header.startTimeProblem) ctx.warn('W_EDF_START_DATE', `${file}: ${header.startTimeProblem}; the recording's start time is unknown (startTime null: times stay relative to its start); fix the header to keep clock times`)
  const spr = header.signals[leads[0]].samplesPerRecord
  yield {
    kind: 'recording', recordId: spec.id, format: header.format, file: spec.source ?? file, startTime: header.startTime, fs,
    durationSec: nRecords * header.recordDurationSec, totalSamples: nRecords * spr, labels, units: 'mV',
    ...(spec.patient ? { patient: spec.patient } : {}),
  }

  if (header.recordBytes > MAX_RECORD_BYTES) {
    throw new PipelineError('E_EDF_HEADER_FIELD', `${file}: data records of ${(header.recordBytes / 2 ** 20).toFixed(1)} MB exceed the reader's bound of ${MAX_RECORD_BYTES / 2 ** 20} MB per data record (it reads whole records); re-export the recording with shorter data records (e.g. 1 s)`, { file, field: 'duration of a data record', offset: 244 })
  }
  const perBlock = Math.max(1, Math.min(Math.round(opts.blockSeconds / (header.recordDurationSec || 1)), Math.floor((8 << 20) / header.recordBytes)))
  // Reads of about 1 MB into one reused buffer: thousands of small reads cost more in thread
  // pool round trips than decoding does. Blocks are decoded into fresh arrays, so reusing the
  // raw buffer is safe once a block has been yielded.
  const perRead = perBlock * Math.max(1, Math.floor(READ_BYTES / (perBlock * header.recordBytes)))
  const raw = new Uint8Array(Math.min(perRead, Math.max(1, nRecords)) * header.recordBytes)
  const decode = createEdfLeadsDecoder() // before the file is open: nothing to close if it throws
  const fh = await open(file, 'r')
  let emitted = 0 // samples emitted so far (continuous numbering)
  let expectedOnset = 0 // seconds: where the next record starts if there is no gap
  let gapSec = 0
  const notes: AnnotationItem[] = []
  const isD = header.format.endsWith('+D')
  try {
    for (let read0 = 0; read0 < nRecords; read0 += perRead) {
      ctx.signal.throwIfAborted()
      const inRead = Math.min(perRead, nRecords - read0)
      const want = inRead * header.recordBytes
      const { bytesRead } = await fh.read(raw, 0, want, header.headerBytes + read0 * header.recordBytes)
      if (bytesRead < want) throw new PipelineError('E_TRUNCATED', `file shrank while being read: expected ${want} bytes of data records ${read0}..${read0 + inRead - 1}, found ${bytesRead}`, { file, offset: header.headerBytes + read0 * header.recordBytes })
      for (let b0 = 0; b0 < inRead; b0 += perBlock) {
        const n = Math.min(perBlock, inRead - b0)
        const chunk = raw.subarray(b0 * header.recordBytes, (b0 + n) * header.recordBytes)
        // Split the block at EDF+D discontinuities so no block spans a gap.
        let runStart = 0
        for (let k = 0; k < n; k++) {
          const recordIndex = read0 + b0 + k
          let onset = expectedOnset
          // Parsed without annotations too: a record's TAL shows its bytes are where the header
          // says (a file whose layout is off fails here, as in `pipeline info`, not as shifted
          // samples), and gives EDF+D's record onsets.
          for (let t = 0; t < tals.length; t++) {
            const parsed = parseTalsOfRecord(chunk, header, tals[t], k, recordIndex)
            if (t === 0) {
              if (parsed.recordOnsetSec !== null) onset = parsed.recordOnsetSec
              // A first record that starts after the header's start time is a gap at sample 0
              // too, for EDF+C as well (its later records are contiguous by definition).
              if ((isD || recordIndex === 0) && onset > expectedOnset + 1e-6) {
                for (const it of flushRun(chunk, runStart, k)) yield it
                yield { kind: 'gap', recordId: spec.id, startMs: Math.round(expectedOnset * 1000), endMs: Math.round(onset * 1000), atSample: emitted }
                gapSec += onset - expectedOnset
                runStart = k
              }
            }
            if (opts.annotations) for (const a of parsed.annotations) for (const text of a.texts) notes.push(toAnnotation(spec.id, text, a.onsetSec, a.durationSec, fs, gapSec))
          }
          expectedOnset = onset + header.recordDurationSec
        }
        for (const it of flushRun(chunk, runStart, n)) yield it
      }
    }
  } finally {
    await fh.close()
  }

  /**
   * The annotations gathered so far, then the block of records [from, to) of `chunk`. An array
   * the caller yields from, not a generator: `yield*` in an async generator costs a promise more
   * per item, and every annotation passes here.
   */
  function flushRun(chunk: Uint8Array, from: number, to: number): Item[] {
    if (to <= from) return []
    const out: Item[] = notes.sort((a, b) => a.sample - b.sample).splice(0, notes.length)
    const part = chunk.subarray(from * header.recordBytes, to * header.recordBytes)
    const block = decode(part, header, leads, to - from)
    out.push({ kind: 'block', recordId: spec.id, fs, startSample: emitted, labels, leads: block })
    emitted += block[0].length
    return out
  }
  if (truncation) ctx.warn('E_TRUNCATED', `${truncation}; the complete records were read`)
}

function toAnnotation(recordId: string, text: string, onsetSec: number, durationSec: number | null, fs: number, gapSec: number): AnnotationItem {
  const { symbol, aux } = splitAnnotationText(text)
  return {
    kind: 'annotation', recordId, source: 'reference', sample: Math.round((onsetSec - gapSec) * fs), timeMs: Math.round(onsetSec * 1e6) / 1e3,
    symbol, aux, ...(durationSec !== null ? { durationMs: Math.round(durationSec * 1e6) / 1e3 } : {}),
  }
}

/** The TALs of signal `t` in record `k` of `buf` (record `recordIndex` of the file); errors carry the file offset. */
export function parseTalsOfRecord(buf: Uint8Array, header: EdfHeader, t: number, k: number, recordIndex: number): ReturnType<typeof parseTalBlock> {
  try {
    return parseTalBlock(signalBytes(buf, header, t, k), header.file, recordIndex)
  } catch (err) {
    // parseTalBlock counts bytes from the start of the annotation signal; messages print file offsets.
    if (!(err instanceof PipelineError) || typeof err.context.offset !== 'number') throw err
    const offset = header.headerBytes + recordIndex * header.recordBytes + header.signals[t].byteOffsetInRecord + err.context.offset
    throw new PipelineError(err.code, err.message, { ...err.context, offset }, { cause: err })
  }
}

/** A one-line description of data missing at the end of the file, or null when complete. */
export function describeTruncation(h: EdfHeader): string | null {
  if (!h.truncated && h.trailingBytes === 0) return null
  const missing = h.recordCountDeclared > 0 ? h.recordCountDeclared - h.recordsOnDisk : 0
  const sec = (n: number) => `${(n * h.recordDurationSec).toFixed(1)} s`
  const complete = `${h.recordsOnDisk} complete data records (${sec(h.recordsOnDisk)})`
  const lost = missing > 0 ? `it holds ${complete} of the ${h.recordCountDeclared} declared; ${missing} data records (${sec(missing)}) are missing` : `the file has ${complete}`
  const partial = h.trailingBytes > 0 ? `; it ends ${h.trailingBytes} bytes into data record ${h.recordsOnDisk} (of ${h.recordBytes} bytes)` : ''
  return `file is truncated: ${lost}${partial}`
}
