import { describe, expect, it } from 'vitest'
import { BEAT_FIELDS, createBeatCore, packBeats, packedCount, packedSettled, unpackBeat } from '../../src/threads/beat-engine.ts'
import { syntheticEcg } from '../helpers/synthetic-ecg.ts'
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
    const p = packBeats(beats, 12345)
    expect(p.length).toBe(beats.length * BEAT_FIELDS + 1)
    expect(packedCount(p)).toBe(beats.length)
    expect(beats.map((_, i) => unpackBeat(p, i))).toEqual(beats)
    expect(packedSettled(p)).toBe(12345)
    expect(packedCount(packBeats([]))).toBe(0)
    expect(packedSettled(packBeats([]))).toBe(-Infinity)
  })

  it("carry the engine's settled point: no beat it gives later lies before it, and it moves on with the signal", () => {
    const fs = 250
    const x = syntheticEcg(fs, 120)
    const core = createBeatCore({ fs, refractoryMs: 200 })
    let settled = -Infinity
    let beats = 0
    for (let at = 0; at < x.length; at += 2500) {
      const p = core.push(x.subarray(at, at + 2500), at)
      for (let i = 0; i < packedCount(p); i++) expect(unpackBeat(p, i).sample).toBeGreaterThanOrEqual(settled)
      beats += packedCount(p)
      expect(packedSettled(p)).toBeGreaterThanOrEqual(settled)
      settled = packedSettled(p)
      expect(settled).toBeGreaterThan(at + 2500 - 25 * fs) // within the LATE_SEC bounds of detector and classifier
    }
    const last = core.finish()
    for (let i = 0; i < packedCount(last); i++) expect(unpackBeat(last, i).sample).toBeGreaterThanOrEqual(settled)
    expect(beats + packedCount(last)).toBeGreaterThan(100)
    expect(packedSettled(last)).toBe(Infinity)
  })

  it('refuse a label they cannot carry, rather than lose it', () => {
    const odd = { sample: 5, label: 'X', rrMs: null, qrsSpanMs: null, templateCorr: null } as unknown as ClassifiedBeat
    expect(() => packBeats([odd])).toThrow(/label "X", not one of N, S, V, F, Q/)
  })
})
