import { describe, expect, it } from 'vitest'
import { assessWindow } from '../../src/dsp/signal-quality.ts'
import { blocksOf, concatLead, readRecord, recordSpec } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
import { gaussian, syntheticEcg } from '../helpers/synthetic-ecg.ts'

const ecg = syntheticEcg

describe('assessWindow', () => {
  it.each([128, 250, 360, 500])('passes a clean synthetic ECG at %i Hz and flags it noisy with 0.5 mV white noise', (fs) => {
    const x = ecg(fs, 10)
    const clean = assessWindow(x, fs)
    expect(clean.flags).toEqual([])
    expect(clean.slopeKurtosis!).toBeGreaterThan(10)
    const g = gaussian(7)
    const noisy = x.map((v) => v + 0.5 * g())
    const q = assessWindow(noisy, fs)
    expect(q.flags).toEqual(['noisy'])
    expect(q.slopeKurtosis!).toBeLessThan(5)
  })

  it('does not call slow baseline wander noise, nor a 3 s pause with a wandering baseline flat', () => {
    const fs = 250
    const x = ecg(fs, 10)
    for (let i = 0; i < x.length; i++) x[i] += 1.5 * Math.sin((2 * Math.PI * 0.15 * i) / fs)
    expect(assessWindow(x, fs).flags).toEqual([])
    const pause = ecg(fs, 10)
    for (let i = 3 * fs; i < 6 * fs; i++) pause[i] = 0.1 * Math.sin((2 * Math.PI * 0.3 * i) / fs)
    expect(assessWindow(pause, fs).flags).toEqual([])
  })

  it('does not call ventricular tachycardia or flutter noise: regular wide complexes have a Gaussian slope but repeat', () => {
    const fs = 250
    // Wide (80 ms) complexes at 180 and 200 bpm with a T wave, and a 4 Hz sine (flutter).
    const vt = (bpm: number) => Float32Array.from({ length: 10 * fs }, (_, i) => {
      const period = 60 / bpm
      const phase = (i / fs) % period
      return (phase < 0.16 ? 1.5 * Math.sin((Math.PI * phase) / 0.16) : 0) - 0.4 * Math.exp(-(((phase - 0.6 * period) / 0.06) ** 2))
    })
    const flutter = Float32Array.from({ length: 10 * fs }, (_, i) => Math.sin((2 * Math.PI * 4 * i) / fs))
    for (const x of [vt(180), vt(200), flutter]) {
      const q = assessWindow(x, fs)
      expect(q.slopeKurtosis!).toBeLessThan(5) // noise-like by kurtosis alone...
      expect(q.flags).toEqual([]) // ...but periodic
      expect(assessWindow(x, fs, { rhythmCorr: 1.01 }).flags).toEqual(['noisy'])
    }
  })

  it('keeps a 6 s pause on a quiet baseline (3 uV of noise) as signal, not a lead off', () => {
    const fs = 250
    const x = ecg(fs, 10)
    const g = gaussian(11)
    for (let i = 2 * fs; i < 8 * fs; i++) x[i] = 0.003 * g()
    expect(assessWindow(x, fs).flags).toEqual([])
  })

  it('flags a lead-off flat line by the share of flat seconds', () => {
    const fs = 360
    const x = ecg(fs, 10)
    x.fill(0.25, 0, 3 * fs) // 3 s of a disconnected lead
    const q = assessWindow(x, fs)
    expect(q.flatPct).toBeCloseTo(30, 0)
    expect(q.flags).toEqual(['flat'])
    x.fill(0.25, 0, 1 * fs) // 1 s only: under the 20 % threshold
    x.set(ecg(fs, 10).subarray(fs, 3 * fs), fs)
    expect(assessWindow(x, fs).flags).toEqual([])
    // A whole flat window is flat, not saturated, and has no slope statistics to call noisy.
    const q2 = assessWindow(new Float32Array(10 * fs).fill(-0.3), fs)
    expect(q2.flags).toEqual(['flat'])
    expect(q2.saturatedPct).toBe(0)
  })

  it('flags saturation: a plateau at the rail, not a short flat top of an R wave', () => {
    const fs = 360
    const x = ecg(fs, 10)
    for (let i = 4 * fs; i < 5 * fs; i++) x[i] += 3 * Math.sin((Math.PI * (i - 4 * fs)) / fs) // a motion swing
    const rail = 2
    const clipped = x.map((v) => Math.min(rail, v))
    const q = assessWindow(clipped, fs)
    expect(q.flags).toContain('saturated')
    expect(q.saturatedPct).toBeGreaterThan(2)
    // R peaks quantised to a 3-sample plateau at the window's maximum are not saturation.
    const y = ecg(fs, 10)
    const top = Math.max(...y)
    const peak = y.indexOf(top)
    y[peak - 1] = y[peak + 1] = top
    expect(assessWindow(y, fs).saturatedPct).toBe(0)
  })

  it('flags windows with many invalid samples and keeps NaN out of the other measures', () => {
    const fs = 250
    const x = ecg(fs, 10)
    x.fill(NaN, 0, 2 * fs)
    const q = assessWindow(x, fs)
    expect(q.invalidPct).toBe(20)
    expect(q.flags).toEqual(['invalid'])
    expect(q.slopeKurtosis!).toBeGreaterThan(10)
    expect(q.flatPct).toBe(0)
    const few = ecg(fs, 10)
    few[100] = NaN
    expect(assessWindow(few, fs).flags).toEqual([])
    expect(assessWindow(new Float32Array(10 * fs).fill(NaN), fs)).toMatchObject({ flags: ['invalid'], invalidPct: 100, slopeKurtosis: null })
  })

  it('copes with tiny windows', () => {
    expect(assessWindow(new Float32Array(0), 360).flags).toEqual([])
    expect(assessWindow(Float32Array.of(1, 2, 3), 360).slopeKurtosis).toBeNull()
  })
})

describeShared('assessWindow on MIT-BIH recordings', () => {
  it('finds no artifact in the 30 min of records 100 (both leads) and 208 (lead 0) in 10 s windows, and flags added noise and a flat stretch', async () => {
    const flagged = async (rec: string, lead: number, edit?: (x: Float32Array, fs: number) => void) => {
      const { items } = await readRecord(recordSpec(sharedPath(`data/mitdb/${rec}`)))
      const fs = blocksOf(items)[0].fs
      const x = concatLead(items, lead)
      edit?.(x, fs)
      const out: number[] = []
      for (let w = 0; (w + 1) * 10 * fs <= x.length; w++) if (assessWindow(x.subarray(w * 10 * fs, (w + 1) * 10 * fs), fs).flags.length) out.push(w)
      return out
    }
    expect(await flagged('100', 0)).toEqual([])
    expect(await flagged('100', 1)).toEqual([])
    expect(await flagged('208', 0)).toEqual([])
    const g = gaussian(3)
    // Heavy noise over windows 20-22 and a disconnected lead over windows 50-51.
    expect(await flagged('100', 0, (x, fs) => {
      for (let i = 200 * fs; i < 230 * fs; i++) x[i] += 0.6 * g()
      x.fill(0, 500 * fs, 520 * fs)
    })).toEqual([20, 21, 22, 50, 51])
  }, 30_000)
})
