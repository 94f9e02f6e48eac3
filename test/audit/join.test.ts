// The join answerers (src/audit/join.ts) over questions gathered by excerpt
// (src/audit/questions.ts): 'named elsewhere' on a hand-made excerpt whose open counting
// question says a finding is present, and the learned join on seeded sets where a sibling's
// wording gives presence away, or says nothing about it.
import { describe, expect, it } from 'vitest'
import type { HoltercareItem } from '../../src/holtercare/format.ts'
import { NAMED_ELSEWHERE, learnedJoin } from '../../src/audit/join.ts'
import { finderFor, gatherQuestions, type AuditQuestion } from '../../src/audit/questions.ts'
import { answererRowOver } from '../../src/audit/report.ts'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import { item, span } from './items.ts'

const PATIENT = 'This recording is from a 60-year-old male.'
const gather = (items: HoltercareItem[]) => gatherQuestions(items.map((i) => ({ item: i })), finderFor(items)).questions
const about = (qs: AuditQuestion[], words: string) => qs.find((q) => q.question.includes(words))!

describe('named elsewhere', () => {
  const inSpan = (a: number, b: number, rest: string) => `${PATIENT} ${span(a, b)} ${rest}`
  const qs = gather([
    item('open_event_counting', inSpan(60000, 120000, 'Sinus Pause is present in this excerpt; how many episodes are there?'), 'There are 2 episodes.'),
    item('closed_presence', inSpan(60000, 120000, 'Does it show a sinus pause? A. Yes; B. No'), 'A. Yes'),
    item('closed_presence', inSpan(60000, 120000, 'Does it show atrial flutter? A. No; B. Yes'), 'A. No'),
    item('closed_presence', inSpan(60000, 120000, 'Is Sinus Pause seen?'), 'Yes, it is.'),
    item('closed_event_counting', inSpan(60000, 120000, 'How many Sinus Pause episodes are there? A. 0; B. 3; C. 1; D. 2'), 'D. 2'),
    // The next excerpt of the same case: nothing in it names the pause.
    item('closed_presence', inSpan(120000, 180000, 'Does it show a sinus pause? A. Yes; B. No'), 'B. No'),
    item('closed_event_counting', inSpan(120000, 180000, 'How many Sinus Pause episodes are there? A. 2; B. 0; C. 1; D. 3'), 'B. 0'),
    item('closed_diagnosis', inSpan(120000, 180000, 'Which finding is shown? A. Asystole; B. Sinus Pause; C. Atrial Flutter'), 'A. Asystole'),
  ])
  it('gathers each question with the other questions of its excerpt only, and its target', () => {
    const q = about(qs, 'Does it show a sinus pause? A. Yes')
    expect(q.siblings!.map((s) => s.task)).toEqual(['open_event_counting', 'closed_presence', 'closed_presence', 'closed_event_counting'])
    expect(q.target).toBe('sinus pause')
    expect(q.siblings![0]).toMatchObject({ names: ['sinus pause'], template: '<e> is present in this excerpt; how many episodes are there?' })
  })
  const cases: [string, number | 'yes' | 'no' | null][] = [
    ['sinus pause? A. Yes; B. No', 0],
    ['atrial flutter? A. No; B. Yes', 0],
    ['Is Sinus Pause seen?', 'yes'],
    ['How many Sinus Pause episodes are there? A. 0; B. 3; C. 1; D. 2', 2],
    ['How many Sinus Pause episodes are there? A. 2; B. 0; C. 1; D. 3', 2],
    // The other two questions of its excerpt name the pause: the option named most.
    ['Which finding is shown?', 1],
  ]
  it.each(cases)('on "%s" picks %s', (words, want) => expect(NAMED_ELSEWHERE.pick(about(qs, words))).toBe(want))
  it('in the second excerpt the counting text and the diagnosis options name the pause, so presence is read as yes, wrongly', () => {
    const q = about(qs, '180000 ms of the recording. Does it show a sinus pause?')
    expect(q.siblings!.map((s) => [s.task, s.names, s.optionNames])).toEqual([
      ['closed_event_counting', ['sinus pause'], []],
      ['closed_diagnosis', [], ['asystole', 'sinus pause', 'atrial flutter']],
    ])
    expect([NAMED_ELSEWHERE.pick(q), q.gold]).toEqual([0, 1])
  })
  it('abstains on a question gathered without siblings', () => {
    const { siblings: _, ...bare } = about(qs, 'Is Sinus Pause seen?')
    expect(NAMED_ELSEWHERE.pick(bare)).toBeNull()
  })
})

const FINDINGS = ['Sinus Pause', 'Asystole', 'Atrial Flutter', 'Ventricular Bigeminy']

// `n` excerpts of one free-text presence question and one open counting question each; the
// counting question's wording is `telling` (documented when present, "if any" when absent) or
// drawn independently of the answer.
function excerpts(seed: string, n: number, telling: boolean): HoltercareItem[] {
  const rng = createSeededRandom(seed)
  return Array.from({ length: n }, (_, i) => {
    const finding = FINDINGS[rng.below(FINDINGS.length)]
    const present = rng.below(2) === 1
    const documented = telling ? present : rng.below(2) === 1
    const count = documented ? `${finding} has been documented in this excerpt; how many episodes are there?` : `How many episodes of ${finding}, if any, are there?`
    const ask = (rest: string) => `${PATIENT} ${span(60000 * i, 60000 * i + 60000)} ${rest}`
    return [
      item('closed_presence', ask(`Does this excerpt show ${finding}?`), present ? `Yes, ${finding} is seen.` : `No, ${finding} is not seen.`, `${seed}-${i}`),
      item('open_event_counting', ask(count), present ? 'There are 2 episodes.' : 'There are no episodes.', `${seed}-${i}`),
    ]
  }).flat()
}

describe('learned join', () => {
  const accuracy = (train: HoltercareItem[], test: HoltercareItem[]) => {
    const row = answererRowOver(learnedJoin(gather(train)), gather(test).filter((q) => q.task === 'closed_presence'))
    expect(row.items).toBe(300)
    return row.accuracy
  }
  it('learns a wording that gives presence away: right on (nearly) every item of a test set made the same way', () => {
    expect(accuracy(excerpts('train', 300, true), excerpts('test', 300, true))).toBeGreaterThan(0.98)
  })
  it('stays near 50 % when the wording is independent of the answer', () => {
    expect(Math.abs(accuracy(excerpts('train', 300, false), excerpts('test', 300, false)) - 0.5)).toBeLessThan(0.1)
  })
  it('abstains without a model for the task, and on timing items', () => {
    const join = learnedJoin(gather(excerpts('train', 50, true)))
    const qs = gather([item('closed_event_timing', `${PATIENT} When? A. 1 ms; B. 2 ms; C. 3 ms`, 'A. 1 ms'), item('closed_diagnosis', `${PATIENT} Which? A. Asystole; B. Sinus Pause`, 'A. Asystole')])
    expect(qs.map((q) => join.pick(q))).toEqual([null, null])
  })
})
