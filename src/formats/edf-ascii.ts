// Fixed-width ASCII fields of EDF/BDF headers, read and written. The spec asks for printable
// US-ASCII, but real files carry UTF-8 or Latin-1 (e.g. '°' or 'µV'), so reading never fails
// on text: UTF-8 when the bytes are valid UTF-8, Latin-1 otherwise. Numbers are strict: a field
// that is not a plain decimal number is reported, never guessed at (parseFloat('12abc') === 12).
import { PipelineError } from '../core/errors.ts'

const utf8Strict = new TextDecoder('utf-8', { fatal: true })

/** Text of a fixed-width field with the padding (spaces, NULs) trimmed from both ends. */
export function readField(buf: Uint8Array, offset: number, width: number): string {
  return decodeText(buf.subarray(offset, offset + width)).replace(/^[\s\0]+|[\s\0]+$/g, '')
}

/** Decodes header text: ASCII fast path, then UTF-8, then Latin-1 (which cannot fail). */
export function decodeText(bytes: Uint8Array): string {
  let ascii = true
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] >= 0x80) {
      ascii = false
      break
    }
  }
  if (!ascii) {
    try {
      return utf8Strict.decode(bytes)
    } catch (err) {
      // Not UTF-8: Latin-1 below maps every byte to a character, so nothing is lost.
      void err
    }
  }
  let s = ''
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i])
  return s
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** The number in a trimmed field, or null when the text is not a plain decimal number. */
export function parseEdfNumber(text: string): number | null {
  if (!DECIMAL.test(text)) return null
  const n = Number(text)
  return Number.isFinite(n) ? n : null
}

/** Quotes field text for messages so that empty fields and control bytes stay visible. */
export function show(text: string): string {
  return JSON.stringify(text)
}

/**
 * Shortest plain-decimal text of at most `width` characters for x, keeping as many decimals as
 * fit (EDF readers do not all accept exponents). Null when the integer part does not fit or a
 * non-zero value would round to 0.
 */
export function formatEdfNumber(x: number, width = 8): string | null {
  if (!Number.isFinite(x)) return null
  const plain = String(x)
  if (plain.length <= width && !/[eE]/.test(plain)) return plain
  for (let decimals = width; decimals >= 0; decimals--) {
    let s = x.toFixed(decimals)
    if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '')
    if (s === '-0') s = '0'
    if (/[eE]/.test(s)) return null
    if (s.length > width) continue
    if (Number(s) === 0 && x !== 0) return null
    return s
  }
  return null
}

/** Writes `text` left-aligned and space-padded into out[offset, offset+width). */
export function writeField(out: Uint8Array, offset: number, width: number, text: string, what: string): void {
  if (text.length > width) {
    throw new PipelineError(
      'E_EDF_HEADER_FIELD',
      `${what}: expected at most ${width} characters, found ${text.length} (${show(text)}); shorten it`,
      { field: what, offset },
    )
  }
  for (let i = 0; i < width; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x20
    if (c < 0x20 || c > 0x7e) {
      throw new PipelineError(
        'E_EDF_HEADER_FIELD',
        `${what}: EDF header text must be printable ASCII, found character ${show(text[i])} in ${show(text)}; replace it`,
        { field: what, offset: offset + i },
      )
    }
    out[offset + i] = c
  }
}
