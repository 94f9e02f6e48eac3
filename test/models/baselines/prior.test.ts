// The prior baseline: learns the majority letter of a skewed train set, the yes/no split, the
// median open count and where extreme rates fall in an excerpt, from train items only; fixed
// defaults without train.
import { describe, expect, it } from 'vitest'
import { createPriorBaseline, DEFAULT_COUNT } from '../../../src/models/baselines/prior.ts'
import { median, parseCountAnswer, parseTimestampAnswer } from '../../../src/qa/option-numbers.ts'
import { contextOf, generateItems, letterOf } from './qa-items.ts'

const train = generateItems('pt', 20, 'train').items
const test = generateItems('pe', 20, 'test').items
const ctx = (q: (typeof test)[number]) => contextOf(null, q)
const of = (items: typeof test, task: string) => items.filter((q) => q.taskType === task)

describe('prior baseline', () => {
  it('learns the majority letter of a skewed train set per task and option count', () => {
    // Counting items answered C, with a few others: C is the majority.
    const counting = of(train, 'closed_event_counting')
    const skewed = counting.filter((q, i) => q.gold.correct === 2 || i % 5 === 0)
    expect(skewed.filter((q) => q.gold.correct === 2).length).toBeGreaterThan(skewed.length / 2)
    const prior = createPriorBaseline(skewed)
    for (const q of of(test, 'closed_event_counting')) expect(letterOf(prior.answer(q, ctx(q)))).toBe(2)
    // No train for timing items: A.
    for (const q of of(test, 'closed_event_timing')) expect(prior.answer(q, ctx(q))).toBe(`A. ${q.gold.choices![0]}`)
  })

  it('learns the yes/no split of free-text presence and evidence answers', () => {
    const noOnly = train.filter((q) => (q.taskType === 'closed_presence' && !q.gold.choices) || q.taskType === 'open_evidence_reasoning').filter((q) => q.gold.value === 'no')
    const prior = createPriorBaseline(noOnly)
    for (const q of test.filter((x) => (x.taskType === 'closed_presence' && !x.gold.choices) || x.taskType === 'open_evidence_reasoning')) expect(prior.answer(q, ctx(q))).toMatch(/^No\b/)
  })

  it('answers the median train count and the median offset of the extreme rate', () => {
    const prior = createPriorBaseline(train)
    const count = Math.round(median(of(train, 'open_event_counting').map((q) => q.gold.value as number)))
    for (const q of of(test, 'open_event_counting')) expect(parseCountAnswer(prior.answer(q, ctx(q)))).toBe(count)
    for (const which of ['fastest', 'slowest']) {
      const offsets = train.filter((q) => q.taskType.endsWith('HR_extremum_timing') && q.gold.extremum === which).map((q) => (q.gold.value as number) - q.excerpt.startMs)
      for (const q of of(test, 'open_HR_extremum_timing').filter((x) => x.gold.extremum === which)) {
        expect(parseTimestampAnswer(prior.answer(q, ctx(q)))! - q.excerpt.startMs).toBe(Math.round(median(offsets)))
      }
    }
  })

  it('writes a typical report and open timing lists inside the excerpt', () => {
    const prior = createPriorBaseline(train)
    for (const q of test.filter((x) => x.taskType.startsWith('report_'))) expect(prior.answer(q, ctx(q))).toMatch(/beats/)
    for (const q of of(test, 'open_event_timing')) {
      const times = prior.answer(q, ctx(q)).match(/\d{4,}/g)!.map(Number)
      expect(times.every((t) => t >= q.excerpt.startMs && t <= q.excerpt.endMs)).toBe(true)
    }
  })

  it('answers fixed defaults without train: A, yes, the default count, the middle of the excerpt', () => {
    const prior = createPriorBaseline([])
    for (const q of test.slice(0, 1500)) {
      const a = prior.answer(q, ctx(q))
      if (q.gold.choices) expect(letterOf(a)).toBe(0)
      else if (q.taskType === 'closed_presence') expect(a).toMatch(/^Yes\b/)
      else if (q.taskType === 'open_event_counting') expect(parseCountAnswer(a)).toBe(DEFAULT_COUNT)
      else if (q.taskType === 'open_HR_extremum_timing') expect(parseTimestampAnswer(a)).toBe(Math.round((q.excerpt.startMs + q.excerpt.endMs) / 2))
    }
  })
})
