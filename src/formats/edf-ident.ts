// EDF+ identification subfields and the recording start time (EDF+ spec sections 2.1.3.2-2.1.3.3:
// https://www.edfplus.info/specs/edfplus.html#additionalspecs). Subfields are separated by spaces,
// 'X' means unknown (null here). Values are kept as written (underscores stand for spaces in names).

/** EDF+ local patient identification: code, sex, birthdate, name, then free text. */
export interface EdfPatientFields {
  code: string | null
  /** 'M', 'F' or null. */
  sex: string | null
  /** 'dd-MMM-yyyy' as written, e.g. '02-MAY-1951'. */
  birthdate: string | null
  name: string | null
  /** Any further subfields, space-separated. */
  additional: string
}

/** EDF+ local recording identification: 'Startdate dd-MMM-yyyy admincode technician equipment ...'. */
export interface EdfRecordingFields {
  startdate: string | null
  admincode: string | null
  technician: string | null
  equipment: string | null
  additional: string
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']

function unknownToNull(s: string | undefined): string | null {
  return s === undefined || s === 'X' || s === '' ? null : s
}

/** Patient subfields of an EDF+ header, or null when the field is empty. */
export function parsePatientFields(text: string): EdfPatientFields | null {
  const parts = text.split(/\s+/).filter(Boolean)
  if (parts.length === 0) return null
  return {
    code: unknownToNull(parts[0]),
    sex: unknownToNull(parts[1]),
    birthdate: unknownToNull(parts[2]),
    name: unknownToNull(parts[3]),
    additional: parts.slice(4).join(' '),
  }
}

/** Recording subfields of an EDF+ header, or null when the field does not start with 'Startdate'. */
export function parseRecordingFields(text: string): EdfRecordingFields | null {
  const parts = text.split(/\s+/).filter(Boolean)
  if (parts[0] !== 'Startdate') return null
  return {
    startdate: unknownToNull(parts[1]),
    admincode: unknownToNull(parts[2]),
    technician: unknownToNull(parts[3]),
    equipment: unknownToNull(parts[4]),
    additional: parts.slice(5).join(' '),
  }
}

/** The 4-digit year of an EDF+ 'dd-MMM-yyyy' date, or null. */
export function yearOfEdfPlusDate(date: string | null): number | null {
  const m = date ? /^(\d\d)-([A-Za-z]{3})-(\d{4})$/.exec(date) : null
  return m && MONTHS.includes(m[2].toUpperCase()) ? Number(m[3]) : null
}

/** 'dd-MMM-yyyy' for EDF+ identification fields. */
export function formatEdfPlusDate(year: number, month: number, day: number): string {
  return `${pad2(day)}-${MONTHS[month - 1]}-${String(year).padStart(4, '0')}`
}

function pad2(n: number): string {
  return String(n).padStart(2, '0')
}

/**
 * ISO local time 'YYYY-MM-DDTHH:MM:SS' from the 'dd.mm.yy' and 'hh.mm.ss' fields, or null when
 * they do not make a valid date. Years: 85-99 -> 19yy, 00-84 -> 20yy (EDF clipping rule), unless
 * an EDF+ recording field gives the 4-digit year (also the only source when yy is literally 'yy').
 */
export function parseStartTime(dateRaw: string, timeRaw: string, plusYear: number | null): string | null {
  const r = checkStartTime(dateRaw, timeRaw, plusYear)
  return 'startTime' in r ? r.startTime : null
}

/** parseStartTime's result, or why the fields give no start time (naming the field, its byte and its text). */
export function checkStartTime(dateRaw: string, timeRaw: string, plusYear: number | null): { startTime: string } | { problem: string } {
  const date = `start date (byte 168) ${JSON.stringify(dateRaw)}`
  const time = `start time (byte 176) ${JSON.stringify(timeRaw)}`
  const d = /^(\d\d)\.(\d\d)\.(\d\d|yy)$/.exec(dateRaw)
  if (!d) return { problem: `${date}: expected dd.mm.yy` }
  const t = /^(\d\d)\.(\d\d)\.(\d\d)$/.exec(timeRaw)
  if (!t) return { problem: `${time}: expected hh.mm.ss` }
  const day = Number(d[1])
  const month = Number(d[2])
  let year = plusYear
  if (year === null) {
    if (d[3] === 'yy') return { problem: `${date}: the year "yy" stands for one given in the EDF+ recording field's Startdate, which gives none` }
    const yy = Number(d[3])
    year = yy >= 85 ? 1900 + yy : 2000 + yy
  }
  const [hh, mm, ss] = [Number(t[1]), Number(t[2]), Number(t[3])]
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return { problem: `${date}: expected dd.mm.yy with a day and month of a calendar date, found day ${day} of month ${month} in ${year}` }
  if (hh > 23 || mm > 59 || ss > 59) return { problem: `${time}: expected hh.mm.ss within 00.00.00..23.59.59` }
  return { startTime: `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(hh)}:${pad2(mm)}:${pad2(ss)}` }
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}
