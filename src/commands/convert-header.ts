// Header facts for conversion to EDF+: data record length, start date/time and identification,
// from a WFDB header or carried over from an EDF/EDF+ header.
import { PipelineError } from '../core/errors.ts'
import type { WfdbHeader } from '../formats/wfdb-header.ts'
import type { EdfHeader } from '../formats/edf-header.ts'
import type { EdfDateParts, EdfTimeParts, EdfWriteSpec } from '../formats/edf-writer.ts'

/** The shortest data record duration (s) holding a whole number of samples. */
export function recordDurationFor(fs: number, file: string): number {
  for (const d of [1, 2, 4, 5, 10]) if (Math.abs(fs * d - Math.round(fs * d)) < 1e-9) return d
  throw new PipelineError('E_USAGE', `sampling rate ${fs} Hz gives no whole number of samples in a data record of 1, 2, 4, 5 or 10 s; resample the record first`, { file, field: 'fs' })
}

/** The record's start (WFDB base date and time), or 01.01.1985 00:00:00, EDF+'s "unknown" date. */
export function edfStartOf(h: WfdbHeader): EdfTimeParts {
  const [day, month, year] = (h.baseDate ?? '01/01/1985').split('/').map(Number)
  const [hour, minute, second] = (h.baseTime ?? '0:0:0').split('.')[0].split(':').map(Number)
  const pad = [hour, minute, second].filter((x) => !Number.isNaN(x))
  while (pad.length < 3) pad.unshift(0)
  return { year, month, day, hour: pad[0], minute: pad[1], second: pad[2] }
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']

function dateOf(text: string | null): EdfDateParts | undefined {
  const m = text ? /^(\d\d)-([A-Za-z]{3})-(\d{4})$/.exec(text) : null
  const month = m ? MONTHS.indexOf(m[2].toUpperCase()) + 1 : 0
  return m && month > 0 ? { year: Number(m[3]), month, day: Number(m[1]) } : undefined
}

/** Header text as printable ASCII, which EDF requires (the reader accepts UTF-8 and Latin-1): µ/μ become u, ° deg, others '?'. */
export function asciiText(text: string): string {
  return text.replace(/[\u00b5\u03bc]/g, 'u').replace(/\u00b0/g, 'deg').replace(/[^\x20-\x7e]/g, '?')
}

// The writer joins 4 or 5 subfields with spaces into 80 characters: the free text gets the rest.
const clip = (text: string, used: number) => asciiText(text).slice(0, Math.max(0, 80 - used))
const sub = (text: string | null) => (text === null ? undefined : asciiText(text))

/** Start and identification of an EDF/EDF+ input, kept for its EDF+ output (plain EDF text goes to 'additional'). */
export function edfIdentityOf(h: EdfHeader): Pick<EdfWriteSpec, 'start' | 'patient' | 'recording'> {
  const t = h.startTime ? h.startTime.split(/[-T:]/).map(Number) : [1985, 1, 1, 0, 0, 0]
  const start = { year: t[0], month: t[1], day: t[2], hour: t[3], minute: t[4], second: t[5] }
  const p = h.patientFields
  const sex: 'M' | 'F' | 'X' = p?.sex === 'M' || p?.sex === 'F' ? p.sex : 'X'
  const used = (...parts: (string | null | undefined)[]) => parts.reduce((n, s) => n + (s ? s.length : 1) + 1, 0)
  const patient = p
    ? { code: sub(p.code), sex, birthdate: dateOf(p.birthdate), name: sub(p.name), additional: clip(p.additional, used(p.code, sex, p.birthdate, p.name)) }
    : { additional: clip(h.patient, used('X', 'X', 'X', 'X')) }
  const r = h.recordingFields
  const recording = r
    ? { admincode: sub(r.admincode), technician: sub(r.technician), equipment: sub(r.equipment), additional: clip(r.additional, used('Startdate', 'dd-MMM-yyyy', r.admincode, r.technician, r.equipment)) }
    : { additional: clip(h.recording, used('Startdate', 'dd-MMM-yyyy', 'X', 'X', 'X')) }
  return { start, patient, recording }
}
