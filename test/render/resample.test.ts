import { describe, expect, it } from 'vitest'
import { createResampler, resample } from '../../src/render/resample.ts'

const sine = (n: number, fs: number, hz: number, phase = 0.3) => Float32Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * hz * i) / fs + phase))
// Amplitude of a sine from the RMS of the middle half (away from the window's edges).
function amplitude(y: Float32Array): number {
  let s = 0
  let c = 0
  for (let k = Math.floor(y.length / 4); k < Math.floor((3 * y.length) / 4); k++, c++) s += y[k] * y[k]
  return Math.sqrt((2 * s) / c)
}

describe('resample', () => {
  it('gives round(n * out / in) samples', () => {
    for (const [from, to, n] of [[360, 100, 3600], [360, 100, 3599], [360, 128, 1000], [250, 100, 7], [500, 499, 10], [360, 100, 1], [360, 100, 0]]) {
      expect(resample(new Float32Array(n), from, to).length).toBe(Math.round((n * to) / from))
    }
  })

  it('keeps a sine below the new Nyquist frequency (within 1 % up to 0.25 x the new rate) and its phase', () => {
    for (const [from, to] of [[360, 100], [250, 100], [360, 300], [500, 50]]) {
      for (const rel of [0.05, 0.1, 0.2, 0.25]) {
        const hz = rel * to
        const x = sine(from * 20, from, hz)
        const y = resample(x, from, to)
        expect(amplitude(y), `${from} -> ${to} Hz, ${hz} Hz`).toBeGreaterThan(0.99)
        expect(amplitude(y)).toBeLessThan(1.01)
        // Output k is at input time k / to: no delay.
        const mid = Math.floor(y.length / 2)
        expect(Math.abs(y[mid] - Math.sin((2 * Math.PI * hz * mid) / to + 0.3))).toBeLessThan(0.02)
      }
    }
  })

  it('removes what would alias: a sine above 0.55 x the new rate is below -70 dB', () => {
    for (const [from, to, hz] of [[360, 100, 60], [360, 100, 80], [360, 100, 150], [250, 100, 70]]) {
      expect(amplitude(resample(sine(from * 20, from, hz), from, to)), `${hz} Hz`).toBeLessThan(10 ** (-70 / 20))
    }
  })

  it('passes a constant exactly, edges included, and the input itself at equal rates', () => {
    const y = resample(new Float32Array(1000).fill(1.25), 360, 100)
    for (const v of y) expect(v).toBeCloseTo(1.25, 6)
    const x = sine(100, 360, 5)
    expect(resample(x, 360, 360)).toBe(x)
  })

  it('keeps a NaN local (within half the filter length)', () => {
    const x = sine(3600, 360, 5)
    x[1800] = NaN
    const y = resample(x, 360, 100)
    const bad = [...y.keys()].filter((k) => Number.isNaN(y[k]))
    expect(bad.length).toBeGreaterThan(0)
    expect(Math.min(...bad)).toBeGreaterThanOrEqual(Math.floor((1800 - 36) / 3.6))
    expect(Math.max(...bad)).toBeLessThanOrEqual(Math.ceil((1800 + 36) / 3.6))
  })

  it('refuses a rate above the input rate or not positive', () => {
    expect(() => createResampler(360, 500)).toThrow(/<= the input rate/)
    expect(() => createResampler(360, 0)).toThrow(/> 0/)
    expect(createResampler(360, 100).outputLength(3600)).toBe(1000)
  })
})
