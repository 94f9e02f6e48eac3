import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { designButterworth, type Sos } from '../../src/dsp/butterworth.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

// |H(e^{jw})| of cascaded sections at frequency f (Hz).
function gain(sos: Sos, f: number, fs: number): number {
  const w = (2 * Math.PI * f) / fs
  let g = 1
  for (const [b0, b1, b2, , a1, a2] of sos) {
    const num = Math.hypot(b0 + b1 * Math.cos(w) + b2 * Math.cos(2 * w), b1 * Math.sin(w) + b2 * Math.sin(2 * w))
    const den = Math.hypot(1 + a1 * Math.cos(w) + a2 * Math.cos(2 * w), a1 * Math.sin(w) + a2 * Math.sin(2 * w))
    g *= num / den
  }
  return g
}

describeShared('designButterworth against scipy (golden)', () => {
  it.each(['100', '208'])('record %s: butter(5, 0.5, highpass, sos, fs=360) equals the golden sos to 1e-9', (rec) => {
    const golden: number[][] = JSON.parse(readFileSync(sharedPath(`golden/dsp/${rec}_lead0.json`), 'utf8')).butter_highpass_sos
    const sos = designButterworth({ order: 5, cutoffHz: 0.5, fs: 360, type: 'highpass' })
    expect(sos.length).toBe(golden.length)
    sos.forEach((row, i) => row.forEach((v, j) => expect(Math.abs(v - golden[i][j])).toBeLessThan(1e-9)))
  })
})

describe('designButterworth', () => {
  const cases = [
    { order: 1, cutoffHz: 0.5, fs: 128 }, { order: 2, cutoffHz: 5, fs: 250 }, { order: 4, cutoffHz: 40, fs: 250 },
    { order: 5, cutoffHz: 0.5, fs: 500 }, { order: 8, cutoffHz: 30, fs: 360 },
  ]
  it.each(cases)('highpass and lowpass %o: -3 dB at the cutoff, unit gain in the passband, [ceil(N/2)] sections', ({ order, cutoffHz, fs }) => {
    for (const type of ['highpass', 'lowpass'] as const) {
      const sos = designButterworth({ order, cutoffHz, fs, type })
      expect(sos.length).toBe(Math.ceil(order / 2))
      expect(gain(sos, cutoffHz, fs)).toBeCloseTo(Math.SQRT1_2, 9)
      expect(gain(sos, type === 'highpass' ? fs / 2 : 0, fs)).toBeCloseTo(1, 9)
      expect(gain(sos, type === 'highpass' ? 0 : fs / 2, fs)).toBeLessThan(1e-6)
      for (const s of sos) expect(s[3]).toBe(1)
    }
  })

  it('puts the pole nearest the unit circle in the last section and the gain in the first (scipy ordering)', () => {
    const sos = designButterworth({ order: 6, cutoffHz: 1, fs: 360, type: 'highpass' })
    const radius = sos.map((s) => Math.sqrt(s[5]))
    expect([...radius].sort((a, b) => a - b)).toEqual(radius)
    expect(sos[1].slice(0, 3)).toEqual([1, -2, 1])
  })

  it('rejects a cutoff at or above Nyquist and a bad order', () => {
    expect(() => designButterworth({ order: 5, cutoffHz: 64, fs: 128, type: 'highpass' })).toThrow(/between 0 and fs\/2/)
    expect(() => designButterworth({ order: 0, cutoffHz: 1, fs: 128, type: 'highpass' })).toThrow(/positive integer/)
  })
})
