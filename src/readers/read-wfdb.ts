// Streams a WFDB record as items: one `recording` item, then blocks of frames decoded from its
// .dat file(s) read in chunks, with the reference annotations (read from the annotator file in
// chunks alongside) yielded before the block that contains their sample. Several .dat files are
// read in lockstep, a block's worth of frames from each.
import { open, stat, type FileHandle } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'
import type { Item } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { readWfdbHeaderFile, resolveWfdbRecord, wfdbFilePath, type WfdbRecordPath } from '../formats/wfdb-path.ts'
import { wfdbStartTime, type WfdbHeader } from '../formats/wfdb-header.ts'
import { createWfdbDecoder, datFilesOf, type WfdbDecoder } from '../formats/wfdb-signal.ts'
import { createWfdbPhysical } from '../formats/wfdb-physical-wasm.ts'
import { selectWfdbSignals } from '../formats/wfdb-select.ts'
import { readAnnotationStream, type AnnotationStream } from './read-wfdb-annotations.ts'
import { deskewBlocks } from './wfdb-skew.ts'
import { concatSamples } from '../dsp/concat-samples.ts'
import { WFDB_INVALID_SAMPLE } from '../formats/wfdb-formats.ts'
import type { ReadOptions } from './read-options.ts'
import type { ReadContext } from './read-context.ts'

export interface DatReader {
  path: string
  fh: FileHandle
  decoder: WfdbDecoder
  signals: number[]
  position: number
  framesOnDisk: number
  /**
   * Frames decoded but not handed out yet, as the decoder gave them: pieces (one array per
   * signal each), the first from readyAt on. Kept apart, not joined, so a refill copies nothing;
   * only a block that spans two pieces is joined, and only its own frames.
   */
  ready: Int32Array[][]
  readyAt: number
  /** Frames in `ready` from readyAt on. */
  readyFrames: number
  /** The file's end was read (the decoder's tail is in `ready`). */
  eof: boolean
  buffer: Buffer
}

// Bytes per read: a block of 10 s is a few KB of a .dat (5 KB on Icentia11k: one
// signal at 250 Hz in format 16; 10.8 KB on MIT-BIH: two at 360 Hz in format 212), and a read per
// block costs a thread-pool round trip; larger reads than this gained no speed and held more memory.
const READ_BYTES = 64 << 10

/** Yields the items of one WFDB record. */
export async function* readWfdbItems(spec: RecordSpec, opts: ReadOptions, ctx: ReadContext): AsyncGenerator<Item> {
  const rec = resolveWfdbRecord(spec.path)
  const header = await readWfdbHeaderFile(spec.path)
  const leads = selectWfdbSignals(header, spec.leads)
  const readers: DatReader[] = []
  let notes: AnnotationStream | null = null
  try {
    readers.push(...(await openDats(rec, header, leads)))
    const framesOnDisk = Math.min(...readers.map((r) => r.framesOnDisk))
    const declared = header.nsamples ?? framesOnDisk
    const total = Math.min(declared, framesOnDisk)
    if (framesOnDisk < declared) {
      const msg = `${readers.find((r) => r.framesOnDisk === framesOnDisk)!.path}: .dat is truncated: the header declares ${declared} samples per signal, the file holds ${framesOnDisk} (${((declared - framesOnDisk) / header.fs).toFixed(1)} s missing)`
      if (opts.onTruncated === 'fail') throw new PipelineError('E_TRUNCATED', `${msg} (read: onTruncated is 'fail'; use 'warn' to read what is there)`, { file: readers[0].path })
      ctx.warn('E_TRUNCATED', `${msg}; the complete samples were read`)
    }
    const fs = header.fs
    const labels = leads.map((i) => header.signals[i].label)
    for (const i of leads) if (!header.signals[i].unitsKnown) ctx.warn('W_UNIT', `signal "${header.signals[i].label}": unit "${header.signals[i].units}" is not a voltage unit known to the reader; its values are kept unconverted`)
    // The dataset's patient fields win; the header's age and sex fill what it leaves out.
    const fromHeader = header.age !== undefined || header.sex !== undefined ? { age: header.age, sex: header.sex } : undefined
    const patient = fromHeader || spec.patient ? { ...fromHeader, ...spec.patient } : undefined
    yield {
      kind: 'recording', recordId: spec.id, format: 'WFDB', file: spec.source ?? rec.headerPath, startTime: wfdbStartTime(header), fs,
      durationSec: total / fs, totalSamples: total, labels, units: 'mV', ...(patient ? { patient } : {}),
    }

    const annotator = opts.annotations ? spec.annotator : false
    notes = annotator ? await readAnnotationStream(`${rec.basePath}.${annotator}`, spec, fs, ctx) : null
    const toPhysicalMv = createWfdbPhysical()
    for await (const { start, digital } of readDigitalBlocks(readers, header, total, Math.round(opts.blockSeconds * fs), ctx.signal)) {
      const n = digital.get(leads[0])!.length
      const block = leads.map((i) => toPhysicalMv(digital.get(i)!, header.signals[i]))
      if (notes) for (const a of await notes.until(start + n)) yield a
      yield { kind: 'block', recordId: spec.id, fs, startSample: start, labels, leads: block }
    }
    // What is left lies past the last sample read (a truncated .dat), or comes after such an
    // annotation in the file: no block takes it.
    const left = notes ? await notes.rest() : []
    const past = left.length
    const behind = left.filter((a) => a.sample < total).length
    if (past > 0) ctx.warn('W_ANNOTATIONS_DROPPED', `${past} reference annotations at or after sample ${total}, past the end of the signal read${behind ? `, or after one of those in the file (${behind})` : ''}, were dropped`)
  } finally {
    await notes?.close()
    for (const r of readers) await r.fh.close()
  }
}

/** Opens the .dat files holding `signals` (close each reader's `fh` when done). */
export async function openDats(rec: WfdbRecordPath, header: WfdbHeader, signals: number[]): Promise<DatReader[]> {
  const out: DatReader[] = []
  try {
    for (const f of datFilesOf(header)) if (f.signals.some((i) => signals.includes(i))) out.push(await openDat(wfdbFilePath(rec, f.fileName), f, header.signals, header.file))
  } catch (err) {
    for (const r of out) await r.fh.close()
    throw err
  }
  return out
}

/**
 * Digital samples of every signal of `readers`, `samplesPerBlock` at a time (the last block
 * shorter), `total` per signal, read in lockstep from the .dat files and aligned by skew.
 */
export function readDigitalBlocks(readers: DatReader[], header: WfdbHeader, total: number, samplesPerBlock: number, signal: AbortSignal): AsyncGenerator<{ start: number; digital: Map<number, Int32Array> }> {
  const step = Math.max(2, 2 * Math.round(samplesPerBlock / 2)) // even: 212 with odd signal counts packs frame pairs
  const sigs = readers.flatMap((r) => r.signals)
  const skews = new Map(sigs.map((i) => [i, header.signals[i].skew]))
  const maxSkew = Math.max(0, ...skews.values())
  if (maxSkew === 0) return readFrameBlocks(readers, total, step, signal)
  const frames = Math.min(total + maxSkew, ...readers.map((r) => r.framesOnDisk))
  const invalid = new Map(sigs.map((i) => [i, WFDB_INVALID_SAMPLE[header.signals[i].format]]))
  return deskewBlocks(readFrameBlocks(readers, frames, step, signal), skews, invalid, total, step)
}

async function* readFrameBlocks(readers: DatReader[], total: number, step: number, signal: AbortSignal): AsyncGenerator<{ start: number; digital: Map<number, Int32Array> }> {
  for (let start = 0; start < total; start += step) {
    signal.throwIfAborted()
    const n = Math.min(step, total - start)
    const digital = new Map<number, Int32Array>()
    for (const r of readers) {
      const frames = await readFrames(r, n)
      r.signals.forEach((sig, k) => digital.set(sig, frames[k]))
    }
    yield { start, digital }
  }
}

async function openDat(path: string, f: ReturnType<typeof datFilesOf>[number], all: RecordSpecSignals, headerFile: string): Promise<DatReader> {
  let size: number
  try {
    size = (await stat(path)).size
  } catch (cause) {
    throw new PipelineError('E_WFDB_DAT_MISSING', `${headerFile}: the header names signal file ${f.fileName}, which is missing at ${path}; copy the .dat next to the .hea`, { file: headerFile, field: 'fileName' }, { cause })
  }
  const signals = f.signals.map((i) => all[i])
  const decoder = createWfdbDecoder(signals, path)
  return {
    path, fh: await open(path, 'r'), decoder, signals: f.signals, position: f.byteOffset, framesOnDisk: Math.floor((size - f.byteOffset) / decoder.bytesPerFrame),
    ready: [], readyAt: 0, readyFrames: 0, eof: false, buffer: Buffer.allocUnsafe(READ_BYTES),
  }
}

type RecordSpecSignals = Awaited<ReturnType<typeof readWfdbHeaderFile>>['signals']

/**
 * The next `n` frames of a .dat (fewer only at the end of the file), read ahead READ_BYTES at a
 * time. The arrays are views the reader never writes again (a refill makes new ones), or, for a
 * block spanning two reads, a join of its own frames.
 */
async function readFrames(r: DatReader, n: number): Promise<Int32Array[]> {
  while (r.readyFrames < n && !r.eof) {
    const { bytesRead } = await r.fh.read(r.buffer, 0, r.buffer.length, r.position)
    r.position += bytesRead
    // Only a read of nothing is the end of the file (a network file system may return less than
    // asked before it); then come the frames only the end makes whole (212).
    r.eof = bytesRead === 0
    const got = r.eof ? r.decoder.end().tail : r.decoder.push(r.buffer.subarray(0, bytesRead))
    if (got[0].length === 0) continue
    r.ready.push(got)
    r.readyFrames += got[0].length
  }
  const take = Math.min(n, r.readyFrames)
  const parts: Int32Array[][] = r.signals.map(() => [])
  for (let left = take; left > 0; ) {
    const piece = r.ready[0]
    const k = Math.min(left, piece[0].length - r.readyAt)
    piece.forEach((a, s) => parts[s].push(a.subarray(r.readyAt, r.readyAt + k)))
    left -= k
    r.readyAt += k
    if (r.readyAt === piece[0].length) {
      r.ready.shift()
      r.readyAt = 0
    }
  }
  r.readyFrames -= take
  return parts.map((p) => (p.length === 0 ? new Int32Array(0) : concatSamples(p, (len) => new Int32Array(len))))
}
