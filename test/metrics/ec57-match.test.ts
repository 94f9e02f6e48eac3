import { describe, expect, it } from 'vitest'
import { DEFAULT_MATCH_WINDOW_MS, matchBeats, matchWindowSamples } from '../../src/metrics/ec57-match.ts'
import { thrown } from '../helpers/thrown.ts'

// At 360 Hz the 150 ms window is exactly 54 samples.
const W = 54
const pairs = (ref: number[], test: number[], w = W) => {
  const m = matchBeats(ref, test, w)
  return { refToTest: [...m.refToTest], testToRef: [...m.testToRef] }
}

describe('matchWindowSamples', () => {
  it.each([
    [360, 150, 54],
    [250, 150, 38], // 37.5 rounds up, as WFDB's strtim does
    [128, 150, 19],
    [500, 150, 75],
    [1000, 150, 150],
    [360, 0, 0],
  ])('fs %d Hz, %d ms -> %d samples', (fs, ms, samples) => {
    expect(matchWindowSamples(fs, ms)).toBe(samples)
  })

  it('defaults to the EC57 window and rejects nonsense', () => {
    expect(DEFAULT_MATCH_WINDOW_MS).toBe(150)
    expect(matchWindowSamples(360)).toBe(54)
    expect(thrown(() => matchWindowSamples(0))).toMatchObject({ code: 'E_INTERNAL' })
    expect(thrown(() => matchWindowSamples(360, -1))).toMatchObject({ code: 'E_INTERNAL' })
  })
})

describe('matchBeats', () => {
  it('matches a detection exactly 150 ms away, on either side', () => {
    expect(pairs([1000], [1000 + W])).toEqual({ refToTest: [0], testToRef: [0] })
    expect(pairs([1000], [1000 - W])).toEqual({ refToTest: [0], testToRef: [0] })
  })

  it('does not match a detection one sample outside the window, on either side', () => {
    expect(pairs([1000], [1000 + W + 1])).toEqual({ refToTest: [-1], testToRef: [-1] })
    expect(pairs([1000], [1000 - W - 1])).toEqual({ refToTest: [-1], testToRef: [-1] })
  })

  it('pairs a doubled detection once: the other is an extra detection', () => {
    const m = pairs([1000, 1300], [990, 1000, 1300])
    expect(m.refToTest).toEqual([1, 2])
    expect(m.testToRef).toEqual([-1, 0, 1])
    // Two detections on the same sample: still one pair, one extra.
    expect(pairs([1000], [1000, 1000]).testToRef.filter((r) => r < 0)).toHaveLength(1)
  })

  it('gives a detection wanted by two references to the closer one; the other is missed', () => {
    expect(pairs([1000, 1050], [1030])).toEqual({ refToTest: [-1, 0], testToRef: [1] })
    expect(pairs([1000, 1050], [1020])).toEqual({ refToTest: [0, -1], testToRef: [0] })
  })

  it('lets each reference take its own detection when both are close (bxb 2002 rule)', () => {
    // bxb.c's example at match_dt 37: ref 96/160, test 128/185 pair as 96-128 and 160-185.
    expect(pairs([96, 160], [128, 185], 37)).toEqual({ refToTest: [0, 1], testToRef: [0, 1] })
  })

  it('handles empty inputs', () => {
    expect(pairs([], [])).toEqual({ refToTest: [], testToRef: [] })
    expect(pairs([100, 400], [])).toEqual({ refToTest: [-1, -1], testToRef: [] })
    expect(pairs([], [100, 400])).toEqual({ refToTest: [], testToRef: [-1, -1] })
  })

  it('matches a shifted beat train one to one and reports the window used', () => {
    const ref = Array.from({ length: 100 }, (_, k) => 200 + 300 * k)
    const test = ref.map((s) => s + 20)
    const m = matchBeats(Float64Array.from(ref), Float64Array.from(test), W)
    expect([...m.refToTest]).toEqual(ref.map((_, k) => k))
    expect(m.windowSamples).toBe(W)
  })

  it('rejects unsorted or non-finite input, naming the list and the index', () => {
    expect(thrown(() => matchBeats([100, 50], [], W))).toMatchObject({
      code: 'E_INTERNAL',
      context: { field: 'reference', index: 1 },
      message: expect.stringContaining('toBeatSeries'),
    })
    expect(thrown(() => matchBeats([], [1, Number.NaN], W))).toMatchObject({ context: { field: 'detected', index: 1 } })
  })
})
