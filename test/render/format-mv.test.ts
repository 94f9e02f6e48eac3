import { describe, expect, it } from 'vitest'
import { rng } from '../helpers/seeded-random.ts'
import { float32sAround, toFixedMv } from '../helpers/mv-text.ts'
import { formatMv, formatMvInto, maxMvBytes } from '../../src/render/format-mv.ts'

const expectSame = (values: Float32Array, d: number, sep = ',') =>
  expect(formatMv(values, d, sep).toString('latin1')).toBe(Array.from(values, (v) => toFixedMv(v, d)).join(sep))

const EDGES = [
  0, -0, 0.0005, -0.0005, 0.0015, 0.0025, 1.0005, -1.0005, 0.5, 1.5, 2.5, -2.5, 0.125, -0.125, 0.0625, 1e-7, -1e-7,
  1.401298464324817e-45, -1.401298464324817e-45, 1.1754942106924411e-38, 1e-3, 9.9995, -9.9995, 999.9995, 2147.483647,
  2147.4836, 2147483.647, 2147483.648, 1e6, 1e7, 123456789, 1e20, 1e21, 3.4028234663852886e38, -3.4028234663852886e38,
  NaN, Infinity, -Infinity, 65535.5, 8388607.5, 16777216,
]

describe('formatMv', () => {
  it('matches toFixed on edge values (ties, subnormals, large values, non-finite) for 0-6 decimals', () => {
    for (let d = 0; d <= 6; d++) expectSame(Float32Array.from(EDGES), d)
  })

  it('matches toFixed on 300,000 random float32 values of every scale', () => {
    const next = rng(42)
    const buf = new Uint32Array(300_000)
    for (let i = 0; i < buf.length; i++) buf[i] = Math.floor(next() * 2 ** 32) // any bit pattern
    const bits = new Float32Array(buf.buffer)
    const mv = Float32Array.from({ length: 300_000 }, () => (next() - 0.5) * 10 * 10 ** Math.floor(next() * 4 - 2))
    for (let d = 0; d <= 6; d++) {
      expectSame(bits, d)
      expectSame(mv, d)
    }
  })

  it('matches toFixed on a stride through every positive float32 below 2^31 (the fast path and past it)', () => {
    const bits = Uint32Array.from({ length: Math.ceil(0x4f000000 / 4099) }, (_, i) => i * 4099)
    for (const d of [3, 6]) expectSame(new Float32Array(bits.buffer), d)
  })

  it('matches toFixed on ADC steps, where every other value is near a tie (gain 400 and 2000 /mV)', () => {
    for (const gain of [200, 400, 2000, 1000 / 3]) {
      const v = Float32Array.from({ length: 20_001 }, (_, i) => (i - 10_000) / gain)
      for (const d of [2, 3, 4]) expectSame(v, d)
    }
  })

  it('matches toFixed around the bounds of the 3-decimal loop for values below 10: every float32 near 10, and where |v| * 1000 passes multiples of 2^32', () => {
    const bounds = [...float32sAround(9.9995, 2000), ...float32sAround(10, 200), ...float32sAround(4294967.296, 50), ...float32sAround(8589934.592, 50), ...float32sAround(0.0005, 50)]
    // Each after a small value and a negative copy, so the loop (not the first value) meets them.
    const values = Float32Array.from(bounds.flatMap((v) => [0.5, v, -v]))
    for (let d = 0; d <= 6; d++) expectSame(values, d)
    expectSame(values, 3, ', ')
  })

  it('prints no sign on a result that rounds to zero, and NaN as NaN', () => {
    expect(formatMv(Float32Array.of(-0, -0.0004, -0.0005, NaN, -Infinity)).toString()).toBe('0.000,0.000,-0.001,NaN,-Infinity')
  })

  it('uses any separator, no trailing separator, and stays within maxMvBytes', () => {
    expect(formatMv(Float32Array.of(1, -2.25, 3), 1, ', ').toString()).toBe('1.0, -2.3, 3.0')
    expect(formatMv(new Float32Array(0)).length).toBe(0)
    const worst = Float32Array.of(-1.0000000200408773e20, -1e20)
    const out = new Uint8Array(maxMvBytes(2, 3) + 4)
    expect(formatMvInto(worst, out, 4, 6, Uint8Array.of(59, 32, 32))).toBeLessThanOrEqual(out.length)
  })

  it('rejects decimals outside 0-6', () => {
    expect(() => formatMv(Float32Array.of(1), 7)).toThrow(/0 to 6/)
    expect(() => formatMv(Float32Array.of(1), 1.5)).toThrow(/0 to 6/)
  })
})
