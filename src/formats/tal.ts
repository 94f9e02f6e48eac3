// EDF+ Time-stamped Annotation Lists (EDF+ spec section 2.2.2,
// https://www.edfplus.info/specs/edfplus.html#tal): `+onset[\x15duration]\x14text\x14...\x14\x00`,
// repeated, then \x00 padding to the end of the annotation signal's bytes in the data record. The
// first TAL of a record's first annotation signal has one empty text: its onset is the record's
// start. Parsing is a single byte scan with an ASCII fast path for texts, because a 24 h file
// carries ~10^5 annotations; encoding writes straight into the zero-filled output.
import { PipelineError } from '../core/errors.ts'

/** One annotation: onset and optional duration in seconds, and its texts (UTF-8 decoded). */
export interface TalAnnotation {
  onsetSec: number
  durationSec: number | null
  texts: string[]
}

const PLUS = 0x2b
const MINUS = 0x2d
const DOT = 0x2e
const DURATION = 0x15
const SEP = 0x14

// Stateless when called without {stream: true}, so one instance serves every call.
const utf8 = new TextDecoder('utf-8')
const utf8Encoder = new TextEncoder()

function describe(bytes: Uint8Array, p: number): string {
  if (p >= bytes.length) return 'the end of the annotation bytes'
  const b = bytes[p]
  const ch = b >= 0x20 && b < 0x7f ? ` '${String.fromCharCode(b)}'` : ''
  return `byte 0x${b.toString(16).padStart(2, '0')}${ch}`
}

/** End of a run of digits with at most one '.', or -1 when there is no digit. */
function scanNumber(bytes: Uint8Array, p: number): number {
  let digits = 0
  let dots = 0
  for (; p < bytes.length; p++) {
    const b = bytes[p]
    if (b >= 0x30 && b <= 0x39) digits++
    else if (b === DOT && dots === 0) dots++
    else break
  }
  return digits > 0 ? p : -1
}

// 10^0 .. 10^22, each exact in a double.
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k)

/**
 * Number(text) of a sign, digits and at most one '.' in bytes[start..end) (scanNumber's run), without
 * building the text: with at most 15 digits the digits form an integer m < 2^53 and the value is
 * m / 10^k (k digits after the point, k <= 22), one division of two exact doubles, so correctly
 * rounded like Number(). Longer numbers take Number(). A 24 h file has ~10^5 onsets.
 */
export function parseDecimal(bytes: Uint8Array, start: number, end: number): number {
  let p = start
  const negative = bytes[p] === MINUS
  if (bytes[p] === PLUS || negative) p++
  let m = 0
  let digits = 0
  let k = -1 // digits after the point, once one is seen
  for (; p < end; p++) {
    const b = bytes[p]
    if (b === DOT) k = 0
    else {
      m = m * 10 + (b - 0x30)
      digits++
      if (k >= 0) k++
    }
  }
  if (digits > 15 || k > 22) return Number(ascii(bytes, start, end))
  const v = k > 0 ? m / POW10[k] : m
  return negative ? -v : v
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let s = ''
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i])
  return s
}

// Module-level rather than a closure in parseTalBlock: it runs for every data record.
function talError(bytes: Uint8Array, file: string, recordIndex: number, p: number, expected: string): never {
  throw new PipelineError(
    'E_EDF_ANNOTATION',
    `${file}: data record ${recordIndex}, byte ${p} of the annotation signal: expected ${expected}, found ${describe(bytes, p)}; the annotation list (TAL) is malformed, or the header's samples per record do not match the data records (then every signal is misplaced too); repair the file or export it again`,
    { file, field: 'EDF Annotations', offset: p, dataRecord: recordIndex },
  )
}

/** Parses the bytes of one annotation signal in one data record. */
export function parseTalBlock(
  bytes: Uint8Array, file: string, recordIndex: number,
): { recordOnsetSec: number | null; annotations: TalAnnotation[] } {
  const annotations: TalAnnotation[] = []
  let recordOnsetSec: number | null = null
  let first = true
  let p = 0
  const n = bytes.length
  while (p < n) {
    if (bytes[p] === 0) {
      p++
      continue
    }
    if (bytes[p] !== PLUS && bytes[p] !== MINUS) talError(bytes, file, recordIndex, p, "'+' or '-' starting a TAL onset")
    const onsetEnd = scanNumber(bytes, p + 1)
    if (onsetEnd < 0) talError(bytes, file, recordIndex, p + 1, 'the digits of a TAL onset')
    const onsetSec = parseDecimal(bytes, p, onsetEnd)
    p = onsetEnd
    let durationSec: number | null = null
    if (bytes[p] === DURATION) {
      const end = scanNumber(bytes, p + 1)
      if (end < 0) talError(bytes, file, recordIndex, p + 1, 'the digits of a TAL duration')
      durationSec = parseDecimal(bytes, p + 1, end)
      p = end
    }
    if (bytes[p] !== SEP) talError(bytes, file, recordIndex, p, '0x14 after the TAL onset (or 0x15 and a duration)')
    p++
    const texts: string[] = []
    while (bytes[p] !== 0) {
      if (p >= n) talError(bytes, file, recordIndex, p, '0x00 ending the TAL')
      const start = p
      let isAscii = true
      while (p < n && bytes[p] !== SEP && bytes[p] !== 0) {
        if (bytes[p] >= 0x80) isAscii = false
        p++
      }
      if (bytes[p] !== SEP) talError(bytes, file, recordIndex, p, '0x14 ending an annotation text')
      texts.push(isAscii ? ascii(bytes, start, p) : utf8.decode(bytes.subarray(start, p)))
      p++
    }
    p++
    if (first && texts[0] === '') {
      recordOnsetSec = onsetSec
      texts.shift()
    }
    first = false
    // A TAL whose texts are all empty says nothing (writers use it as filler); drop it.
    if (texts.some((t) => t !== '')) annotations.push({ onsetSec, durationSec, texts })
  }
  return { recordOnsetSec, annotations }
}

/** Seconds as text without float noise: at most 6 decimals, no trailing zeros, integers bare. */
function formatSeconds(x: number): string {
  const s = x.toFixed(6)
  return s.replace(/\.?0+$/, '')
}

function formatOnset(x: number): string {
  const mag = formatSeconds(Math.abs(x))
  return (x < 0 && mag !== '0' ? '-' : '+') + mag
}

function checkAnnotation(a: TalAnnotation): void {
  const bad = !Number.isFinite(a.onsetSec) || Math.abs(a.onsetSec) >= 1e15
    || (a.durationSec !== null && !(a.durationSec >= 0 && a.durationSec < 1e15))
    || a.texts.some((t) => /[\0\x14\x15]/.test(t))
  if (bad) {
    throw new PipelineError(
      'E_EDF_ANNOTATION',
      `annotation ${JSON.stringify(a)}: expected a finite onset, a duration >= 0 or null, and texts without the bytes 0x00, 0x14, 0x15; fix the annotation before writing it`,
      { field: 'EDF Annotations' },
    )
  }
}

function talHead(a: TalAnnotation): string {
  return formatOnset(a.onsetSec) + (a.durationSec === null ? '' : `\x15${formatSeconds(a.durationSec)}`) + '\x14'
}

/** Encoded size of one TAL in bytes, for sizing the annotation signal. */
export function talBytes(annotation: TalAnnotation): number {
  checkAnnotation(annotation)
  let size = talHead(annotation).length + 1
  for (const t of annotation.texts) size += utf8Encoder.encode(t).length + 1
  return size
}

/** One record's annotation bytes: the time-keeping TAL, then the annotations, zero-padded to sizeBytes. */
export function encodeTalBlock(recordOnsetSec: number, annotations: TalAnnotation[], sizeBytes: number): Uint8Array {
  const all = [{ onsetSec: recordOnsetSec, durationSec: null, texts: [''] }, ...annotations]
  const need = all.reduce((sum, a) => sum + talBytes(a), 0)
  if (need > sizeBytes) {
    throw new PipelineError(
      'E_EDF_ANNOTATION',
      `annotations of the data record at ${formatOnset(recordOnsetSec)} s: expected them to fit the annotation signal's ${sizeBytes} bytes per record, found ${need} bytes (${annotations.length} annotations); give the annotation signal at least ${Math.ceil(need / 2)} samples per record`,
      { field: 'EDF Annotations' },
    )
  }
  const out = new Uint8Array(sizeBytes)
  let p = 0
  for (const a of all) {
    const head = talHead(a)
    for (let i = 0; i < head.length; i++) out[p++] = head.charCodeAt(i)
    for (const t of a.texts) {
      p += utf8Encoder.encodeInto(t, out.subarray(p)).written
      out[p++] = SEP
    }
    p++ // the 0x00 that ends the TAL is already there
  }
  return out
}
