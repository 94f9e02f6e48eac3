import { describe, expect, it } from 'vitest'
import { BEAT_FIELDS, packBeats, unpackBeat } from '../../src/threads/beat-engine.ts'
import type { ClassifiedBeat } from '../../src/dsp/beat-classifier.ts'

describe('packed beats (the worker answers in one transferable array)', () => {
  it('give back every field of every beat, nulls and all five labels included', () => {
    const beats: ClassifiedBeat[] = [
      { sample: 77, label: 'Q', rrMs: null, qrsSpanMs: null, templateCorr: null },
      { sample: 370, label: 'N', rrMs: 814, qrsSpanMs: 40, templateCorr: 1 },
      { sample: 2 ** 40 + 3, label: 'S', rrMs: 311, qrsSpanMs: 36, templateCorr: 0.989 },
      { sample: 9000, label: 'V', rrMs: 402, qrsSpanMs: 128, templateCorr: -0.25 },
      { sample: 9300, label: 'F', rrMs: 833, qrsSpanMs: 92, templateCorr: 0.5 },
    ]
    const p = packBeats(beats)
    expect(p.length).toBe(beats.length * BEAT_FIELDS)
    expect(beats.map((_, i) => unpackBeat(p, i))).toEqual(beats)
    expect(packBeats([]).length).toBe(0)
  })

  it('refuse a label they cannot carry, rather than lose it', () => {
    const odd = { sample: 5, label: 'X', rrMs: null, qrsSpanMs: null, templateCorr: null } as unknown as ClassifiedBeat
    expect(() => packBeats([odd])).toThrow(/label "X", not one of N, S, V, F, Q/)
  })
})
