// WFDB record -> EDF+C, streamed (like WFDB's mit2edf). Every signal keeps its WFDB digital
// values (EDF digital range = the format's valid range, physical range derived from gain and
// baseline), so physical values round-trip exactly up to the 8-character header fields. The
// annotator file is read in hour-long batches, never whole.
import { PipelineError } from '../core/errors.ts'
import type { RecordSpec } from '../core/record.ts'
import { readWfdbHeaderFile, resolveWfdbRecord, type WfdbRecordPath } from '../formats/wfdb-path.ts'
import type { WfdbHeader } from '../formats/wfdb-header.ts'
import { WFDB_INVALID_SAMPLE } from '../formats/wfdb-formats.ts'
import type { EdfWriteSignal, EdfWriteSpec } from '../formats/edf-writer.ts'
import { joinAnnotationText } from '../formats/annotation-text.ts'
import { openDats, readDigitalBlocks } from '../readers/read-wfdb.ts'
import { readAnnotationStream } from '../readers/read-wfdb-annotations.ts'
import type { ReadContext } from '../readers/read-context.ts'
import { asciiText, edfStartOf, recordDurationFor } from './convert-header.ts'
import type { ConvertPlan, SourcedTal } from './convert-plan.ts'
import { count } from './plural.ts'

/** A WFDB input: header, paths and the samples per signal that can be read. */
export interface WfdbInput {
  rec: WfdbRecordPath
  header: WfdbHeader
  /** min(declared, on disk) samples per signal. */
  total: number
  spec: RecordSpec
}

/** Opens a WFDB record's header and measures the .dat files of `signals` (default all); warns when they are truncated (ctx given). */
export async function openWfdbInput(input: string, annotator: string | false, ctx: ReadContext | null, signals?: (h: WfdbHeader) => number[]): Promise<WfdbInput> {
  const rec = resolveWfdbRecord(input)
  const header = await readWfdbHeaderFile(input)
  const readers = await openDats(rec, header, signals ? signals(header) : header.signals.map((s) => s.index))
  for (const r of readers) await r.fh.close()
  const onDisk = Math.min(...readers.map((r) => r.framesOnDisk))
  const total = Math.min(header.nsamples ?? Infinity, onDisk)
  if (ctx && total < (header.nsamples ?? 0)) ctx.warn('E_TRUNCATED', `${readers.find((r) => r.framesOnDisk === onDisk)!.path}: .dat is truncated: the header declares ${header.nsamples} samples per signal, the file holds ${onDisk}; the EDF holds the samples present`)
  if (total === 0) throw new PipelineError('E_TRUNCATED', `${rec.headerPath}: the record holds no samples; nothing to convert`, { file: rec.headerPath })
  const spec: RecordSpec = { id: rec.name, path: input, format: 'wfdb', annotator, annotatorExplicit: annotator !== 'atr' }
  return { rec, header, total, spec }
}

/** The reference annotations as TALs in data records of `spr` samples; those past the signal are dropped with a warning. */
export async function* readWfdbTals(w: WfdbInput, spr: number, ctx: ReadContext): AsyncGenerator<SourcedTal> {
  if (!w.spec.annotator) return
  const notes = await readAnnotationStream(`${w.rec.basePath}.${w.spec.annotator}`, w.spec, w.header.fs, ctx)
  if (!notes) return
  let past = 0
  try {
    // An hour of annotations at a time: a 24 h file's annotations are never all in memory.
    for (let end = 0, last = false; !last; ) {
      last = end >= w.total
      const batch = last ? await notes.rest() : await notes.until((end += spr * 3600))
      for (const a of batch) {
        if (a.sample >= w.total) past++
        else yield { onsetRecord: Math.floor(a.sample / spr), tal: { onsetSec: Math.round((a.sample / w.header.fs) * 1e6) / 1e6, durationSec: null, texts: [joinAnnotationText(a.symbol, a.aux)] } }
      }
    }
  } finally {
    await notes.close()
  }
  if (past > 0) ctx.warn('W_ANNOTATIONS_DROPPED', `${count(past, 'annotation')} at or after sample ${w.total}, past the end of the signal, ${past === 1 ? 'was' : 'were'} left out`)
}

/** The header's patient and recording fields for a WFDB input. */
export function wfdbIdentity(w: WfdbInput): Pick<EdfWriteSpec, 'start' | 'patient' | 'recording'> {
  return {
    patient: { code: w.rec.name, sex: w.header.sex ?? 'X', additional: w.header.age !== undefined ? `age ${w.header.age}` : undefined },
    recording: { equipment: 'holter-pipeline_convert', additional: `WFDB ${w.rec.name}` },
    start: edfStartOf(w.header),
  }
}

/** Every signal of a WFDB record, digital values unchanged. */
export async function planWfdbCopy(input: string, annotator: string | false, ctx: ReadContext): Promise<ConvertPlan> {
  const w = await openWfdbInput(input, annotator, ctx)
  const { header, total } = w
  const durationSec = recordDurationFor(header.fs, header.file)
  const spr = Math.round(header.fs * durationSec)
  const all = header.signals.map((s) => s.index)
  const signals: EdfWriteSignal[] = header.signals.map((s) => {
    const invalid = WFDB_INVALID_SAMPLE[s.format]
    if (invalid < -32768) throw new PipelineError('E_WFDB_FORMAT', `signal ${s.index} "${s.label}" is stored in format ${s.format} (more than 16 bits), which EDF cannot hold without requantising; use convert --clean (requantised to the signal's range) or keep the WFDB record`, { file: header.file, field: 'format' })
    const digitalMin = invalid + 1
    const digitalMax = -invalid - 1
    const phys = (d: number) => ((d - s.baseline) / s.gain) * s.toMv
    return { label: asciiText(s.label), transducer: 'ECG electrode', physicalDimension: s.unitsKnown ? 'mV' : asciiText(s.units), physicalMin: phys(digitalMin), physicalMax: phys(digitalMax), digitalMin, digitalMax, samplesPerRecord: spr }
  })
  const recordCount = Math.ceil(total / spr)
  return {
    layout: { recordDurationSec: durationSec, recordCount, onset0Sec: 0 },
    annotations: (c) => readWfdbTals(w, spr, c),
    header: async () => ({ ...wfdbIdentity(w), recordDurationSec: durationSec, recordCount, signals }),
    async *records() {
      const readers = await openDats(w.rec, header, all)
      try {
        for await (const { digital } of readDigitalBlocks(readers, header, total, spr * 10, ctx.signal)) {
          const n = digital.get(0)!.length
          for (let off = 0; off < n; off += spr) yield all.map((i) => padRecord(digital.get(i)!.subarray(off, off + spr), spr, signals[i].digitalMin))
        }
      } finally {
        for (const r of readers) await r.fh.close()
      }
    },
  }
}

/** A data record's samples, the last record padded with its final value; invalid samples clamped. */
function padRecord(d: Int32Array, spr: number, digitalMin: number): Int32Array {
  const out = new Int32Array(spr)
  out.set(d)
  if (d.length < spr) out.fill(d.length ? d[d.length - 1] : 0, d.length)
  for (let i = 0; i < spr; i++) if (out[i] < digitalMin) out[i] = digitalMin
  return out
}
