// Pure encoders for EDF+C output: the header and one data record at a time, so a streaming
// converter never holds the recording. The record count may be written as -1 first and patched
// at the end (RECORD_COUNT_OFFSET, encodeRecordCountField). An 'EDF Annotations' signal is always
// appended last, as EDF+ requires. Numbers go through formatEdfNumber: a converter that scales
// physical values to digital ones should use the formatted limits (Number(formatEdfNumber(x))).
import { PipelineError } from '../core/errors.ts'
import { formatEdfNumber, writeField } from './edf-ascii.ts'
import { formatEdfPlusDate } from './edf-ident.ts'

/** One data signal to write (the annotation signal is added by the encoder). */
export interface EdfWriteSignal {
  label: string
  transducer?: string
  physicalDimension: string
  physicalMin: number
  physicalMax: number
  digitalMin: number
  digitalMax: number
  prefiltering?: string
  samplesPerRecord: number
}

export interface EdfDateParts { year: number; month: number; day: number }
export interface EdfTimeParts extends EdfDateParts { hour: number; minute: number; second: number }

/** What the EDF+C header says. Missing identification subfields are written as 'X' (unknown). */
export interface EdfWriteSpec {
  patient?: { code?: string; sex?: 'M' | 'F' | 'X'; birthdate?: EdfDateParts; name?: string; additional?: string }
  recording?: { admincode?: string; technician?: string; equipment?: string; additional?: string }
  /** Local start date and time of the recording. */
  start: EdfTimeParts
  recordDurationSec: number
  /** -1 while unknown (streaming); patch it with encodeRecordCountField at RECORD_COUNT_OFFSET. */
  recordCount: number
  signals: EdfWriteSignal[]
  /** Bytes per record of the 'EDF Annotations' signal (even); DEFAULT_ANNOTATION_BYTES when omitted. */
  annotationBytesPerRecord?: number
}

export const RECORD_COUNT_OFFSET = 236
/** Room for the time-keeping TAL of a 24 h recording plus a few short annotations. */
export const DEFAULT_ANNOTATION_BYTES = 64

function specError(field: string, expected: string, found: unknown): PipelineError {
  return new PipelineError('E_EDF_HEADER_FIELD', `EDF output header, ${field}: expected ${expected}, found ${JSON.stringify(found)}; fix the conversion settings`, { field })
}

function subfield(value: string | undefined): string {
  const v = (value ?? '').trim().replace(/\s+/g, '_')
  return v === '' ? 'X' : v
}

function number8(x: number, field: string): string {
  const s = formatEdfNumber(x, 8)
  if (s === null) throw specError(field, 'a number that fits 8 characters', x)
  return s
}

function integer8(x: number, field: string, min: number): string {
  if (!Number.isInteger(x) || x < min || String(x).length > 8) throw specError(field, `an integer >= ${min} of at most 8 characters`, x)
  return String(x)
}

/** The 8-byte 'number of data records' field, for patching a header written with -1. */
export function encodeRecordCountField(n: number): Uint8Array {
  const out = new Uint8Array(8)
  writeField(out, 0, 8, integer8(n, 'number of data records', -1), 'number of data records')
  return out
}

/** Encodes an EDF+C header: 256 * (signals + 2) bytes (data signals plus the annotation signal). */
export function encodeEdfHeader(spec: EdfWriteSpec): Uint8Array {
  const annBytes = spec.annotationBytesPerRecord ?? DEFAULT_ANNOTATION_BYTES
  if (!Number.isInteger(annBytes) || annBytes < 2 || annBytes % 2 !== 0) {
    throw specError('annotationBytesPerRecord', 'an even number of bytes >= 2', annBytes)
  }
  const signals: Required<EdfWriteSignal>[] = spec.signals.map((s) => ({ transducer: '', prefiltering: '', ...s }))
  signals.push({
    label: 'EDF Annotations', transducer: '', physicalDimension: '', physicalMin: -1, physicalMax: 1,
    digitalMin: -32768, digitalMax: 32767, prefiltering: '', samplesPerRecord: annBytes / 2,
  })
  const ns = signals.length
  const out = new Uint8Array(256 * (ns + 1))
  const p = spec.patient ?? {}
  const r = spec.recording ?? {}
  const s = spec.start
  const birth = p.birthdate ? formatEdfPlusDate(p.birthdate.year, p.birthdate.month, p.birthdate.day) : undefined
  const patient = [subfield(p.code), subfield(p.sex), subfield(birth), subfield(p.name), p.additional ?? ''].join(' ').trimEnd()
  const startdate = formatEdfPlusDate(s.year, s.month, s.day)
  const recording = ['Startdate', startdate, subfield(r.admincode), subfield(r.technician), subfield(r.equipment), r.additional ?? ''].join(' ').trimEnd()
  const two = (n: number) => String(n).padStart(2, '0')
  // EDF+ clipping rule: 'yy' stands for years outside 1985-2084, whose 4 digits are in 'Startdate'.
  const yy = s.year >= 1985 && s.year <= 2084 ? two(s.year % 100) : 'yy'
  writeField(out, 0, 8, '0', 'version')
  writeField(out, 8, 80, patient, 'patient identification')
  writeField(out, 88, 80, recording, 'recording identification')
  writeField(out, 168, 8, `${two(s.day)}.${two(s.month)}.${yy}`, 'start date')
  writeField(out, 176, 8, `${two(s.hour)}.${two(s.minute)}.${two(s.second)}`, 'start time')
  writeField(out, 184, 8, String(out.length), 'number of header bytes')
  writeField(out, 192, 44, 'EDF+C', 'reserved')
  out.set(encodeRecordCountField(spec.recordCount), RECORD_COUNT_OFFSET)
  if (!(spec.recordDurationSec > 0)) throw specError('duration of a data record', 'a number of seconds > 0', spec.recordDurationSec)
  writeField(out, 244, 8, number8(spec.recordDurationSec, 'duration of a data record'), 'duration of a data record')
  writeField(out, 252, 4, String(ns), 'number of signals')

  const columns: Array<[number, (sig: Required<EdfWriteSignal>, name: string) => string]> = [
    [16, (sig) => sig.label],
    [80, (sig) => sig.transducer],
    [8, (sig) => sig.physicalDimension],
    [8, (sig, name) => number8(sig.physicalMin, `${name} physical minimum`)],
    [8, (sig, name) => number8(sig.physicalMax, `${name} physical maximum`)],
    [8, (sig, name) => integer8(sig.digitalMin, `${name} digital minimum`, -32768)],
    [8, (sig, name) => integer8(sig.digitalMax, `${name} digital maximum`, -32768)],
    [80, (sig) => sig.prefiltering],
    [8, (sig, name) => integer8(sig.samplesPerRecord, `${name} samples per record`, 1)],
    [32, () => ''],
  ]
  signals.forEach((sig, i) => {
    const name = `signal ${i} ${JSON.stringify(sig.label)}`
    if (sig.digitalMax > 32767 || sig.digitalMax <= sig.digitalMin) {
      throw new PipelineError('E_EDF_DIGITAL_RANGE', `EDF output header, ${name}: expected -32768 <= digital minimum < digital maximum <= 32767, found ${sig.digitalMin}..${sig.digitalMax}; fix the conversion settings`, { field: 'digitalMax' })
    }
    if (number8(sig.physicalMin, name) === number8(sig.physicalMax, name)) {
      throw new PipelineError('E_EDF_DIGITAL_RANGE', `EDF output header, ${name}: expected physical minimum != physical maximum in 8 characters, found both ${sig.physicalMin}; widen the physical range`, { field: 'physicalMax' })
    }
  })
  let start = 256
  for (const [width, value] of columns) {
    signals.forEach((sig, i) => {
      const name = `signal ${i} ${JSON.stringify(sig.label)}`
      writeField(out, start + i * width, width, value(sig, name), `${name} field at byte ${start + i * width}`)
    })
    start += ns * width
  }
  return out
}

/** One data record: each signal's digital samples (int16 little-endian), then the annotation bytes. */
export function encodeDataRecord(digitalPerSignal: Array<Int32Array | Int16Array>, annotationBytes?: Uint8Array): Uint8Array {
  const sampleBytes = digitalPerSignal.reduce((n, d) => n + d.length * 2, 0)
  const ann = annotationBytes ?? new Uint8Array(0)
  if (ann.length % 2 !== 0) throw specError('annotation bytes of a data record', 'an even length', ann.length)
  const out = new Uint8Array(sampleBytes + ann.length)
  const view = new DataView(out.buffer)
  let p = 0
  digitalPerSignal.forEach((d, sig) => {
    for (let i = 0; i < d.length; i++, p += 2) {
      const v = d[i]
      if (v < -32768 || v > 32767) {
        throw new PipelineError('E_EDF_DIGITAL_RANGE', `EDF output record, signal ${sig} sample ${i}: expected a digital value in -32768..32767, found ${v}; clip to the digital range before encoding`, { field: 'digital', signal: sig, sample: i })
      }
      view.setInt16(p, v, true)
    }
  })
  out.set(ann, p)
  return out
}
