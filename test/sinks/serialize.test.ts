import { describe, expect, it } from 'vitest'
import { formatFixedArray, serializeItem } from '../../src/sinks/serialize.ts'

/** Deterministic pseudo-random numbers spanning several magnitudes, signs and special values. */
function values(n: number, seed: number): Float64Array {
  const out = new Float64Array(n)
  let s = seed
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31
    const u = s / 2 ** 31
    out[i] = (u - 0.5) * 10 ** ((i % 9) - 3)
  }
  out.set([NaN, -0.00001, 0, -0, 1e-7, Infinity, -Infinity, 123456.5, 0.00005, -2.5e-4], 0)
  return out
}

const reference = (v: ArrayLike<number>, d: number) => JSON.stringify(Array.from(v, (x) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null)))

describe('serializeItem', () => {
  it.each([0, 1, 3, 4, 6, 8])('formats sample arrays exactly like JSON.stringify of the rounded numbers (%i decimals)', (d) => {
    const f64 = values(50_000, 7 + d)
    expect(formatFixedArray(f64, d)).toBe(reference(f64, d))
    const f32 = Float32Array.from(f64)
    expect(formatFixedArray(f32, d)).toBe(reference(f32, d))
  })

  it('writes typed arrays as rounded number arrays and NaN as null', () => {
    const line = serializeItem({ kind: 'window', samples: [Float32Array.of(0.145, -1.23456, NaN)], one: Float64Array.of(1 / 3) }, 4)
    expect(line).toBe('{"kind":"window","samples":[[0.145,-1.2346,null]],"one":[0.3333]}\n')
  })

  it('leaves plain items untouched and never mutates the input', () => {
    const item = { kind: 'x', a: [1, 2], b: { c: 'd' }, t: Int16Array.of(3) }
    expect(serializeItem(item, 2)).toBe('{"kind":"x","a":[1,2],"b":{"c":"d"},"t":[3]}\n')
    expect(item.t).toBeInstanceOf(Int16Array)
  })
})
