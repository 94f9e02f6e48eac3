import { describe, expect, it } from 'vitest'
import { designButterworth } from '../../src/dsp/butterworth.ts'
import { createSosFilter, type LinearFilter } from '../../src/dsp/sos-filter.ts'
import { createMovingAverage } from '../../src/dsp/moving-average.ts'
import { createZeroPhase, decayMargin, maxPoleRadius, type ZeroPhaseSpec } from '../../src/dsp/zero-phase.ts'
import { runZeroPhase } from '../helpers/zero-phase-stream.ts'

// scipy filtfilt/sosfiltfilt (method "pad", padtype "odd") written out directly over a whole array.
function offlineFiltfilt(filter: LinearFilter, x: Float64Array, padlen: number): Float64Array {
  const n = x.length
  const ext = new Float64Array(n + 2 * padlen)
  for (let i = 0; i < padlen; i++) ext[i] = 2 * x[0] - x[padlen - i]
  ext.set(x, padlen)
  for (let i = 0; i < padlen; i++) ext[padlen + n + i] = 2 * x[n - 1] - x[n - 2 - i]
  const s = new Float64Array(filter.stateSize)
  filter.steady(s, ext[0])
  filter.run(s, ext, ext, 0, ext.length, 1)
  filter.steady(s, ext[ext.length - 1])
  filter.run(s, ext, ext, ext.length - 1, -1, -1)
  return ext.slice(padlen, padlen + n)
}

function stream(spec: ZeroPhaseSpec, x: Float64Array, blockSize: number) {
  const zp = createZeroPhase(spec)
  return { ...runZeroPhase(zp, x, blockSize), bound: zp.maxHeld }
}

const FS = 360
const sos = designButterworth({ order: 5, cutoffHz: 0.5, fs: FS, type: 'highpass' })
const hp = createSosFilter(sos)
// An ECG-like test signal: spikes, a wandering baseline and an offset.
const ecgLike = (n: number) => Float64Array.from({ length: n }, (_, i) => (i % 300 < 8 ? 1.5 : 0) + 0.4 * Math.sin(i / 500) + 0.1 * Math.sin(i / 3) - 1)
const maxDiff = (a: Float64Array, b: Float64Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0)

describe('decayMargin', () => {
  it('sizes the look-ahead from the slowest pole: 21.35 s for the 0.5 Hz 5th-order high-pass at any fs', () => {
    expect(maxPoleRadius(sos)).toBeCloseTo(Math.sqrt(sos[2][5]), 15)
    expect(decayMargin(sos)).toBe(7685)
    for (const fs of [128, 250, 500]) {
      const m = decayMargin(designButterworth({ order: 5, cutoffHz: 0.5, fs, type: 'highpass' }))
      expect(m / fs).toBeCloseTo(21.35, 1)
    }
  })
})

describe('createZeroPhase', () => {
  const x = ecgLike(40000)
  const padlen = 18 // scipy's default for this sos: 3 * (2*3 + 1 - 1)
  const reference = offlineFiltfilt(hp, x, padlen)

  it.each([[1], [997], [3600], [40000]])('equals offline sosfiltfilt to 1e-9 with blocks of %i samples', (blockSize) => {
    const { y } = stream({ filter: hp, padlen, margin: decayMargin(sos) }, x, blockSize)
    expect(y.length).toBe(x.length)
    expect(maxDiff(y, reference)).toBeLessThan(1e-9)
  })

  it('gives bit-identical output for any block size (windows depend on sample indices only)', () => {
    const spec = { filter: hp, padlen, margin: decayMargin(sos) }
    const a = stream(spec, x, 1).y
    expect([...stream(spec, x, 997).y]).toEqual([...a])
    expect([...stream(spec, x, 3600).y]).toEqual([...a])
  })

  it('holds at most margin + 2 chunks + padlen + 1 samples (one window filtered backward while the next fills), whatever the stream length', () => {
    const margin = decayMargin(sos)
    const { maxHeld, bound } = stream({ filter: hp, padlen, margin }, ecgLike(100000), 3600)
    expect(bound).toBe(3 * margin + padlen + 1)
    expect(maxHeld).toBeLessThanOrEqual(bound)
    expect(maxHeld).toBeGreaterThan(2 * margin) // the pending window is counted
  })

  it("gives bit-identical output whether a window's backward pass runs alongside the next forward samples (pair kernel) or on its own", () => {
    expect(hp.pairKernel!(10)).not.toBeNull()
    const plain: LinearFilter = { stateSize: hp.stateSize, steady: hp.steady, run: hp.run }
    for (const [blockSize, chunk] of [[3600, undefined], [1, 500], [997, 3000], [20000, 40000]] as const) {
      const spec = { padlen, margin: decayMargin(sos), chunk }
      const paired = stream({ ...spec, filter: hp }, x, blockSize).y
      expect([...paired]).toEqual([...stream({ ...spec, filter: plain }, x, blockSize).y])
      expect(maxDiff(paired, offlineFiltfilt(hp, x, padlen))).toBeLessThan(1e-9)
    }
  })

  it('is exact for an FIR (moving average) with a margin of width-1', () => {
    const ma = createMovingAverage(7)
    const { y } = stream({ filter: ma, padlen: 21, margin: 6, chunk: 100 }, x, 333)
    expect(maxDiff(y, offlineFiltfilt(ma, x, 21))).toBeLessThan(1e-12)
  })

  it('a too-small margin is visibly wrong (the margin matters)', () => {
    const { y } = stream({ filter: hp, padlen, margin: 50 }, x, 3600)
    expect(maxDiff(y, reference)).toBeGreaterThan(1e-3)
  })

  it('handles segments shorter than padlen (padlen N-1, where scipy would raise) and empty ones', () => {
    for (const n of [0, 1, 2, 5, 18, 19]) {
      const short = ecgLike(n)
      const { y } = stream({ filter: hp, padlen, margin: decayMargin(sos) }, short, 4)
      expect(y.length).toBe(n)
      for (const v of y) expect(Number.isFinite(v)).toBe(true)
      if (n > padlen) expect(maxDiff(y, offlineFiltfilt(hp, short, padlen))).toBeLessThan(1e-12)
      else if (n > 1) expect(maxDiff(y, offlineFiltfilt(hp, short, n - 1))).toBeLessThan(1e-12)
    }
  })

  it('restarts clean after finish(): a second segment equals a fresh filter', () => {
    const spec = { filter: hp, padlen, margin: decayMargin(sos) }
    const zp = createZeroPhase(spec)
    zp.push(x.subarray(0, 5000))
    zp.finish()
    const second = [...zp.push(x.subarray(5000, 20000)), ...zp.finish()]
    const fresh = stream(spec, x.subarray(5000, 20000), 15000).y
    expect(second).toEqual([...fresh])
  })
})
