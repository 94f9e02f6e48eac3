// Float32 samples in mV as ASCII decimal text, byte for byte what `Number(v).toFixed(decimals)`
// gives (render-text), without calling toFixed per value: a 24 h lead is 31 million
// values. Two deliberate differences from toFixed: a result that rounds to zero prints without a
// sign ("-0.000" -> "0.000": a model should not read a sign into noise), and non-finite values
// print as JavaScript does (`NaN`, `Infinity`, `-Infinity`; the readers mark invalid samples NaN).
// Why the fast path is exact: a float32 has a 24-bit significand and 10^d (d <= 6) is an integer
// below 2^20, so |v| * 10^d has at most 44 significant bits and the double product is exact. Its
// fraction is therefore exact too, and toFixed's rule (the nearest integer, the larger one on a
// tie, on the magnitude) is applied to the true value: a fraction of exactly .5 rounds up. Values
// whose scaled magnitude reaches 2^31 - 1 (|v| >= 2147 at 6 decimals, 2.1e6 mV at 3) and
// non-finite values take toFixed itself.
// With a TokenTally (src/render/text-tokens.ts) the loop also counts the text's tokens as
// estimateTokens would, from each value's shape: sign and number of integer digits.
import { estimateTokens } from './estimate-tokens.ts'
import { SHAPES, shapeIndex, type TokenTally } from './text-tokens.ts'

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6]
const FAST_LIMIT = 2 ** 31 - 1
/** Most bytes one value can take: sign, 21 integer digits (toFixed below 1e21), point, 6 decimals. */
const MAX_VALUE_BYTES = 29
const COMMA = Uint8Array.of(44)
/** '000' to '999' as bytes. */
const DIGITS3 = Uint8Array.from({ length: 3000 }, (_, i) => 48 + (Math.floor(Math.floor(i / 3) / 10 ** (2 - (i % 3))) % 10))
// At 3 decimals a value below 10 (n = round(|v| * 1000) < 10000, nearly every ECG sample in mV)
// is "q.fff": its first 4 bytes as one little-endian word and its last byte, by n. Two stores
// instead of a division and five, in a loop of its own (formatRun3) with nothing else in it.
export const HEAD3 = Uint32Array.from({ length: 10_000 }, (_, n) => (48 + ((n / 1000) | 0)) | (46 << 8) | (DIGITS3[3 * (n % 1000)] << 16) | (DIGITS3[3 * (n % 1000) + 1] << 24))
export const LAST3 = Uint8Array.from({ length: 10_000 }, (_, n) => DIGITS3[3 * (n % 1000) + 2])

/** Checks `decimals` (an integer 0-6) and returns it. */
function checkDecimals(decimals: number): number {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 6) throw new RangeError(`decimals must be an integer from 0 to 6, found ${decimals}`)
  return decimals
}

/** The most bytes formatMvInto writes for `count` values (29 a value plus separators). */
export function maxMvBytes(count: number, separatorBytes = 1): number {
  return count === 0 ? 0 : count * MAX_VALUE_BYTES + (count - 1) * separatorBytes
}

/**
 * Writes `values` as text into `out` from byte `at`, separated by `separator` (bytes); returns
 * the end. `out` must have maxMvBytes(values.length, separator.length) bytes free from `at`.
 * With `tally` (made for the same decimals and separator), adds the tokens of the text from
 * tally.from (or from `at` when nothing is pending) up to the last value ending in a digit, and
 * leaves the rest pending (text-tokens.ts). `runner` writes the runs of values below 10 at 3
 * decimals: formatRun3, or the WebAssembly kernel when `values` and `out` are in its memory
 * (format-mv-wasm.ts).
 */
export function formatMvInto(values: Float32Array, out: Uint8Array, at: number, decimals = 3, separator: Uint8Array = COMMA, tally?: TokenTally | null, runner: Run3 = formatRun3): number {
  const d = checkDecimals(decimals)
  const p = POW10[d]
  const sepLen = separator.length
  const sep0 = separator[0]
  const inc = tally?.inc
  // The loop of formatRun3 serves runs of values after a counted one, at 3 decimals with a 1-byte separator.
  const run = d === 3 && sepLen === 1 ? { view: new DataView(out.buffer, out.byteOffset, out.byteLength), i: 0, tokens: 0 } : null
  let tokens = tally?.tokens ?? 0
  let pending = tally && tally.from >= 0 ? tally.from : at
  let adjust = tally && tally.from >= 0 ? tally.adjust : 0
  for (let i = 0; i < values.length; i++) {
    if (run && i > 0 && (pending < 0 || !inc)) {
      at = runner(values, i, out, at, sep0, inc ?? NO_INC, run)
      tokens += run.tokens
      i = run.i
      if (i === values.length) break
    }
    const sepAt = at
    if (i > 0) {
      if (sepLen === 1) out[at++] = sep0
      else for (let k = 0; k < sepLen; k++) out[at++] = separator[k]
    }
    const v = values[i]
    const s = Math.abs(v) * p // exact (see the header)
    if (!(s < FAST_LIMIT)) {
      at = writeAscii(Number(v).toFixed(d), out, at) // NaN, +-Infinity, large values
      if (inc) {
        // Counted in context: from the digit before it, up to a value that ends in a digit.
        if (pending < 0) {
          pending = sepAt - 1
          adjust = 1
        }
        if (Number.isFinite(v)) {
          tokens += estimateTokens(out, pending, at) - adjust
          pending = -1
        }
      }
      continue
    }
    // The nearest integer, a tie up: s + 0.5 is exact too (s has no bits below 2^-45 where that
    // sum could round across an integer), so truncating it is toFixed's rounding.
    const n = (s + 0.5) | 0
    const negative = v < 0 && n !== 0
    if (negative) out[at++] = 45 // '-'
    let q = (n / p) | 0 // floor: n < 2^31 and p <= 1e6 keep the quotient off integer boundaries
    let f = n - q * p
    let digits = 1
    if (q < 10) out[at++] = 48 + q
    else {
      // Integer part, digits written backwards after counting them.
      for (let t = q; t >= 10; t = (t / 10) | 0) digits++
      for (let k = at + digits - 1; k >= at; k--) {
        const t = (q / 10) | 0
        out[k] = 48 + q - t * 10
        q = t
      }
      at += digits
    }
    if (d === 3) {
      // The usual case: three decimals from a table.
      out[at] = 46 // '.'
      out[at + 1] = DIGITS3[3 * f]
      out[at + 2] = DIGITS3[3 * f + 1]
      out[at + 3] = DIGITS3[3 * f + 2]
      at += 4
    } else if (d > 0) {
      out[at] = 46
      for (let k = at + d; k > at; k--) {
        const t = (f / 10) | 0
        out[k] = 48 + f - t * 10
        f = t
      }
      at += d + 1
    }
    if (inc) {
      if (pending < 0) tokens += inc[shapeIndex(negative, digits)]
      else {
        tokens += estimateTokens(out, pending, at) - adjust
        pending = -1
      }
    }
  }
  if (tally) {
    tally.tokens = tokens
    tally.from = pending
    tally.adjust = adjust
  }
  return at
}

const NO_INC = new Int32Array(SHAPES)

/** Where formatRun3 stopped (`i`) and the tokens it added; `view` is a DataView of its `out`. */
export interface Run3State { view: DataView; i: number; tokens: number }

/** formatRun3's contract, met by the WebAssembly kernel of format-mv-wasm.ts as well. */
export type Run3 = (values: Float32Array, from: number, out: Uint8Array, at: number, sep: number, inc: Int32Array, run: Run3State) => number

/**
 * Writes values[from...] below 10 at 3 decimals, each after the 1-byte separator, until one that
 * is not (left unwritten) or the end; returns the end, with in `run` where it stopped and the
 * tokens the values add (inc by shape, see formatMvInto). The general loop costs 13-18 ns a value
 * here, this one 7-10 (test data like an ECG, 8,640 windows of 3,600 values).
 */
export function formatRun3(values: Float32Array, from: number, out: Uint8Array, at: number, sep: number, inc: Int32Array, run: Run3State): number {
  const view = run.view
  const positive = inc[shapeIndex(false, 1)]
  const negative = inc[shapeIndex(true, 1)]
  let tokens = 0
  let i = from
  for (; i < values.length; i++) {
    const v = values[i]
    const s = Math.abs(v) * 1000 // exact (see the header)
    if (!(s < 9999.5)) break // 10 or more once rounded, NaN, Infinity
    const n = (s + 0.5) | 0 // toFixed's rounding (see formatMvInto)
    out[at++] = sep
    if (v < 0 && n !== 0) {
      out[at++] = 45 // '-'
      tokens += negative
    } else tokens += positive
    view.setUint32(at, HEAD3[n], true)
    out[at + 4] = LAST3[n]
    at += 5
  }
  run.i = i
  run.tokens = tokens
  return at
}

/** The text of `values` in a fresh Buffer of exactly its length (tests and small uses). */
export function formatMv(values: Float32Array, decimals = 3, separator = ','): Buffer {
  const sep = Buffer.from(separator, 'utf8')
  const out = Buffer.allocUnsafe(maxMvBytes(values.length, sep.length))
  return Buffer.from(out.subarray(0, formatMvInto(values, out, 0, decimals, sep)))
}

function writeAscii(text: string, out: Uint8Array, at: number): number {
  for (let k = 0; k < text.length; k++) out[at++] = text.charCodeAt(k)
  return at
}
