// NDJSON is one JSON.stringify(item) + '\n' per item (style rule 8). Typed arrays (signals) are
// written as plain number arrays rounded to a fixed number of decimals: JSON.stringify would
// otherwise write them as {"0":..,"1":..} objects with float32 noise (0.14499999582767487).

/** Serializes one item as one NDJSON line; typed arrays at the top level or in a top-level array become rounded number arrays. */
export function serializeItem(item: object, decimals: number): string {
  const scale = 10 ** decimals
  let copy: Record<string, unknown> | null = null
  for (const [key, value] of Object.entries(item)) {
    let replaced: unknown
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      replaced = roundedArray(value as unknown as ArrayLike<number>, scale)
    } else if (Array.isArray(value) && value.length > 0 && ArrayBuffer.isView(value[0])) {
      replaced = value.map((v) => (ArrayBuffer.isView(v) ? roundedArray(v as unknown as ArrayLike<number>, scale) : v))
    } else continue
    copy ??= { ...item }
    copy[key] = replaced
  }
  return JSON.stringify(copy ?? item) + '\n'
}

/** Rounds to `scale` (10^decimals); NaN (invalid sample) becomes null, as JSON has no NaN. */
function roundedArray(values: ArrayLike<number>, scale: number): (number | null)[] {
  const out = new Array<number | null>(values.length)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    out[i] = Number.isFinite(v) ? Math.round(v * scale) / scale : null
  }
  return out
}
