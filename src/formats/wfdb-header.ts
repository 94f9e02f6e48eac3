// WFDB header (.hea) parser, after header(5) of the WFDB Software Package:
//   record line:  name[/nseg] nsig [fs[/counterfreq[(basecounter)]] [nsamples [basetime [basedate]]]]
//   signal lines: one per signal, see wfdb-signal-line.ts
// Comment lines (`#`) and blank lines may come anywhere (MIT-BIH 100.hea starts with one).
// Multi-segment records are refused with a clear message until a reader for them exists.

import { PipelineError } from '../core/errors.ts'
import { parseWfdbAgeSex } from './wfdb-comments.ts'
import { headerError, parseWfdbSignalLine } from './wfdb-signal-line.ts'
import type { WfdbSignal } from './wfdb-signal-line.ts'

export type { WfdbSignal } from './wfdb-signal-line.ts'
export { wfdbBytesPerFrame } from './wfdb-formats.ts'

/** Sampling frequency WFDB assumes when the record line gives none. */
export const WFDB_DEFAULT_FS = 250

/** A parsed single-segment WFDB header. */
export interface WfdbHeader {
  /** Path of the header file, as given to the parser (for messages). */
  file: string
  /** Record name from the record line. */
  recordName: string
  /** Number of signals (equals `signals.length`). */
  nsig: number
  /** Sampling frequency per signal in Hz (frames per second); 250 when omitted. */
  fs: number
  /** Counter frequency in Hz, when the record line gives one (`fs/counterfreq`). */
  counterFrequency?: number
  /** Counter value of sample 0 (`(basecounter)`), when given. */
  baseCounter?: number
  /** Samples per signal; undefined when omitted or 0 (WFDB: unknown, read to the end of the .dat). */
  nsamples?: number
  /** Time of day of sample 0 as written (`HH:MM:SS[.sss]`), when given. */
  baseTime?: string
  /** Date of sample 0 as written (`DD/MM/YYYY`), when given. */
  baseDate?: string
  /** Signal descriptions in header order. */
  signals: WfdbSignal[]
  /** Comment lines in order, without the `#` and surrounding blanks. */
  comments: string[]
  /** Patient age in years from the comments (MIT-BIH `# 69 M ...` or `Age: 69`), when known. */
  age?: number
  /** Patient sex from the comments, when known. */
  sex?: 'M' | 'F'
}

const REAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/

/** Parses the text of a .hea file; `file` only names it in errors. */
export function parseWfdbHeader(text: string, file: string): WfdbHeader {
  const comments: string[] = []
  const content: { line: number; text: string }[] = []
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const t = raw.trim()
    if (t.startsWith('#')) comments.push(t.slice(1).trim())
    else if (t !== '') content.push({ line: i + 1, text: t })
  })
  if (content.length === 0) {
    throw new PipelineError(
      'E_WFDB_HEADER',
      `${file}: expected a record line (\`name nsig [fs [nsamples]]\`), found only comments or blank lines; check that this is a WFDB .hea file`,
      { file, field: 'record line' },
    )
  }
  const header = parseRecordLine(content[0].text, content[0].line, file)
  const signalLines = content.slice(1)
  if (signalLines.length < header.nsig) {
    const last = content[content.length - 1]
    throw headerError(
      file,
      last.line,
      'signal lines',
      `${header.nsig} signal lines (nsig on line ${content[0].line})`,
      `${signalLines.length}`,
      'add the missing signal lines or correct nsig',
    )
  }
  if (signalLines.length > header.nsig) {
    const extra = signalLines[header.nsig]
    throw headerError(
      file,
      extra.line,
      'signal lines',
      `${header.nsig} signal lines (nsig on line ${content[0].line})`,
      `another line "${extra.text}"`,
      'correct nsig or remove the extra line',
    )
  }
  const signals = signalLines.map((l, i) => parseWfdbSignalLine(l.text, l.line, i, file))
  checkDatGroups(signals, file)
  return { ...header, file, signals, comments, ...parseWfdbAgeSex(comments) }
}

function parseRecordLine(text: string, line: number, file: string) {
  const t = text.split(/\s+/)
  const [name, nsegText] = t[0].split('/')
  if (nsegText !== undefined) {
    throw new PipelineError(
      'E_WFDB_HEADER',
      `${file}:${line}: multi-segment records are not supported yet: the record line "${text}" names ${nsegText} segments; read each segment's own header instead`,
      { file, line, field: 'nseg' },
    )
  }
  const fail = (field: string, expected: string, found: string | undefined) =>
    headerError(file, line, field, expected, found === undefined ? 'nothing' : `"${found}"`, `fix the record line "${text}"`)
  if (t[1] === undefined || !/^\d+$/.test(t[1])) throw fail('nsig', 'the number of signals (an integer >= 0)', t[1])
  const header: Omit<WfdbHeader, 'file' | 'signals' | 'comments'> = { recordName: name, nsig: Number(t[1]), fs: WFDB_DEFAULT_FS }
  if (t[2] !== undefined) {
    const m = /^([^/()]+)(?:\/([^/()]+)(?:\(([^()]+)\))?)?$/.exec(t[2])
    if (!m || !REAL.test(m[1]) || !(Number(m[1]) > 0)) throw fail('fs', 'a sampling frequency > 0 in Hz', t[2])
    header.fs = Number(m[1])
    if (m[2] !== undefined) {
      if (!REAL.test(m[2]) || !(Number(m[2]) > 0)) throw fail('counter frequency', 'a frequency > 0 after "/"', t[2])
      header.counterFrequency = Number(m[2])
    }
    if (m[3] !== undefined) {
      if (!REAL.test(m[3])) throw fail('base counter', 'a number in parentheses', t[2])
      header.baseCounter = Number(m[3])
    }
  }
  if (t[3] !== undefined) {
    if (!/^\d+$/.test(t[3])) throw fail('nsamples', 'the number of samples per signal (an integer >= 0)', t[3])
    if (Number(t[3]) > 0) header.nsamples = Number(t[3])
  }
  if (t[4] !== undefined) {
    if (!/^\d{1,2}(?::\d{1,2}){0,2}(?:\.\d+)?$/.test(t[4])) throw fail('basetime', 'a time of day HH:MM:SS', t[4])
    header.baseTime = t[4]
  }
  if (t[5] !== undefined) {
    if (!/^\d{1,2}\/\d{1,2}\/\d{4}$/.test(t[5])) throw fail('basedate', 'a date DD/MM/YYYY', t[5])
    header.baseDate = t[5]
  }
  return header
}

// WFDB stores the signals of one .dat file together (consecutive header lines, one format),
// interleaved frame by frame; anything else cannot be decoded as one stream.
function checkDatGroups(signals: WfdbSignal[], file: string): void {
  for (let i = 1; i < signals.length; i++) {
    const s = signals[i]
    const first = signals.find((o) => o.fileName === s.fileName)
    if (first === undefined || first === s) continue
    if (signals[i - 1].fileName !== s.fileName) {
      throw headerError(
        file,
        s.line,
        'filename',
        `the signals of ${s.fileName} on consecutive lines`,
        `signal ${s.index} in ${s.fileName} after signal ${i - 1} in ${signals[i - 1].fileName}`,
        'reorder the signal lines so that each .dat file is described in one block',
      )
    }
    if (first.format !== s.format) {
      throw new PipelineError(
        'E_WFDB_FORMAT',
        `${file}:${s.line}: signal ${s.index} (${s.label}) in ${s.fileName} has format ${s.format} but signal ${first.index} in the same file has format ${first.format}; WFDB requires one format per .dat file, fix the header`,
        { file, line: s.line, field: 'format', signal: s.index },
      )
    }
  }
}

/** ISO 8601 local start time (`YYYY-MM-DDTHH:MM:SS[.sss]`) when the header gives both base time and date, else null. */
export function wfdbStartTime(header: WfdbHeader): string | null {
  if (header.baseTime === undefined || header.baseDate === undefined) return null
  const [d, mo, y] = header.baseDate.split('/')
  const [hms, frac] = header.baseTime.split('.')
  // WFDB allows a shortened time ("5:30" is 5 min 30 s), so fill from the right.
  const parts = hms.split(':').map((p) => p.padStart(2, '0'))
  while (parts.length < 3) parts.unshift('00')
  return `${y}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}T${parts.join(':')}${frac ? `.${frac}` : ''}`
}
