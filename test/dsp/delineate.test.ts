// The beat delineator (unit layer) on a synthetic beat built from Gaussian waves at known places
// (P, q, R, s, T at 360 Hz and 250 Hz), on one without P and q (no trough before R: no Q, so no
// P), and on a window with missing samples; then prominentPeaks' rule.
import { describe, expect, it } from 'vitest'
import { delineateBeat, prominentPeaks, type BeatSignal } from '../../src/dsp/delineate.ts'

const wave = (t: number, at: number, width: number, amp: number) => amp * Math.exp(-0.5 * ((t - at) / width) ** 2)
// One beat, R at 1.0 s, every time in seconds.
function beat(fs: number, withQ = true, withP = true): { x: Float64Array; r: number; fs: number } {
  const n = Math.round(2 * fs)
  const x = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const t = i / fs
    x[i] = (withP ? wave(t, 0.84, 0.025, 0.15) : 0) + (withQ ? wave(t, 0.975, 0.008, -0.15) : 0) + wave(t, 1.0, 0.01, 1.2) + wave(t, 1.03, 0.009, -0.3) + wave(t, 1.28, 0.045, 0.3)
  }
  return { x, r: Math.round(fs), fs }
}
const signal = (x: Float64Array): BeatSignal => ({ start: 0, end: x.length, at: (i) => (i >= 0 && i < x.length ? x[i] : NaN) })

describe('delineateBeat on a synthetic beat', () => {
  it.each([360, 250])('at %i Hz: P, Q, S and T peaks within 2 samples of where they were put, and every edge in order', (fs) => {
    const { x, r } = beat(fs)
    const w = delineateBeat(signal(x), r, Math.round(0.8 * fs), fs)
    const near = (v: number | null, t: number) => expect(Math.abs((v ?? -1e9) - t * fs)).toBeLessThanOrEqual(2)
    near(w.pPeak, 0.84)
    near(w.qPeak, 0.975)
    near(w.sPeak, 1.03)
    near(w.tPeak, 1.28)
    const order = [w.pOnset, w.pPeak, w.pOffset, w.qrsOnset, w.qPeak, r, w.sPeak, w.qrsOffset, w.tPeak, w.tOffset]
    expect(order.every((v) => v !== null)).toBe(true)
    for (let k = 1; k < order.length; k++) expect(order[k]!, `edge ${k}`).toBeGreaterThan(order[k - 1]!)
    // The QRS spans 40-120 ms here, the P onset is before the P wave's rise, the T offset after its fall.
    const qrsMs = ((w.qrsOffset! - w.qrsOnset!) * 1000) / fs
    expect(qrsMs).toBeGreaterThan(40)
    expect(qrsMs).toBeLessThan(120)
    expect(w.pOnset!).toBeLessThan((0.84 - 0.03) * fs)
    expect(w.tOffset!).toBeGreaterThan((1.28 + 0.05) * fs)
  })

  // A trough anywhere before R counts as Q (as in the peak method); a beat that rises from the
  // baseline into R with none has no Q and no P is looked for.
  it('rising straight into R: no Q, so no P, and still a QRS onset', () => {
    const { x, r, fs } = beat(360, false, false)
    const w = delineateBeat(signal(x), r, 288, fs)
    expect(w.qPeak).toBeNull()
    expect(w.pPeak).toBeNull()
    expect(w.pOnset).toBeNull()
    expect(w.sPeak).not.toBeNull()
    expect(w.qrsOnset).not.toBeNull()
  })

  it('marks nothing from a stretch with missing samples', () => {
    const { x, r, fs } = beat(360)
    for (let i = r - 150; i < r - 60; i++) x[i] = NaN
    const w = delineateBeat(signal(x), r, 288, fs)
    expect(w.pPeak).toBeNull()
    expect(w.qPeak).toBeNull()
  })
})

describe('prominentPeaks', () => {
  const arr = (v: number[]): BeatSignal => ({ start: 0, end: v.length, at: (i) => v[i] ?? NaN })
  it('keeps peaks whose prominence reaches the share of the range, a flat top once at its middle', () => {
    // Range 10: a peak of prominence 0.4 is dropped at 5 %, kept at 1 %.
    const v = [0, 10, 0, 0.4, 0, 5, 5, 5, 0]
    expect(prominentPeaks(arr(v), 0, v.length - 1, 1).map((p) => p.at)).toEqual([1, 6])
    expect(prominentPeaks(arr(v), 0, v.length - 1, 1, 0.01).map((p) => p.at)).toEqual([1, 3, 6])
    expect(prominentPeaks(arr(v), 0, v.length - 1, 1)[1].prominence).toBe(5)
  })
  it('finds troughs with sign -1', () => {
    const v = [0, -3, 0, 1, -2, 1]
    expect(prominentPeaks(arr(v), 0, v.length - 1, -1).map((p) => p.at)).toEqual([1, 4])
  })
})
