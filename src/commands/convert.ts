// `pipeline convert <record> <output.edf>`: a WFDB record as EDF+C, streamed (like WFDB's
// mit2edf). Every signal is written with its WFDB digital values unchanged (EDF digital range =
// the format's valid range, physical range derived from gain and baseline), so the physical
// values round-trip exactly up to the 8-character header fields. Annotations become TALs in the
// 'EDF Annotations' signal, in the data record that holds their sample: a first pass over the
// annotation file sizes that signal, a second streams them beside the samples.
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { AnnotationItem } from '../core/items.ts'
import { readWfdbHeaderFile, resolveWfdbRecord } from '../formats/wfdb-path.ts'
import { WFDB_INVALID_SAMPLE } from '../formats/wfdb-formats.ts'
import { encodeDataRecord, encodeEdfHeader, type EdfWriteSignal } from '../formats/edf-writer.ts'
import { encodeTalBlock, talBytes, type TalAnnotation } from '../formats/tal.ts'
import { joinAnnotationText } from '../formats/annotation-text.ts'
import { openDats, readDigitalBlocks } from '../stages/read-wfdb.ts'
import { readAnnotationStream, type AnnotationStream } from '../stages/read-wfdb-annotations.ts'
import { writeFileAtomic } from '../sinks/file-writer.ts'
import { edfStartOf, recordDurationFor } from './convert-header.ts'

export interface ConvertOptions {
  annotator: string | false
  signal: AbortSignal
  err: NodeJS.WritableStream
}

/** Converts one WFDB record to an EDF+C file; resolves with the exit code. */
export async function convertCommand(input: string, output: string, opts: ConvertOptions): Promise<number> {
  if (/\.(edf|bdf|rec)$/i.test(input)) throw new PipelineError('E_USAGE', 'convert reads a WFDB record (its .hea or base path); EDF input is already EDF', { file: input })
  if (!/\.edf$/i.test(output)) throw new PipelineError('E_USAGE', `the output file must end in .edf, found ${JSON.stringify(path.basename(output))}`, { file: output })
  const rec = resolveWfdbRecord(input)
  const header = await readWfdbHeaderFile(input)
  const all = header.signals.map((s) => s.index)
  const durationSec = recordDurationFor(header.fs, header.file)
  const spr = Math.round(header.fs * durationSec)
  const signals: EdfWriteSignal[] = header.signals.map((s) => {
    const invalid = WFDB_INVALID_SAMPLE[s.format]
    if (invalid < -32768) throw new PipelineError('E_WFDB_FORMAT', `signal ${s.index} "${s.label}" is stored in format ${s.format} (more than 16 bits), which EDF cannot hold without requantising; not supported yet`, { file: header.file, field: 'format' })
    const digitalMin = invalid + 1
    const digitalMax = -invalid - 1
    const phys = (d: number) => ((d - s.baseline) / s.gain) * s.toMv
    return { label: s.label, transducer: 'ECG electrode', physicalDimension: s.unitsKnown ? 'mV' : s.units, physicalMin: phys(digitalMin), physicalMax: phys(digitalMax), digitalMin, digitalMax, samplesPerRecord: spr }
  })
  const readers = await openDats(rec, header, all)
  const ctx = { signal: opts.signal, warn: (code: string, message: string) => opts.err.write(`warning: ${code}: ${message}\n`) }
  let notes: AnnotationStream | null = null
  try {
    const onDisk = Math.min(...readers.map((r) => r.framesOnDisk))
    const total = Math.min(header.nsamples ?? Infinity, onDisk)
    if (total < (header.nsamples ?? 0)) ctx.warn('E_TRUNCATED', `${readers.find((r) => r.framesOnDisk === onDisk)!.path}: .dat is truncated: the header declares ${header.nsamples} samples per signal, the file holds ${onDisk}; the EDF holds the samples present`)
    const nRecords = Math.ceil(total / spr)
    const spec = { id: rec.name, path: input, format: 'wfdb' as const, annotator: opts.annotator, annotatorExplicit: opts.annotator !== 'atr' }
    const annotationFile = opts.annotator ? `${rec.basePath}.${opts.annotator}` : null
    // Pass 1: bytes of TALs per data record, to size the annotation signal.
    // Annotations past the last sample (a truncated .dat) are left out: no data record holds them.
    const talOf = (a: AnnotationItem) => toTal(a.sample, header.fs, joinAnnotationText(a.symbol, a.aux))
    const tals = (items: AnnotationItem[]) => items.filter((a) => a.sample < total).map(talOf)
    const need = new Map<number, number>()
    let past = 0
    const sizing = annotationFile ? await readAnnotationStream(annotationFile, spec, header.fs, ctx) : null
    const size = (batch: AnnotationItem[]) => {
      for (const a of batch) {
        if (a.sample >= total) past++
        else {
          const r = Math.min(nRecords - 1, Math.max(0, Math.floor(a.sample / spr)))
          need.set(r, (need.get(r) ?? 0) + talBytes(talOf(a)))
        }
      }
    }
    // Streamed an hour of records at a time: a 24 h file's annotations are never all in memory.
    if (sizing) {
      for (let end = 0; end < total; ) size(await sizing.until((end += spr * 3600)))
      size(await sizing.rest())
    }
    if (past > 0) ctx.warn('W_ANNOTATIONS_DROPPED', `${past} annotations at or after sample ${total}, past the end of the signal, were left out`)
    const keeping = talBytes({ onsetSec: (nRecords - 1) * durationSec, durationSec: null, texts: [''] }) + 1
    const annBytes = 2 * Math.ceil((keeping + Math.max(0, ...need.values())) / 2)
    const edfHeader = encodeEdfHeader({
      patient: { code: rec.name, sex: header.sex ?? 'X', additional: header.age !== undefined ? `age ${header.age}` : undefined },
      recording: { equipment: 'holter-pipeline_convert', additional: `WFDB ${rec.name}` },
      start: edfStartOf(header), recordDurationSec: durationSec, recordCount: nRecords, signals, annotationBytesPerRecord: annBytes,
    })
    // Pass 2: header, then one data record per `spr` frames with that record's TALs.
    notes = annotationFile ? await readAnnotationStream(annotationFile, spec, header.fs, ctx) : null
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield edfHeader
      let r = 0
      let late: TalAnnotation[] = []
      for await (const { start, digital } of readDigitalBlocks(readers, header, total, spr * 10, opts.signal)) {
        const n = digital.get(0)!.length
        const items = notes ? await notes.until(start + n) : []
        late = late.concat(tals(items))
        for (let off = 0; off < n; off += spr, r++) {
          const perSignal = all.map((i) => padRecord(digital.get(i)!.subarray(off, off + spr), spr, signals[i]))
          const end = (r + 1) * durationSec
          let mine: TalAnnotation[]
          if (r === nRecords - 1) {
            mine = late.concat(notes ? tals(await notes.rest()) : [])
            late = []
          } else {
            mine = late.filter((t) => t.onsetSec < end - 1e-9)
            late = late.filter((t) => t.onsetSec >= end - 1e-9)
          }
          yield encodeDataRecord(perSignal, encodeTalBlock(r * durationSec, mine, annBytes))
        }
      }
    }
    const bytes = await writeFileAtomic(output, chunks(), opts.signal)
    opts.err.write(`wrote ${output}: ${nRecords} data records of ${durationSec} s, ${signals.length} signals + EDF Annotations, ${(bytes / 1e6).toFixed(1)} MB\n`)
    return 0
  } finally {
    await notes?.close()
    for (const r of readers) await r.fh.close()
  }
}

function toTal(sample: number, fs: number, text: string): TalAnnotation {
  return { onsetSec: Math.round((sample / fs) * 1e6) / 1e6, durationSec: null, texts: [text] }
}

/** A data record's samples, the last record padded with its final value; invalid samples clamped. */
function padRecord(d: Int32Array, spr: number, s: EdfWriteSignal): Int32Array {
  const out = new Int32Array(spr)
  out.set(d)
  if (d.length < spr) out.fill(d.length ? d[d.length - 1] : 0, d.length)
  for (let i = 0; i < spr; i++) if (out[i] < s.digitalMin) out[i] = s.digitalMin
  return out
}
