// Where excerpts fall (unit layer): the three rules' spans, the order they are decided in, and
// the lowest start a span still to come may have (the excerpt stage's watermark).
import { describe, expect, it } from 'vitest'
import { aroundPlan, everyPlan, randomPlan, type ExcerptEvent } from '../../src/excerpts/excerpt-plans.ts'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'

const ev = (sample: number, label = 'V'): ExcerptEvent => ({ sample, timeMs: sample, label, source: 'reference', kind: 'beat' })

describe('excerpt plans', () => {
  it('every: a span every step from offset, decided once the watermark passes its end', () => {
    const p = everyPlan(1000, 300, 50)
    expect(p.due(349)).toEqual([])
    expect(p.lowest(349)).toBe(50)
    expect(p.due(2349).map((s) => [s.startSample, s.endSample])).toEqual([[50, 350], [1050, 1350]])
    expect(p.lowest(2349)).toBe(2050)
    expect(p.end(2300).map((s) => s.startSample)).toEqual([]) // the third does not fit in the signal
    const q = everyPlan(1000, 300, 50)
    expect(q.end(2350).map((s) => [s.startSample, s.reason])).toEqual([[50, { rule: 'every', index: 0 }], [1050, { rule: 'every', index: 1 }], [2050, { rule: 'every', index: 2 }]])
  })

  it('random: the same spans for the same seed, apart, inside the record; others for another seed', () => {
    const spans = (seed: string) => randomPlan(8, 600, 100_000, seed).due(Infinity).map((s) => s.startSample)
    const a = spans('1:rec')
    expect(a).toHaveLength(8)
    expect(spans('1:rec')).toEqual(a)
    expect(spans('2:rec')).not.toEqual(a)
    expect([...a].sort((x, y) => x - y)).toEqual(a)
    for (let i = 1; i < a.length; i++) expect(a[i] - a[i - 1]).toBeGreaterThanOrEqual(600)
    expect(a.every((s) => s >= 0 && s + 600 <= 100_000)).toBe(true)
    // The same spans as checking each candidate against every span taken (what the plan does
    // with a binary search), for counts that crowd the record.
    for (const [count, seed] of [[50, 'a'], [400, 'b']] as const) {
      const rng = createSeededRandom(seed)
      const naive: number[] = []
      for (let tries = 0; naive.length < count && tries < count * 50; tries++) {
        const s = rng.below(100_000 - 200 + 1)
        if (naive.every((t) => s + 200 <= t || t + 200 <= s)) naive.push(s)
      }
      expect(randomPlan(count, 200, 100_000, seed).due(Infinity).map((s) => s.startSample)).toEqual(naive.sort((x, y) => x - y))
    }
    // A record too short for them all gets those that fit.
    expect(randomPlan(8, 600, 1500, 'x').due(Infinity).length).toBeLessThan(3)
  })

  it('around: events decided in sample order once none before can come, at least minGap apart, at most max', () => {
    const p = aroundPlan(100, 200, 500, 3)
    p.event(ev(1000))
    p.event(ev(700)) // a late one, before the first
    p.event(ev(1100)) // within minGap of 700: skipped
    expect(p.lowest(650)).toBe(550) // a later event can still start a span at the watermark - before
    expect(p.due(900).map((s) => s.startSample)).toEqual([600]) // 700 decided, its span [600, 900) passed
    p.event(ev(5000))
    p.event(ev(9000))
    expect(p.due(20_000).map((s) => [s.startSample, s.endSample, s.reason.event?.sample])).toEqual([[4900, 5200, 5000], [8900, 9200, 9000]])
    expect(p.lowest(20_000)).toBe(Infinity) // three taken: nothing more will come
  })

  it('around: clips a span to the record, and ends what is still undecided', () => {
    const p = aroundPlan(300, 300, 0, 10)
    p.event(ev(100))
    p.event(ev(950))
    expect(p.end(1000).map((s) => [s.startSample, s.endSample])).toEqual([[0, 400], [650, 1000]])
  })

  it('around: every event near the record start keeps its span, clipped to start 0 and named by its event so the ids stay apart', () => {
    const p = aroundPlan(300, 300, 0, 10)
    for (const s of [50, 120, 120, 299, 300, 400]) p.event(ev(s))
    const spans = p.end(10_000)
    expect(spans.map((s) => [s.startSample, s.name ?? String(s.startSample)])).toEqual([[0, '0@50'], [0, '0@120'], [0, '0@299'], [0, '0'], [100, '100']])
  })

  it('seeded random: reproducible, in [0, 1), and spread', () => {
    const a = createSeededRandom('7:100')
    const b = createSeededRandom('7:100')
    const xs = Array.from({ length: 1000 }, () => a.next())
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(xs)
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true)
    expect(Math.abs(xs.reduce((s, x) => s + x, 0) / 1000 - 0.5)).toBeLessThan(0.05)
    expect(new Set(Array.from({ length: 100 }, () => createSeededRandom('7:100').below(10))).size).toBe(1)
  })
})
