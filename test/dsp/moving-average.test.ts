import { describe, expect, it } from 'vitest'
import { createMovingAverage, createZeroPhaseMovingAverage, movingAveragePadlen, powerlineWidth } from '../../src/dsp/moving-average.ts'
import { createZeroPhase } from '../../src/dsp/zero-phase.ts'
import { runZeroPhase } from '../helpers/zero-phase-stream.ts'

describe('powerlineWidth (NeuroKit2: int(fs / powerline), 2 below 100 Hz)', () => {
  it.each([
    [360, 50, 7], [360, 60, 6], [250, 50, 5], [500, 50, 10], [500, 60, 8], [128, 50, 2], [1000, 50, 20], [90, 50, 2], [100, 60, 1],
  ])('fs %i Hz, powerline %i Hz -> %i samples', (fs, pl, n) => {
    expect(powerlineWidth(fs, pl)).toBe(n)
  })
  it('pads 3 widths at each edge, as scipy filtfilt does for b = ones(n), a = [n]', () => {
    expect(movingAveragePadlen(7)).toBe(21)
  })
})

describe('createMovingAverage', () => {
  it('averages the last width samples, starting from the steady state', () => {
    const f = createMovingAverage(3)
    const state = new Float64Array(f.stateSize)
    f.steady(state, 1)
    const x = Float64Array.from([4, 7, 1, 1])
    const y = new Float64Array(4)
    f.run(state, x, y, 0, 4, 1)
    expect([...y].map((v) => +v.toFixed(12))).toEqual([2, 4, 4, 3])
  })

  it('a NaN leaves the state after width-1 samples (no running sum to poison)', () => {
    const f = createMovingAverage(3)
    const state = new Float64Array(f.stateSize)
    const x = Float64Array.from([1, NaN, 1, 1, 1, 1])
    const y = new Float64Array(6)
    f.run(state, x, y, 0, 6, 1)
    expect(Number.isNaN(y[3])).toBe(true)
    expect(y[4]).toBe(1)
    expect(y[5]).toBe(1)
  })

  it('width 1 is the identity', () => {
    const f = createMovingAverage(1)
    const x = Float64Array.from([3, -2, 5])
    const y = new Float64Array(3)
    f.run(new Float64Array(0), x, y, 0, 3, 1)
    expect([...y]).toEqual([3, -2, 5])
  })

  // Summed afresh per sample, the definition the running sum must follow.
  function direct(width: number, x: Float64Array, first: number): Float64Array {
    return x.map((_, i) => {
      let sum = 0
      for (let j = i - width + 1; j <= i; j++) sum += j < 0 ? first : x[j]
      return sum / width
    })
  }
  const long = Float64Array.from({ length: 20000 }, (_, i) => 1000 + Math.sin(i / 3) * 50 + ((i * 7919) % 101) / 7)

  it.each([2, 5, 7, 20])('width %i: the running sum stays within 1e-12 (relative) of summing afresh over 20,000 samples', (width) => {
    const f = createMovingAverage(width)
    const state = new Float64Array(f.stateSize)
    f.steady(state, long[0])
    const y = new Float64Array(long.length)
    f.run(state, long, y, 0, long.length, 1)
    const ref = direct(width, long, long[0])
    const worst = y.reduce((m, v, i) => Math.max(m, Math.abs(v - ref[i])), 0)
    expect(worst).toBeLessThan(1e-12 * 1000) // the signal's level is ~1000
  })

  it('gives bit-identical output however a stretch is split into runs (re-summing counts from steady())', () => {
    const f = createMovingAverage(7)
    const once = new Float64Array(long.length)
    const s1 = new Float64Array(f.stateSize)
    f.steady(s1, 3)
    f.run(s1, long, once, 0, long.length, 1)
    const pieces = long.slice()
    const s2 = new Float64Array(f.stateSize)
    f.steady(s2, 3)
    for (let at = 0, k = 1; at < long.length; at += k, k = (k * 5 + 3) % 4999) f.run(s2, pieces, pieces, at, Math.min(long.length, at + k), 1)
    expect([...pieces]).toEqual([...once])
  })

  it('an infinite input leaves the state after width-1 samples too', () => {
    const f = createMovingAverage(3)
    const x = Float64Array.from([1, Infinity, 1, 1, 1, -Infinity, 1, 1, 2])
    const y = new Float64Array(x.length)
    f.run(new Float64Array(f.stateSize), x, y, 0, x.length, 1)
    expect([...y.subarray(1, 4)]).toEqual([Infinity, Infinity, Infinity])
    expect(y[4]).toBe(1)
    expect([...y.subarray(5, 8)]).toEqual([-Infinity, -Infinity, -Infinity])
    expect(y[8]).toBeCloseTo(4 / 3, 15)
  })
})

describe('createZeroPhaseMovingAverage (filtfilt in one pass)', () => {
  const run = runZeroPhase
  // The two-pass reference: zero-phase.ts's forward pass and backward windows over createMovingAverage.
  const twoPass = (w: number) => createZeroPhase({ filter: createMovingAverage(w), padlen: movingAveragePadlen(w), margin: w - 1, chunk: 1024 })
  const signal = (n: number) => Float64Array.from({ length: n }, (_, i) => 100 + 2 * Math.sin(i / 3) + (i % 17) / 5)

  it.each([1, 2, 3, 7, 10])('width %i: equals the two-pass filtfilt to 1e-14 (relative) for segments of 0 to 20,000 samples, edges included', (w) => {
    for (const n of [0, 1, 2, w - 1, w, w + 1, 3 * w, 3 * w + 1, 3 * w + 2, 100, 20000]) {
      const x = signal(n)
      const { y } = run(createZeroPhaseMovingAverage(w), x, 997)
      const ref = run(twoPass(w), x, 997).y
      expect(y.length).toBe(n)
      expect(y.reduce((m, v, i) => Math.max(m, Math.abs(v - ref[i])), 0)).toBeLessThan(1e-14 * 100)
    }
  })

  it('gives bit-identical output for blocks of 1, 997 and 20,000, holds at most padlen + 1 samples, and restarts clean after finish()', () => {
    const x = signal(20000)
    const zp = createZeroPhaseMovingAverage(7)
    const a = run(zp, x, 997)
    expect(run(zp, x, 1).y).toEqual(a.y) // the same object again: finish() left nothing behind
    expect(run(createZeroPhaseMovingAverage(7), x, 20000).y).toEqual(a.y)
    expect(zp.maxHeld).toBe(22)
    expect(a.maxHeld).toBeLessThanOrEqual(zp.maxHeld)
  })

  it('a NaN inside a segment spoils exactly the outputs within width-1 of it, whatever the blocking (the checked path)', () => {
    const w = 7
    const x = signal(20000)
    for (const j of [500, 4095, 4096, 12345]) x[j] = NaN
    const a = run(createZeroPhaseMovingAverage(w), x, 997).y
    for (let i = 0; i < x.length; i++) {
      const near = [500, 4095, 4096, 12345].some((j) => Math.abs(i - j) <= w - 1)
      expect(Number.isNaN(a[i]), `sample ${i}`).toBe(near)
    }
    expect(run(createZeroPhaseMovingAverage(w), x, 1).y).toEqual(a)
    expect(run(createZeroPhaseMovingAverage(w), x, 20000).y).toEqual(a)
    // Away from the NaNs the output is the clean signal's, to rounding of the re-summed sums.
    const clean = run(createZeroPhaseMovingAverage(w), signal(20000), 997).y
    expect(Math.abs(a[3000] - clean[3000])).toBeLessThan(1e-12)
    expect(Math.abs(a[19000] - clean[19000])).toBeLessThan(1e-12)
  })
})
