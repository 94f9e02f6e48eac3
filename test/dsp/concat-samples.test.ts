import { describe, expect, it } from 'vitest'
import { concatSamples } from '../../src/dsp/concat-samples.ts'

describe('concatSamples', () => {
  it('joins pieces end to end in a new array of the requested type', () => {
    const out = concatSamples([Float32Array.of(1, 2), new Float32Array(0), Float32Array.of(3)], (n) => new Float32Array(n))
    expect(out).toBeInstanceOf(Float32Array)
    expect([...out]).toEqual([1, 2, 3])
  })

  it('hands a single piece back without copying, and joins none into an empty array', () => {
    const one = Float64Array.of(0.5, 0.25)
    expect(concatSamples([one], (n) => new Float64Array(n))).toBe(one)
    expect(concatSamples([], (n) => new Float64Array(n))).toEqual(new Float64Array(0))
    // Two pieces always give a fresh array, even when one is empty (owners may then transfer it).
    const frames = Int32Array.of(7, -8)
    const joined = concatSamples([new Int32Array(0), frames], (n) => new Int32Array(n))
    expect(joined).not.toBe(frames)
    expect([...joined]).toEqual([7, -8])
  })
})
