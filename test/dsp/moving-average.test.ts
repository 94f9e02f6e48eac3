import { describe, expect, it } from 'vitest'
import { createMovingAverage, movingAveragePadlen, powerlineWidth } from '../../src/dsp/moving-average.ts'

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
})
