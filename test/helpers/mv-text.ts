// References for the mV text tests (src/render/format-mv.ts and its WebAssembly kernel).

/** toFixed with render-text's one documented difference: a result that rounds to zero has no sign. */
export function toFixedMv(v: number, decimals: number): string {
  const t = Number(v).toFixed(decimals)
  return /^-0(\.0*)?$/.test(t) ? t.slice(1) : t
}

/** Every float32 from `count` steps below x to `count` steps above it. */
export function float32sAround(x: number, count: number): number[] {
  const f = Float32Array.of(x)
  const u = new Uint32Array(f.buffer)
  const base = u[0]
  return Array.from({ length: 2 * count + 1 }, (_, k) => ((u[0] = base - count + k), f[0]))
}
