// NDJSON is one JSON.stringify(item) + '\n' per item. Typed arrays (signals) are
// written as plain number arrays rounded to a fixed number of decimals: JSON.stringify would
// otherwise write them as {"0":..,"1":..} objects with float32 noise (0.14499999582767487).
// Sample arrays are most of a window line's bytes, so they are formatted by a dedicated loop
// (formatFixedArray) whose text equals JSON.stringify of the rounded numbers, without building
// the number array JSON.stringify would need.

import { escapeRegExp } from '../core/regexp.ts'

const MARK = `\u0001typed-${process.pid}-${Math.random().toString(36).slice(2)}\u0001`
const MARK_PATTERN = new RegExp(`"${escapeRegExp(JSON.stringify(MARK).slice(1, -1))}(\\d+)"`, 'g')

/** A serializer of items with its own scratch buffer (one per record sink, none shared at module level). */
export function createSerializer(decimals: number): (item: object) => string {
  const format = createFixedArrayFormatter()
  return (item) => serializeWith(item, decimals, format)
}

/** Serializes one item as one NDJSON line; typed arrays at the top level or in a top-level array become rounded number arrays. */
export function serializeItem(item: object, decimals: number): string {
  return serializeWith(item, decimals, createFixedArrayFormatter())
}

function serializeWith(item: object, decimals: number, formatFixedArray: FixedArrayFormatter): string {
  let copy: Record<string, unknown> | null = null
  const arrays: string[] = []
  const source = item as Record<string, unknown>
  for (const key in source) {
    const value = source[key]
    let replaced: unknown
    if (isNumericView(value)) {
      replaced = mark(arrays, formatFixedArray(value, decimals))
    } else if (Array.isArray(value) && value.length > 0 && isNumericView(value[0])) {
      replaced = value.map((v) => (isNumericView(v) ? mark(arrays, formatFixedArray(v, decimals)) : v))
    } else continue
    copy ??= { ...source }
    copy[key] = replaced
  }
  if (!copy) return JSON.stringify(item) + '\n'
  return JSON.stringify(copy).replace(MARK_PATTERN, (_m, n: string) => arrays[Number(n)]) + '\n'
}

function mark(arrays: string[], text: string): string {
  arrays.push(text)
  return `${MARK}${arrays.length - 1}`
}

function isNumericView(v: unknown): v is ArrayLike<number> {
  return ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof BigInt64Array) && !(v instanceof BigUint64Array)
}

type FixedArrayFormatter = (values: ArrayLike<number>, decimals: number) => string

/** formatFixedArray with a scratch buffer of its own, grown as needed. */
export function createFixedArrayFormatter(): FixedArrayFormatter {
  let scratch = new Uint8Array(1 << 16)
  return (values, decimals) => {
    const need = 2 + values.length * 24
    if (scratch.length < need) scratch = new Uint8Array(need)
    return formatFixedInto(scratch, values, decimals)
  }
}

/**
 * `JSON.stringify(Array.from(values, v => round(v)))` where round keeps `decimals` decimals and
 * NaN/Infinity become null. For decimals <= 6 the digits are written directly (the shortest
 * round-trip text of k / 10^d is the decimal k with its point moved, for |k| < 2^53).
 */
export function formatFixedArray(values: ArrayLike<number>, decimals: number): string {
  return formatFixedInto(new Uint8Array(2 + values.length * 24), values, decimals)
}

function formatFixedInto(out: Uint8Array, values: ArrayLike<number>, decimals: number): string {
  const scale = 10 ** decimals
  if (decimals > 6) {
    return JSON.stringify(Array.from(values, (v) => (Number.isFinite(v) ? Math.round(v * scale) / scale : null)))
  }
  let p = 0
  out[p++] = 0x5b // [
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out[p++] = 0x2c // ,
    const v = values[i]
    if (!Number.isFinite(v)) {
      out[p++] = 0x6e; out[p++] = 0x75; out[p++] = 0x6c; out[p++] = 0x6c // null
      continue
    }
    let k = Math.round(v * scale)
    if (Math.abs(k) >= 2 ** 53) {
      const text = String(k / scale)
      for (let c = 0; c < text.length; c++) out[p++] = text.charCodeAt(c)
      continue
    }
    if (k < 0) {
      out[p++] = 0x2d // -
      k = -k
    }
    const intPart = Math.floor(k / scale)
    let frac = k - intPart * scale
    p = writeInt(out, p, intPart)
    if (frac > 0) {
      out[p++] = 0x2e // .
      let digits = decimals
      while (frac % 10 === 0) {
        frac /= 10
        digits--
      }
      const start = p
      p += digits
      for (let d = p - 1; d >= start; d--) {
        out[d] = 0x30 + (frac % 10)
        frac = Math.floor(frac / 10)
      }
    }
  }
  out[p++] = 0x5d // ]
  return Buffer.from(out.buffer, out.byteOffset, p).toString('latin1')
}

function writeInt(out: Uint8Array, p: number, n: number): number {
  if (n < 10) {
    out[p] = 0x30 + n
    return p + 1
  }
  let len = 1
  for (let x = n; x >= 10; x = Math.floor(x / 10)) len++
  for (let d = p + len - 1; d >= p; d--) {
    out[d] = 0x30 + (n % 10)
    n = Math.floor(n / 10)
  }
  return p + len
}
