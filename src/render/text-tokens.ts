// Counting render-text's tokens while its values are formatted, instead of rescanning the bytes
// with estimateTokens: a second pass over every byte of the text cost as much as writing it.
// Why it is exact: estimateTokens is a forward scan whose only state between bytes is the kind of
// run it is in, and a digit leaves it in a digit run whatever came before. A separator has no
// digits, so after a digit its first byte either ends the run (letter, space) or starts a new
// punctuation token: for text A ending in a digit and B not starting with one,
//   estimateTokens(A + B) = estimateTokens(A) + estimateTokens('0' + B) - 1.
// A fast-path value (src/render/format-mv.ts) ends in a digit and its bytes' classes depend only
// on its sign and number of integer digits, so `separator + value` adds a fixed count per shape
// (sign, 1-10 integer digits), tabled once per decimals and separator. Text whose count depends
// on what precedes it (a line's header, NaN and Infinity, which end in letters) is left pending
// and counted with estimateTokens from the digit before it up to the next digit that ends a value.
// A self-check on every pair of shapes guards the rule; if it failed, createTokenTally returns
// null and the caller counts with estimateTokens.
import { estimateTokens } from './estimate-tokens.ts'

/** Shapes of fast-path values: index 11 * (negative ? 1 : 0) + integer digits (1-10), see shapeIndex. */
export const SHAPES = 22

/** The shape of a fast-path value: its sign and its number of integer digits (1-10). */
export const shapeIndex = (negative: boolean, digits: number): number => (negative ? 11 : 0) + digits

/** Tokens counted while formatting (see above); per run or per configuration, never shared. */
export interface TokenTally {
  /** Tokens that `separator + value` adds after a digit, by shape (SHAPES entries). */
  readonly inc: Int32Array
  /** Tokens counted so far. */
  tokens: number
  /** Start of the bytes not counted yet, or -1 when everything up to the last byte is counted. */
  from: number
  /** Tokens of out[from] already counted (1 when `from` is a counted digit, else 0). */
  adjust: number
}

/** The bytes of a fast-path value of a shape (digits as 1s: only the byte classes matter). */
function shapeText(shape: number, decimals: number): string {
  const digits = shape % 11
  return (shape >= 11 ? '-' : '') + '1'.repeat(digits) + (decimals > 0 ? '.' + '1'.repeat(decimals) : '')
}

/** A tally for values with `decimals` decimals after `separator`; null if the rule does not hold for them. */
export function createTokenTally(decimals: number, separator: Uint8Array): TokenTally | null {
  const sep = Buffer.from(separator).toString('latin1')
  const count = (text: string) => estimateTokens(Buffer.from(text, 'latin1'))
  const inc = new Int32Array(SHAPES)
  const shapes: number[] = []
  for (let s = 0; s < SHAPES; s++) {
    if (s % 11 === 0) continue // no value has 0 integer digits
    inc[s] = count('0' + sep + shapeText(s, decimals)) - 1
    shapes.push(s)
  }
  // Self-check: every pair of shapes in a row, and after a header as render-text writes it.
  for (const a of shapes) {
    for (const b of shapes) {
      const pair = shapeText(a, decimals) + sep + shapeText(b, decimals)
      if (count('7' + sep + pair) !== 1 + inc[a] + inc[b]) return null
      if (count('MLII 00:00:10.000 360Hz: ' + pair) !== count('MLII 00:00:10.000 360Hz: ' + shapeText(a, decimals)) + inc[b]) return null
    }
  }
  return { inc, tokens: 0, from: -1, adjust: 0 }
}

/** Counts the pending bytes of `out` up to `end` (when the text ends or `end` follows a digit). */
export function settleTally(tally: TokenTally, out: Uint8Array, end: number): void {
  if (tally.from < 0) return
  tally.tokens += estimateTokens(out, tally.from, end) - tally.adjust
  tally.from = -1
}
