// The audit's report (src/audit/report.ts) and its text (render.ts): where the priors come from
// (--train, whose split is left out; else cross-split; else none), chance, and the flag rule
// (more than LEAK_POINTS over chance on MIN_ITEMS items, and a p-value below ALPHA over the
// rows reported), on hand-made items whose rows follow by counting.
import { describe, expect, it } from 'vitest'
import type { HoltercareItem } from '../../src/holtercare/format.ts'
import type { Answerer } from '../../src/audit/answerers.ts'
import { ALPHA, LEAK_POINTS, MIN_ITEMS, answererRowOver, auditItems, type AuditReport } from '../../src/audit/report.ts'
import { renderAudit } from '../../src/audit/render.ts'
import { closed, inSplit, item } from './items.ts'

const row = (r: AuditReport, task: string, answerer: string) => r.closed.find((t) => t.task === task)?.answerers.find((a) => a.answerer === answerer)
const names = (r: AuditReport) => r.closed.flatMap((t) => t.answerers.map((a) => a.answerer))
// `n` diagnosis items of one case each whose options are `texts` and whose answer is option `gold(i)`.
const diagnoses = (prefix: string, n: number, texts: string[], gold: (i: number) => number): HoltercareItem[] =>
  Array.from({ length: n }, (_, i) => item('closed_diagnosis', `Which finding? ${texts.map((t, k) => `${'ABCD'[k]}. ${t}`).join('; ')}`, `${'ABCD'[gold(i)]}. ${texts[gold(i)]}`, `${prefix}${i}`))
const X = ['Atrial Flutter', 'Sinus Pause', 'Junctional Rhythm', 'Asystole']
const Y = ['Paced Rhythm', 'Pre-excitation', 'Atrial Fibrillation', 'Ventricular Flutter']

describe('where the priors come from', () => {
  it('--train: its split is left out of the audit', () => {
    const train = diagnoses('T', 30, X, () => 3)
    const r = auditItems([...inSplit('train', diagnoses('T', 30, X, () => 3)), ...inSplit('test', diagnoses('S', 20, X, () => 3))], train)
    expect(r).toMatchObject({ splits: ['test'], priors: 'train', priorItems: 30, leftOut: ['train'] })
    expect(r.closed.map((t) => [t.task, t.items])).toEqual([['closed_diagnosis', 20]])
    expect(row(r, 'closed_diagnosis', 'train frequent value')).toMatchObject({ items: 20, correct: 20 })
  })
  it('two splits, no --train: each split is audited with priors from the other only', () => {
    // Asystole is always right in split a and never occurs in b: priors from b know no option of
    // a, so 'train frequent value' falls back to A (never right); the letter D carries over.
    const r = auditItems([...inSplit('a', diagnoses('A', 40, X, () => 3)), ...inSplit('b', diagnoses('B', 60, Y, () => 3))])
    expect(r).toMatchObject({ splits: ['a', 'b'], priors: 'cross-split', priorItems: 100, leftOut: [] })
    expect(row(r, 'closed_diagnosis', 'train frequent value')).toMatchObject({ items: 100, correct: 0 })
    expect(row(r, 'closed_diagnosis', 'train letter')).toMatchObject({ items: 100, correct: 100 })
    expect(row(r, 'closed_diagnosis', 'train rare distractor')).toBeUndefined()
  })
  it('one split, no --train: no priors, no answerer that learns', () => {
    const r = auditItems(inSplit('dev', [...diagnoses('A', 10, X, () => 3), item('closed_presence', 'Is it there?', 'Yes, it is.')]))
    expect(r).toMatchObject({ splits: ['dev'], priors: 'none', priorItems: 0, leftOut: [] })
    expect(names(r).filter((n) => n.startsWith('train ') || n === 'learned join')).toEqual([])
    expect(row(r, 'closed_presence', 'always yes')).toMatchObject({ items: 1, correct: 1 })
  })
})

describe('chance', () => {
  const first: Answerer = { name: 'A', describe: 'always A', pick: (q) => (q.options ? 0 : null) }
  it('is the mean of 1/options over the items answered, 1/2 for free-text yes/no', () => {
    expect(answererRowOver(first, [closed('Q', ['1', '2', '3', '4'], 0), closed('Q', ['1', '2'], 1)]).chance).toBeCloseTo((1 / 4 + 1 / 2) / 2)
    const r = auditItems([item('closed_presence', 'P?', 'Yes.'), item('closed_presence', 'P? A. Yes; B. No', 'A. Yes'), item('closed_presence', 'P? A. No; B. Yes; C. Maybe', 'A. No')].map((i) => ({ item: i })))
    expect(r.closed[0]).toMatchObject({ task: 'closed_presence', items: 3, unparsed: 0, chance: (1 / 2 + 1 / 2 + 1 / 3) / 3 })
  })
})

describe('the flag rule', () => {
  it('needs more than 3 points over chance on 100 items, at a family-wise 0.05', () => expect([LEAK_POINTS, MIN_ITEMS, ALPHA]).toEqual([3, 100, 0.05]))
  const first: Answerer = { name: 'first letter', describe: 'A', pick: (q) => (q.options ? 0 : null) }
  // `n` four-option items of which the first `right` have A as the answer.
  const batch = (n: number, right: number) => Array.from({ length: n }, (_, i) => closed('Q', ['1', '2', '3', '4'], i < right ? 0 : 1))
  const flags = (n: number, right: number, rows = 1) => {
    const r = answererRowOver(first, batch(n, right), rows)
    return { margin: Number(r.marginPoints.toFixed(1)), leak: r.leak, withinNoise: r.withinNoise, fewItems: r.fewItems }
  }
  it('p-value: one-sided, normal approximation (29 of 100 at 1/4: z = 4 / sqrt(18.75) = 0.924, p = 0.178)', () => {
    expect(answererRowOver(first, batch(100, 29)).pValue).toBeCloseTo(0.178, 3)
  })
  const cases: [string, number, number, number, ReturnType<typeof flags>][] = [
    ['+4 points on 100 items is within noise', 100, 29, 1, { margin: 4, leak: false, withinNoise: true, fewItems: false }],
    ['+3.1 points on 1000 items: p = 0.012, a leak alone', 1000, 281, 1, { margin: 3.1, leak: true, withinNoise: false, fewItems: false }],
    ['the same among 10 rows (level 0.005) is within noise', 1000, 281, 10, { margin: 3.1, leak: false, withinNoise: true, fewItems: false }],
    ['+50 points on 200 items among 100 rows is a leak', 200, 150, 100, { margin: 50, leak: true, withinNoise: false, fewItems: false }],
    ['+35 points on 99 items: few items', 99, 60, 1, { margin: 35.6, leak: false, withinNoise: false, fewItems: true }],
    ['+2 points on 1000 items: nothing', 1000, 270, 1, { margin: 2, leak: false, withinNoise: false, fewItems: false }],
    ['below chance: nothing', 200, 10, 1, { margin: -20, leak: false, withinNoise: false, fewItems: false }],
  ]
  it.each(cases)('%s', (_, n, right, rows, want) => expect(flags(n, right, rows)).toEqual(want))

  it('the level divides ALPHA by the rows reported, not by answerers that never applied', () => {
    // Options of equal length: longest, shortest and first letter all pick A (285 of 1000 right,
    // p = 0.0053), last letter D; those 4 rows are all that apply, so the level is 0.05 / 4.
    const r = auditItems(diagnoses('C', 1000, ['alpha', 'bravo', 'gamma', 'delta'], (i) => (i < 285 ? 0 : 1 + (i % 3))).map((i) => ({ item: i })))
    expect(r.closed[0].answerers.map((a) => [a.answerer, a.leak])).toEqual([['longest text', true], ['shortest text', true], ['first letter', true], ['last letter', false]])
  })
})

describe('renderAudit', () => {
  const counting = (n: number, right: number) => Array.from({ length: n }, (_, i) => item('closed_event_counting', 'How many? A. 1; B. 2; C. 3; D. 4', i < right ? 'A. 1' : 'B. 2', `C${i}`))
  it('a line for the priors, a table per task with p and the flags', () => {
    const text = renderAudit(auditItems(inSplit('dev', counting(120, 100)))).join('\n')
    expect(text).toContain('audit of dev; no priors: one split and no --train, so the answerers that learn are skipped')
    expect(text).toContain('closed_event_counting: 120 items, chance 25.0%')
    expect(text).toMatch(/\n {2}first letter +120 +83\.3% +25\.0% +\+58\.3 +<0\.0001 +LEAK\n/)
    expect(text).toMatch(/\n {2}last letter +120 +0\.0% +25\.0% +-25\.0 +1\.0000\n/)
  })
  it('names --train and what was left out, or the cross-split folds', () => {
    const train = renderAudit(auditItems([...inSplit('train', counting(5, 5)), ...inSplit('test', counting(5, 5))], counting(5, 5)))[0]
    expect(train).toBe('audit of test; priors from --train (5 items); left out of the audit: train (the priors\' split)')
    const cross = renderAudit(auditItems([...inSplit('a', counting(5, 5)), ...inSplit('b', counting(7, 7))]))[0]
    expect(cross).toBe('audit of a, b; priors cross-split: each split is audited with priors learned from the others (12 items in all)')
  })
})
