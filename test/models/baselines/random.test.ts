// The random baseline: the same answer for a seed and item whatever the order, another seed
// answering otherwise; near chance on every closed task; answers in each task's public format,
// open values plausible (counts 0..RANDOM_MAX_COUNT, times inside the excerpt).
import { describe, expect, it } from 'vitest'
import { RANDOM_MAX_COUNT, createRandomBaseline } from '../../../src/models/baselines/random.ts'
import { parseCountAnswer, parseTimestampAnswer } from '../../../src/qa/option-numbers.ts'
import { TASKS_BY_TIER } from '../../../src/holtercare/format.ts'
import { contextOf, generateItems, letterOf } from './qa-items.ts'

const { items } = generateItems('r', 40, 'test')
const ctx = (q: (typeof items)[number]) => contextOf(null, q)
const random = createRandomBaseline(11)
const answers = new Map(items.map((q) => [q.id, random.answer(q, ctx(q))]))

describe('random baseline', () => {
  it('is deterministic per seed and item, whatever the order; another seed answers otherwise', () => {
    const again = createRandomBaseline(11)
    for (const q of [...items].reverse()) expect(again.answer(q, ctx(q))).toBe(answers.get(q.id))
    const other = createRandomBaseline('12')
    expect(items.filter((q) => other.answer(q, ctx(q)) !== answers.get(q.id)).length).toBeGreaterThan(items.length / 3)
  })

  it.each(TASKS_BY_TIER['Closed-QA'])('%s: near chance', (task) => {
    const closed = items.filter((q) => q.taskType === task)
    expect(closed.length).toBeGreaterThan(50)
    let right = 0
    let chance = 0
    for (const q of closed) {
      const a = answers.get(q.id)!
      if (q.gold.choices) {
        right += Number(letterOf(a) === q.gold.correct)
        chance += 1 / q.gold.choices.length
      } else {
        right += Number(a.slice(0, 3).replace(/[.,]/, '').toLowerCase() === q.gold.value)
        chance += 1 / 2
      }
    }
    const [acc, p] = [right / closed.length, chance / closed.length]
    expect(Math.abs(acc - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / closed.length))
  })

  it('answers in the public format with plausible values', () => {
    for (const q of items) {
      const a = answers.get(q.id)!
      const inSpan = (t: number) => t >= q.excerpt.startMs && t <= q.excerpt.endMs
      if (q.gold.choices) expect(a).toBe(`${'ABCD'[letterOf(a)]}. ${q.gold.choices[letterOf(a)]}`)
      else if (q.taskType === 'closed_presence' || q.taskType === 'open_evidence_reasoning') expect(a).toMatch(/^(Yes|No)\b/)
      else if (q.taskType === 'open_event_counting') expect(parseCountAnswer(a)).toBeLessThanOrEqual(RANDOM_MAX_COUNT)
      else if (q.taskType === 'open_HR_extremum_timing') expect(inSpan(parseTimestampAnswer(a)!)).toBe(true)
      else if (q.taskType === 'open_event_timing') expect(a.match(/\d{3,}/g)!.map(Number).every(inSpan)).toBe(true)
      else expect(a.length).toBeGreaterThan(20)
    }
  })
})
