import { describe, expect, it } from 'vitest'
import { designButterworth } from '../../src/dsp/butterworth.ts'
import { createCausalSos, createSosFilter } from '../../src/dsp/sos-filter.ts'

const sos = designButterworth({ order: 5, cutoffHz: 0.5, fs: 360, type: 'highpass' })
const signal = Float32Array.from({ length: 5000 }, (_, i) => Math.sin(i / 7) + 0.3 * Math.sin(i / 300) + 2)

describe('createCausalSos', () => {
  it.each([[1], [7], [997], [5000]])('gives the same output for blocks of %i samples (state carried across blocks)', (n) => {
    const whole = createCausalSos(sos).apply(signal)
    const f = createCausalSos(sos)
    const parts: number[] = []
    for (let s = 0; s < signal.length; s += n) parts.push(...f.apply(signal.subarray(s, s + n)))
    expect(parts).toEqual([...whole])
  })

  it('starts from the steady state of the first sample, so a constant input gives 0 from a high-pass', () => {
    const y = createCausalSos(sos).apply(new Float32Array(100).fill(3))
    for (const v of y) expect(Math.abs(v)).toBeLessThan(1e-9)
  })

  it('forgets the past after reset()', () => {
    const f = createCausalSos(sos)
    f.apply(signal)
    expect([...f.apply(signal.subarray(0, 50))]).not.toEqual([...createCausalSos(sos).apply(signal.subarray(0, 50))])
    f.reset()
    expect([...f.apply(signal.subarray(0, 50))]).toEqual([...createCausalSos(sos).apply(signal.subarray(0, 50))])
  })
})

describe('createSosFilter', () => {
  it('matches the difference equation of a single section (impulse response)', () => {
    const s = [[0.2, 0.3, 0.1, 1, -0.5, 0.25]]
    const f = createSosFilter(s)
    const state = new Float64Array(f.stateSize)
    const x = new Float64Array(20)
    x[0] = 1
    const y = new Float64Array(20)
    f.run(state, x, y, 0, 20, 1)
    const ref: number[] = []
    for (let n = 0; n < 20; n++) {
      const b = [0.2, 0.3, 0.1][n] ?? 0
      ref.push(b + 0.5 * (ref[n - 1] ?? 0) - 0.25 * (ref[n - 2] ?? 0))
    }
    ref.forEach((v, i) => expect(y[i]).toBeCloseTo(v, 12))
  })

  it('steady() leaves a state that keeps a constant input at its DC response (lowpass: gain 1)', () => {
    const lp = designButterworth({ order: 4, cutoffHz: 10, fs: 250, type: 'lowpass' })
    const f = createSosFilter(lp)
    const state = new Float64Array(f.stateSize)
    f.steady(state, 1.5)
    const x = new Float64Array(50).fill(1.5)
    const y = new Float64Array(50)
    f.run(state, x, y, 0, 50, 1)
    for (const v of y) expect(v).toBeCloseTo(1.5, 10)
  })
})

describe('createSosFilter runs sections in groups of up to three per pass', () => {
  // Sample by sample through every section: the operations the grouped kernels must reproduce exactly.
  function cascade(sos: number[][], state: Float64Array, x: Float64Array, from: number, to: number, step: number): Float64Array {
    const y = x.slice()
    for (let i = from; i !== to; i += step) {
      let v = y[i]
      sos.forEach(([b0, b1, b2, , a1, a2], s) => {
        const out = b0 * v + state[2 * s]
        state[2 * s] = b1 * v - a1 * out + state[2 * s + 1]
        state[2 * s + 1] = b2 * v - a2 * out
        v = out
      })
      y[i] = v
    }
    return y
  }
  const x = Float64Array.from(signal)

  it.each([1, 2, 3, 4, 5, 6, 7])('%i sections: bit-identical to sample-by-sample cascading, forwards, backwards and in place', (n) => {
    const sos = designButterworth({ order: 2 * n, cutoffHz: 20, fs: 360, type: 'lowpass' })
    expect(sos.length).toBe(n)
    const f = createSosFilter(sos)
    for (const [from, to, step] of [[0, x.length, 1], [x.length - 1, -1, -1], [100, 3000, 1]] as const) {
      const refState = new Float64Array(f.stateSize)
      f.steady(refState, 0.7)
      const state = refState.slice()
      const ref = cascade(sos, refState, x, from, to, step)
      const y = x.slice()
      f.run(state, y, y, from, to, step)
      expect([...y]).toEqual([...ref])
      expect([...state]).toEqual([...refState])
    }
  })
})
