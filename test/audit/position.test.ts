// The position answerers (src/audit/position.ts) on a hand-worked item, where each one's pick
// follows from its definition, and where they must abstain; then over seeded items: decoys drawn
// `rank` before the truth and the rest after it (the rule the qa stage used to follow) give the
// truth away to 'span likelihood', and options that are four i.i.d. times in the span give
// nothing to any of them.
import { describe, expect, it } from 'vitest'
import { POSITION_ANSWERERS } from '../../src/audit/position.ts'
import { answererRowOver } from '../../src/audit/report.ts'
import type { ClosedQuestion } from '../../src/audit/priors.ts'
import { createSeededRandom, type SeededRandom } from '../../src/excerpts/seeded-random.ts'
import { closed, span } from './items.ts'

const by = (name: string) => POSITION_ANSWERERS.find((a) => a.name === name)!
const ask = (spanText: string, options: string[]) => closed(`This recording is from a 60-year-old male. ${spanText} When did the pause occur?`, options, 0)

describe('position answerers on a hand-worked item', () => {
  // Span 60000-120000 ms; A 96000 (position 0.6, rank 2), B 78000 (0.3, rank 0), C 117000
  // (0.95, rank 3), D 90000 (0.5, rank 1). Likelihood of "the other three drawn uniformly, r
  // before it and 3-r after", r! (3-r)! t^-r (1-t)^-(3-r): A 2 0.6^-2 0.4^-1 = 13.9, B 6 0.7^-3
  // = 17.5, C 6 0.95^-3 = 7.0, D 2 0.5^-1 0.5^-2 = 16, so B (without the orders counted, D).
  // Expected places of ranks 0-3 among 4 uniform points: 0.2, 0.4, 0.6, 0.8; distances A 0,
  // B 0.1, C 0.15, D 0.1. Room between neighbours (edges 0 and 1): A 0.95-0.5 = 0.45, B 0.5,
  // C 1-0.6 = 0.4, D 0.6-0.3 = 0.3.
  const q = ask(span(60000, 120000), ['96000 ms', '78000 ms', '117000 ms', '90000 ms'])
  const want: [string, number][] = [
    ['span likelihood', 1], ['nearest the middle', 3], ['nearest an edge', 2], ['rank quantile', 0],
    ['off its rank quantile', 2], ['widest neighbourhood', 1], ['narrowest neighbourhood', 3],
  ]
  it.each(want)('%s picks option %i', (name, index) => expect(by(name).pick(q)).toBe(index))
  it('every position answerer is in the table above', () => expect(POSITION_ANSWERERS.map((a) => a.name).sort()).toEqual(want.map(([n]) => n).sort()))
  it('reads the span in another phrasing and options without a unit', () => {
    const other = ask('You are shown the part of the recording from 60000 ms to 120000 ms (00:01:00-00:02:00).', ['96000', '78000', '117000', '90000'])
    expect(by('span likelihood').pick(other)).toBe(1)
  })

  const abstain: [string, ClosedQuestion][] = [
    ['no stated span', ask('', ['93600 ms', '66000 ms', '111000 ms', '72000 ms'])],
    ['an option after the span', ask(span(60000, 120000), ['93600 ms', '66000 ms', '130000 ms', '72000 ms'])],
    ['an option before the span', ask(span(60000, 120000), ['93600 ms', '59999 ms', '111000 ms', '72000 ms'])],
    ['non-numeric options', ask(span(60000, 120000), ['Asystole', 'Sinus Pause', 'Atrial Flutter', 'Paced Rhythm'])],
    ['an option that is a list of times', ask(span(60000, 120000), ['93600, 94000 ms', '66000 ms', '111000 ms', '72000 ms'])],
    ['two options only', ask(span(60000, 120000), ['93600 ms', '66000 ms'])],
    ['free-text yes/no', { ...ask(span(60000, 120000), []), options: null, gold: 'yes' }],
    ['counts, which lie "in" a span from 0 ms', { ...ask(span(0, 60000), ['0', '1', '2', '3']), task: 'closed_event_counting' }],
  ]
  for (const [why, question] of abstain) {
    it(`every position answerer abstains on ${why}`, () => expect(POSITION_ANSWERERS.map((a) => a.pick(question))).toEqual(POSITION_ANSWERERS.map(() => null)))
  }
})

const shuffled = <T>(xs: T[], rng: SeededRandom): T[] => {
  const out = [...xs]
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

// `n` items over spans of one minute; `options(start, end, truth)` gives the decoys.
function items(seed: string, n: number, decoys: (rng: SeededRandom, start: number, end: number, truth: number) => number[]): ClosedQuestion[] {
  const rng = createSeededRandom(seed)
  return Array.from({ length: n }, () => {
    const start = 60000 * rng.below(600)
    const end = start + 60000
    const truth = Math.round(start + rng.next() * (end - start))
    const times = shuffled([truth, ...decoys(rng, start, end, truth)], rng)
    return closed(`${span(start, end)} At which ms did the event occur?`, times.map((t) => `${t} ms`), times.indexOf(truth))
  })
}

describe('position answerers over seeded items', () => {
  const uniform = (rng: SeededRandom, a: number, b: number) => Math.round(a + rng.next() * (b - a))
  const aroundTruth = items('old decoy rule', 2000, (rng, start, end, truth) => {
    const rank = rng.below(4)
    return Array.from({ length: 3 }, (_, k) => (k < rank ? uniform(rng, start, truth) : uniform(rng, truth, end)))
  })
  const exchangeable = items('iid times', 2000, (rng, start, end) => Array.from({ length: 3 }, () => uniform(rng, start, end)))
  const rows = (qs: ClosedQuestion[]) => POSITION_ANSWERERS.map((a) => answererRowOver(a, qs, POSITION_ANSWERERS.length))

  it('decoys drawn `rank` before the truth and the rest after it: span likelihood is flagged, more than half right', () => {
    const row = rows(aroundTruth).find((r) => r.answerer === 'span likelihood')!
    expect(row).toMatchObject({ items: 2000, chance: 0.25, leak: true, withinNoise: false })
    expect(row.accuracy).toBeGreaterThan(0.5)
    expect(row.pValue).toBeLessThan(1e-6)
  })
  it('four i.i.d. times in the span, the truth one of them: no position answerer flagged, each within 4 points of chance', () => {
    const got = rows(exchangeable)
    expect(got.map((r) => r.items)).toEqual(POSITION_ANSWERERS.map(() => 2000))
    expect(got.filter((r) => r.leak || Math.abs(r.marginPoints) >= 4).map((r) => `${r.answerer} ${r.marginPoints.toFixed(1)}`)).toEqual([])
  })
})
