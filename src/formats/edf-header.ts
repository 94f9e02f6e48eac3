// EDF / EDF+ / BDF header parsing (EDF spec: https://www.edfplus.info/specs/edf.html, EDF+:
// https://www.edfplus.info/specs/edfplus.html, BDF: 0xFF 'BIOSEMI' version, 24-bit samples).
// Two steps so that readers never load more than they need: the fixed 256 bytes say how long the
// whole header is (256 * (ns + 1)), then the full header is parsed. Pure functions over bytes;
// the file name is only used in messages.
import { PipelineError } from '../core/errors.ts'
import { parseEdfNumber, readField, show } from './edf-ascii.ts'
import {
  checkStartTime, parsePatientFields, parseRecordingFields, yearOfEdfPlusDate,
  type EdfPatientFields, type EdfRecordingFields,
} from './edf-ident.ts'
import { parseEdfSignals, type EdfSignal } from './edf-signals.ts'

export type { EdfSignal } from './edf-signals.ts'
export type { EdfPatientFields, EdfRecordingFields } from './edf-ident.ts'

export const EDF_FIXED_HEADER_BYTES = 256

export type EdfFormat = 'EDF' | 'EDF+C' | 'EDF+D' | 'BDF' | 'BDF+C' | 'BDF+D'

/** Everything an EDF/BDF header declares, validated, plus what the file size says about the data. */
export interface EdfHeader {
  /** The file name used in messages. */
  file: string
  format: EdfFormat
  isBdf: boolean
  /** EDF+ or BDF+ (has annotation signals and TAL record onsets). */
  isPlus: boolean
  /** Local patient identification, trimmed. */
  patient: string
  /** Local recording identification, trimmed. */
  recording: string
  /** EDF+ patient subfields, null for plain EDF/BDF. */
  patientFields: EdfPatientFields | null
  /** EDF+ recording subfields, null for plain EDF/BDF or when the field lacks 'Startdate'. */
  recordingFields: EdfRecordingFields | null
  /** The 'dd.mm.yy' start date field as written. */
  startDateRaw: string
  /** The 'hh.mm.ss' start time field as written. */
  startTimeRaw: string
  /** ISO local 'YYYY-MM-DDTHH:MM:SS' (no zone), or null when the fields are not a valid date. */
  startTime: string | null
  /** Why startTime is null (the field, its byte and its text), for readers to warn; null otherwise. */
  startTimeProblem: string | null
  headerBytes: number
  /** The 44-byte reserved field, trimmed ('EDF+C', 'EDF+D', '24BIT', ...). */
  reserved: string
  /** The record count as written; -1 means unknown (allowed while a recorder is still writing). */
  recordCountDeclared: number
  /** Declared count, or the whole records on disk when the declared count is -1. */
  recordCount: number
  /** Whole data records present in the file: floor((fileSize - headerBytes) / recordBytes). */
  recordsOnDisk: number
  /** Bytes of a partial record at the end of the file (0 for a well-formed file). */
  trailingBytes: number
  /** True when the header declares more records than the file holds (callers warn and read what is there). */
  truncated: boolean
  /** Duration of one data record in seconds (0 is allowed only for annotation-only EDF+ files). */
  recordDurationSec: number
  nSignals: number
  signals: EdfSignal[]
  /** 2 for EDF, 3 for BDF. */
  bytesPerSample: 2 | 3
  /** Bytes in one data record, all signals. */
  recordBytes: number
}

const BIOSEMI = [0x42, 0x49, 0x4f, 0x53, 0x45, 0x4d, 0x49]

function isVersionPrefix(buf: Uint8Array): boolean {
  const n = Math.min(8, buf.length)
  for (let i = 0; i < n; i++) {
    const b = buf[i]
    const ok = buf[0] === 0xff ? (i === 0 || b === BIOSEMI[i - 1]) : (i === 0 ? b === 0x30 : b === 0x20 || b === 0)
    if (!ok) return false
  }
  return n > 0
}

function fixedNumber(buf: Uint8Array, offset: number, width: number): { value: number | null; raw: string } {
  const raw = readField(buf, offset, width)
  const value = parseEdfNumber(raw)
  return { value, raw }
}

function fieldError(file: string, field: string, offset: number, name: string, expected: string, found: string): PipelineError {
  return new PipelineError(
    'E_EDF_HEADER_FIELD',
    `${file}: ${name} (byte ${offset}): expected ${expected}, found ${found}; fix the header or export the recording again`,
    { file, field, offset },
  )
}

/** Validates the version and reads the header length and signal count from the first 256 bytes. */
export function parseEdfFixedHeader(buf: Uint8Array, file: string): { headerBytes: number; nSignals: number } {
  if (!isVersionPrefix(buf)) {
    let found = ''
    for (let i = 0; i < Math.min(8, buf.length); i++) found += String.fromCharCode(buf[i])
    const what = buf.length === 0 ? 'an empty file' : show(found)
    throw new PipelineError(
      'E_NOT_EDF',
      `${file}: expected an EDF/BDF file (version field '0' at byte 0, or 0xFF 'BIOSEMI' for BDF), found ${what}; check that the path points to an .edf/.bdf recording`,
      { file, field: 'version', offset: 0 },
    )
  }
  if (buf.length < EDF_FIXED_HEADER_BYTES) {
    throw new PipelineError(
      'E_EDF_HEADER_SHORT',
      `${file}: header ends at byte ${buf.length}: expected at least ${EDF_FIXED_HEADER_BYTES} bytes (the fixed EDF header), found ${buf.length}; the file is cut short, copy it again`,
      { file, field: 'header', offset: buf.length },
    )
  }
  const ns = fixedNumber(buf, 252, 4)
  if (ns.value === null || !Number.isInteger(ns.value) || ns.value < 1) {
    throw fieldError(file, 'nSignals', 252, 'number of signals', 'an integer >= 1', show(ns.raw))
  }
  const hb = fixedNumber(buf, 184, 8)
  const expected = EDF_FIXED_HEADER_BYTES * (ns.value + 1)
  if (hb.value !== expected) {
    throw fieldError(file, 'headerBytes', 184, 'number of header bytes', `${expected} (256 * (${ns.value} signals + 1))`, show(hb.raw))
  }
  return { headerBytes: expected, nSignals: ns.value }
}

/** Parses and validates a whole header (`buf` holds at least headerBytes bytes of the file). */
export function parseEdfHeader(buf: Uint8Array, file: string, fileSize: number): EdfHeader {
  const { headerBytes, nSignals } = parseEdfFixedHeader(buf, file)
  if (buf.length < headerBytes) {
    throw new PipelineError(
      'E_EDF_HEADER_SHORT',
      `${file}: header ends at byte ${buf.length}: expected ${headerBytes} header bytes (256 * (${nSignals} signals + 1)), found ${buf.length}; the file is cut short or the signal count is wrong`,
      { file, field: 'header', offset: buf.length },
    )
  }
  const isBdf = buf[0] === 0xff
  const reserved = readField(buf, 192, 44)
  const plus = /^[EB]DF\+([CD])/.exec(reserved)
  const format = `${isBdf ? 'BDF' : 'EDF'}${plus ? `+${plus[1]}` : ''}` as EdfFormat

  const count = fixedNumber(buf, 236, 8)
  if (count.value === null || !Number.isInteger(count.value) || count.value < -1) {
    throw fieldError(file, 'recordCount', 236, 'number of data records', 'an integer >= 0, or -1 for unknown', show(count.raw))
  }
  const duration = fixedNumber(buf, 244, 8)
  if (duration.value === null) {
    throw fieldError(file, 'recordDurationSec', 244, 'duration of a data record', 'a number of seconds', show(duration.raw))
  }
  const signals = parseEdfSignals(buf, file, nSignals, isBdf, duration.value)
  const hasData = signals.some((s) => !s.isAnnotation)
  if (duration.value < 0 || (duration.value === 0 && hasData)) {
    throw new PipelineError(
      'E_EDF_RECORD_DURATION',
      `${file}: duration of a data record (byte 244): expected a number of seconds > 0, found ${show(duration.raw)}; only annotation-only EDF+ files may use 0; fix the header`,
      { file, field: 'recordDurationSec', offset: 244 },
    )
  }

  const bytesPerSample = isBdf ? 3 : 2
  const recordBytes = signals.reduce((n, s) => n + s.samplesPerRecord, 0) * bytesPerSample
  const dataBytes = Math.max(0, fileSize - headerBytes)
  const recordsOnDisk = Math.floor(dataBytes / recordBytes)
  const recordCount = count.value === -1 ? recordsOnDisk : count.value
  const patient = readField(buf, 8, 80)
  const recording = readField(buf, 88, 80)
  const isPlus = plus !== null
  const recordingFields = isPlus ? parseRecordingFields(recording) : null
  const startDateRaw = readField(buf, 168, 8)
  const startTimeRaw = readField(buf, 176, 8)
  const plusYear = yearOfEdfPlusDate(recordingFields?.startdate ?? null)
  const start = checkStartTime(startDateRaw, startTimeRaw, plusYear)
  return {
    file,
    format,
    isBdf,
    isPlus,
    patient,
    recording,
    patientFields: isPlus ? parsePatientFields(patient) : null,
    recordingFields,
    startDateRaw,
    startTimeRaw,
    startTime: 'startTime' in start ? start.startTime : null,
    startTimeProblem: 'problem' in start ? start.problem : null,
    headerBytes,
    reserved,
    recordCountDeclared: count.value,
    recordCount,
    recordsOnDisk,
    trailingBytes: dataBytes - recordsOnDisk * recordBytes,
    truncated: recordCount > recordsOnDisk,
    recordDurationSec: duration.value,
    nSignals,
    signals,
    bytesPerSample,
    recordBytes,
  }
}
