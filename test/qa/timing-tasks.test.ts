// The timing task generators (unit layer) on hand-built facts: closed options are beat times of
// the excerpt in time order with the truth at the answer's letter, its rank whatever the decoy
// draw gives, decoys at the beats nearest the references (other excerpts' truths) and never
// neighbours of another option; the decoys are drawn once and a draw that does not fit drops the
// item, so each is tried over many seeds and checked wherever one is made; no item where the
// event does not occur exactly once on a beat or too few references are given; extremum decoys
// snap to the moments nearest the references, kept only when clearly slower (faster) and sharing
// no beat with the truth; every extremum question names its basis.
import { describe, expect, it } from 'vitest'
import { eventIn, type ExcerptFacts } from '../../src/qa/excerpt-facts.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import { countWords } from '../../src/qa/count-words.ts'
import { extremeApart, extremeBeats, hrExtreme } from '../../src/qa/hr-extreme.ts'
import { closedEventTiming, spanPosition } from '../../src/qa/tasks/closed-event-timing.ts'
import { closedHrExtremumTiming } from '../../src/qa/tasks/closed-hr-extremum-timing.ts'
import { openHrExtremumTiming } from '../../src/qa/tasks/open-hr-extremum-timing.ts'
import { rateQuestion } from '../../src/qa/tasks/rate-words.ts'
import { DRAWS, FS, PVC, SEEDS, beatsOf, checkClosed, factsOf, firstMade, madeOver, r, swingFacts } from './hand-facts.ts'

const words = (event: string) => countWords(event, DEFAULT_VOCABULARY)
const REFS = [0.08, 0.27, 0.5, 0.73, 0.92]
// The index of the beat at a "<ms>" or "<ms> ms" option.
const indexOf = (facts: ExcerptFacts, option: string) => facts.beats.findIndex((b) => String(Math.round(b.timeMs)) === option.replace(/ ms$/, ''))
// The beats of `pool` nearest each reference position (either of two equally near).
const nearestTo = (facts: ExcerptFacts, pool: readonly number[], refs: readonly number[]) => new Set(refs.flatMap((p) => {
  const d = (i: number) => Math.abs(spanPosition(facts, i) - p)
  const best = Math.min(...pool.map(d))
  return pool.filter((i) => d(i) === best)
}))

describe('closed_event_timing', () => {
  // One PVC at beat 20 of 40.
  const one = beatsOf('N'.repeat(20) + 'V' + 'N'.repeat(19))
  const oneFacts = factsOf(one)
  const all = one.map((_, i) => i)

  it('the truth at the answer\'s letter, the decoys beats of the excerpt nearest the references, in time order, no two neighbours', () => {
    const truth = Math.round(one[20].timeMs)
    const ranks = new Set<number>()
    const made = madeOver((g) => closedEventTiming(oneFacts, PVC, words(PVC), REFS, g))
    // The truth lies at the middle reference, so a draw of three different references is kept when
    // it leaves that one out: 4 of the 10 sets of three of five references.
    expect(made.length / DRAWS.length).toBeGreaterThan(0.25)
    expect(made.length / DRAWS.length).toBeLessThan(0.55)
    for (const d of made) {
      checkClosed(d, 4, PVC)
      const rank = d.gold.correct!
      expect(d.gold).toMatchObject({ value: truth, timestampsMs: [truth], event: PVC, design: { distractors: 'exchangeable', rank } })
      expect(d.gold.choices![rank]).toBe(String(truth))
      expect(d.gold.evidenceBeats).toEqual([one[20].sample])
      const idx = d.gold.choices!.map((c) => indexOf(oneFacts, c))
      expect(idx[rank]).toBe(20)
      expect(idx).toEqual([...idx].sort((a, b) => a - b))
      for (let k = 1; k < 4; k++) expect(idx[k] - idx[k - 1]).toBeGreaterThan(1)
      const near = nearestTo(oneFacts, all, REFS)
      for (const [k, i] of idx.entries()) if (k !== rank) expect(near.has(i)).toBe(true)
      ranks.add(rank)
    }
    // The rank is drawn with the decoys, never fixed.
    expect(ranks.size).toBeGreaterThan(1)
  })

  // References at the truth's neighbours and every other beat after it: only beats 23, 25 and 27
  // keep clear of the truth and of each other.
  it('never offers a neighbour of another option', () => {
    const refs = [19, 21, 23, 25, 27].map((i) => spanPosition(oneFacts, i))
    const made = madeOver((g) => closedEventTiming(oneFacts, PVC, words(PVC), refs, g))
    // Only the picks of 23, 25 and 27 in some order are kept: 6 of 125.
    expect(made.length).toBeGreaterThan(0)
    expect(made.length).toBeLessThan(DRAWS.length / 5)
    for (const d of made) expect(d.gold.choices!.map((c) => indexOf(oneFacts, c))).toEqual([20, 23, 25, 27])
  })

  it.each([
    { name: 'two occurrences (lists are not offered)', text: 'NNNNNNVNNNNNNVNNNNNN', refs: REFS },
    { name: 'no occurrence', text: 'NNNNNNNNNNNNNNNNNNNN', refs: REFS },
    { name: 'fewer than 3 references', text: 'NNNNNNNNVNNNNNNNNNNN', refs: [0.1, 0.9] },
    { name: 'a run going on at the first beat (no onset in the excerpt)', text: 'VVVNNNNNNNNNNNNNNNNN', event: 'Ventricular Tachycardia', refs: REFS, boundary: true },
    { name: 'one occurrence with room around it', text: 'NNNNNNNNVNNNNNNNNNNN', refs: REFS, ok: true },
  ])('$name: an item $ok', ({ text, refs, event, boundary, ok }) => {
    const ev = event ?? PVC
    const f = factsOf(beatsOf(text))
    if (boundary) expect(eventIn(f, ev)?.boundary).toBe(true)
    const made = madeOver((g) => closedEventTiming(f, ev, words(ev), refs, g))
    if (ok) expect(made.length).toBeGreaterThan(0)
    else expect(made).toEqual([])
  })

  // A rhythm event's onset is an annotation time between beats: among beat times it would be the
  // one option off the QRS complexes, so no closed timing item is made for it.
  it('a rhythm onset makes no item', () => {
    const beats = beatsOf('NNNNNNNNNNNNNNNNNNNN')
    const onset = beats[10].timeMs - 300
    const f = factsOf(beats, [{ rhythm: 'AFL', startSample: Math.round((onset * FS) / 1000), startMs: onset, endSample: Infinity, endMs: Infinity }])
    expect(madeOver((g) => closedEventTiming(f, 'Atrial Flutter', words('Atrial Flutter'), REFS, g))).toEqual([])
  })

  it.each([
    { event: 'Ventricular Tachycardia', text: 'NNNNNNNNNVVVNNNNNNNNNNNN', first: 9, beats: [9, 10, 11], at: 'at its first beat' },
    { event: 'Ventricular Couplet', text: 'NNNNNNNNNNNNVVNNNNNNNNNN', first: 12, beats: [12, 13], at: 'at its first beat' },
  ])('$event is timed $at, its evidence the episode\'s beats', ({ event, text, first, beats: evidence, at }) => {
    const beats = beatsOf(text)
    const f = factsOf(beats)
    const made = madeOver((g) => closedEventTiming(f, event, words(event), REFS, g))
    expect(made.length).toBeGreaterThan(0)
    for (const d of made) {
      checkClosed(d, 4, event)
      expect(d.question).toContain(`(timed ${at})`)
      expect(d.gold.choices![d.gold.correct!]).toBe(String(Math.round(beats[first].timeMs)))
      expect(d.gold.evidenceBeats).toEqual(evidence.map((i) => beats[i].sample))
    }
  })
})

describe('closed_HR_extremum_timing', () => {
  const facts = swingFacts()
  const margin = 3
  const rate = (basis: 'average' | 'beat', i: number) => (basis === 'average' ? facts.hrAvg[i] : (60 * FS) / (facts.beats[i].sample - facts.beats[i - 1].sample))

  it.each([
    { which: 'fastest' as const, basis: 'average' as const },
    { which: 'slowest' as const, basis: 'average' as const },
    { which: 'fastest' as const, basis: 'beat' as const },
    { which: 'slowest' as const, basis: 'beat' as const },
  ])('$which on the $basis basis: decoys clearly slower (faster), sharing no beat with it, near the references', ({ which, basis }) => {
    const x = hrExtreme(facts, which, basis, margin)!
    const sign = which === 'fastest' ? 1 : -1
    const apart = extremeApart(facts, x)
    // A reference snaps to the nearest moment of any rate; the draw is kept only if that one may be a decoy.
    const near = nearestTo(facts, x.moments, REFS)
    const ranks = new Set<number>()
    const made = madeOver((g) => closedHrExtremumTiming(facts, x, REFS, g))
    expect(made.length).toBeGreaterThan(0)
    for (const d of made) {
      checkClosed(d, 4)
      const rank = d.gold.correct!
      expect(d.question).toContain(which)
      expect(d.gold).toMatchObject({ value: x.timeMs, extremum: which, basis, bpm: x.bpm, design: { distractors: 'exchangeable', rank } })
      expect(d.gold.choices![rank]).toBe(`${x.timeMs} ms`)
      expect(d.gold.evidenceBeats).toEqual(extremeBeats(facts, x))
      const idx = d.gold.choices!.map((c) => indexOf(facts, c))
      expect(idx[rank]).toBe(x.index)
      expect(idx).toEqual([...idx].sort((a, b) => a - b))
      // Every two options, the truth included, more than a window (interval) apart.
      for (let k = 1; k < 4; k++) expect(idx[k] - idx[k - 1]).toBeGreaterThan(apart)
      for (const [k, i] of idx.entries()) {
        if (k === rank) continue
        expect(x.others).toContain(i)
        expect(near.has(i)).toBe(true)
        expect(sign * (rate(basis, x.index) - rate(basis, i))).toBeGreaterThanOrEqual(margin)
      }
      ranks.add(rank)
    }
    expect(ranks.size).toBeGreaterThan(1)
  })

  it('is null with fewer than 3 references', () => {
    const x = hrExtreme(facts, 'fastest', 'average', margin)!
    expect(firstMade((g) => closedHrExtremumTiming(facts, x, REFS, g)).task).toBe('closed_HR_extremum_timing')
    expect(madeOver((g) => closedHrExtremumTiming(facts, x, [0.2, 0.8], g))).toEqual([])
  })

  // References at three moments that may be decoys and one that may not (as fast as the extreme
  // within the margin, away from it): a draw picking that one is dropped, not moved to the nearest
  // moment that may be a decoy, so every kept draw offers the three.
  it.each([
    { which: 'fastest' as const, basis: 'average' as const },
    { which: 'slowest' as const, basis: 'average' as const },
    { which: 'fastest' as const, basis: 'beat' as const },
    { which: 'slowest' as const, basis: 'beat' as const },
  ])('$which on the $basis basis: a reference at a moment that may not be a decoy drops the draw', ({ which, basis }) => {
    const x = hrExtreme(facts, which, basis, margin)!
    const apart = extremeApart(facts, x)
    const others = new Set(x.others)
    const bad = x.moments.find((i) => !others.has(i) && Math.abs(i - x.index) > apart)!
    expect(bad).toBeDefined()
    const good: number[] = []
    for (const q of [0.05, 0.25, 0.45, 0.65, 0.85, 0.95]) {
      const i = x.others[Math.floor(q * x.others.length)]
      if (good.length < 3 && [x.index, bad, ...good].every((j) => Math.abs(i - j) > apart)) good.push(i)
    }
    expect(good).toHaveLength(3)
    const refs = [...good, bad].map((i) => spanPosition(facts, i))
    const made = madeOver((g) => closedHrExtremumTiming(facts, x, refs, g))
    expect(made.length).toBeGreaterThan(0)
    for (const d of made) expect(d.gold.choices!.map((c) => indexOf(facts, c)).filter((i) => i !== x.index)).toEqual([...good].sort((a, b) => a - b))
  })
})

describe('extremum questions and answers name the basis', () => {
  const facts = swingFacts()
  it.each([
    { which: 'fastest' as const, basis: 'average' as const, says: [/averag|mean/i, /\b8\b/], phrasings: 3 },
    { which: 'slowest' as const, basis: 'average' as const, says: [/averag|mean/i, /\b8\b/], phrasings: 3 },
    { which: 'fastest' as const, basis: 'beat' as const, says: [/shortest RR interval|beat-to-beat/], phrasings: 2 },
    { which: 'slowest' as const, basis: 'beat' as const, says: [/longest RR interval|beat-to-beat/], phrasings: 2 },
  ])('$which, $basis: every phrasing', ({ which, basis, says, phrasings }) => {
    const x = hrExtreme(facts, which, basis, 3)!
    const seen = new Set<string>()
    for (const s of SEEDS) {
      const q = rateQuestion(x, facts.avgBeats, r(s))
      expect(q).toContain(which)
      for (const re of says) expect(q).toMatch(re)
      if (basis === 'beat') expect(q).not.toMatch(/averag|mean|\b8\b/i)
      seen.add(q)
      const d = openHrExtremumTiming(facts, x, r(s))
      for (const re of says) expect(d.question).toMatch(re)
      expect(d.options).toBeUndefined()
      expect(d.answer).toContain(`${x.timeMs} ms`)
      expect(d.answer).toContain(`about ${Math.round(x.bpm)} bpm`)
      expect(d.answer).toContain(basis === 'average' ? `${which} 8-interval average rate` : `${which === 'fastest' ? 'shortest' : 'longest'} RR interval`)
      expect(d.gold).toEqual({ value: x.timeMs, extremum: which, basis, bpm: x.bpm, evidenceBeats: extremeBeats(facts, x) })
    }
    expect(seen.size).toBe(phrasings)
  })
})
