import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { closedText, countText, diagnosisText, extremeText, timingText, yesNoText } from '../../src/qa/answer-text.ts'
import { parseChoice, parseLabels, parseNumberAnswer, parseTimestampList, parseYesNo, type Ask } from '../../src/metrics/answer-parse.ts'
import { LETTERS } from '../../src/holtercare/format.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'

interface Case {
  parser: 'choice' | 'yesno' | 'count' | 'timestamp' | 'bpm' | 'timestamps' | 'labels'
  style: string
  form: string
  answer: string
  expect: unknown
  options?: string
  ask?: Ask
  event?: string
  vocabulary?: 'default' | 'public'
  adversarial?: boolean
  note?: string
}

const corpus = JSON.parse(readFileSync(new URL('../fixtures/answer-corpus.json', import.meta.url), 'utf8')) as {
  optionSets: Record<string, string[]>
  vocabularies: { public: string[] }
  cases: Case[]
}
const defaultNames = DEFAULT_VOCABULARY.map((e) => e.name)

/** What a parser returns, in the corpus's terms: a letter, yes/no, a number, a list, or {unparsed}. */
function run(c: Case): unknown {
  const asExpected = <T>(r: T | { unparsed: string; detail?: string }, pick: (v: T) => unknown) =>
    typeof r === 'object' && r !== null && 'unparsed' in r ? { unparsed: r.unparsed } : pick(r as T)
  switch (c.parser) {
    case 'choice':
      return asExpected(parseChoice(c.answer, corpus.optionSets[c.options!], { ask: c.ask }), (r: { index: number }) => LETTERS[r.index])
    case 'yesno':
      return asExpected(parseYesNo(c.answer, { event: c.event }), (r) => r)
    case 'count':
    case 'timestamp':
    case 'bpm':
      return asExpected(parseNumberAnswer(c.answer, { kind: c.parser }), (r: { value: number }) => r.value)
    case 'timestamps':
      return asExpected(parseTimestampList(c.answer), (r: { values: number[] }) => r.values)
    case 'labels':
      return asExpected(parseLabels(c.answer, c.vocabulary === 'public' ? corpus.vocabularies.public : defaultNames), (r: { labels: string[] }) => [...r.labels].sort())
  }
}

const expected = (c: Case) => (c.parser === 'labels' && Array.isArray(c.expect) ? [...c.expect].sort() : c.expect)

describe('answer corpus', () => {
  it('is big and varied enough to trust', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(150)
    expect(corpus.cases.filter((c) => c.adversarial).length).toBeGreaterThanOrEqual(30)
    for (const style of ['gpt-4o', 'llama', 'qwen']) expect(corpus.cases.some((c) => c.style === style)).toBe(true)
    for (const form of ['terse', 'verbose', 'markdown', 'json', 'reasoning', 'refusal']) expect(corpus.cases.some((c) => c.form === form)).toBe(true)
    for (const c of corpus.cases) if (c.options) expect(corpus.optionSets[c.options], c.options).toBeDefined()
  })

  it.each(corpus.cases.map((c, i) => [`${i} ${c.parser} ${c.adversarial ? '(adversarial) ' : ''}${JSON.stringify(c.answer).slice(0, 90)}`, c] as const))('%s', (_, c) => {
    expect(run(c)).toEqual(expected(c))
  })
})

describe('our own answer sentences parse back to what they say', () => {
  const timing = ['343511', '355792', '366253', '367725']
  it('closed answers "B. text"', () => {
    for (let i = 0; i < timing.length; i++) expect(parseChoice(closedText(timing, i), timing)).toEqual({ index: i })
    const dx = DEFAULT_VOCABULARY.slice(0, 4).map((e) => e.name)
    for (let i = 0; i < dx.length; i++) expect(parseChoice(closedText(dx, i), dx)).toEqual({ index: i })
  })

  it('yes/no, counts, times and labels', () => {
    for (const event of [null, 'Premature Atrial Contraction', 'Ventricular Bigeminy']) {
      expect(parseYesNo(yesNoText(true, event))).toBe('yes')
      expect(parseYesNo(yesNoText(false, event))).toBe('no')
    }
    for (const n of [0, 1, 2, 7, 10]) {
      expect(parseNumberAnswer(countText(n, 'Premature Ventricular Contraction', 'beat'), { kind: 'count' })).toEqual({ value: n })
      expect(parseNumberAnswer(countText(n, null, 'episode'), { kind: 'count' })).toEqual({ value: n })
    }
    for (const times of [[], [95044], [830522, 832461, 850900]]) expect(parseTimestampList(timingText(times, 'Ventricular Couplet'))).toEqual({ values: times })
    expect(parseNumberAnswer(extremeText('slowest', 65158, 65.6), { kind: 'timestamp' })).toEqual({ value: 65158 })
    expect(parseNumberAnswer(extremeText('fastest', 124100, 76.6), { kind: 'bpm' })).toEqual({ value: 77 })
    for (const labels of [[], ['Premature Atrial Contraction'], ['Premature Ventricular Contraction', 'Ventricular Couplet', 'Sinus Pause']]) {
      expect(parseLabels(diagnosisText(labels), defaultNames)).toEqual({ labels })
    }
  })
})

describe('unparsed results say why', () => {
  it('keeps a detail for the report', () => {
    expect(parseChoice('B. 366253', ['343511', '355792', '366253'])).toEqual({ unparsed: 'conflict', detail: 'letter B with the text of option C' })
    expect(parseChoice('A or C', ['x', 'y', 'z'])).toEqual({ unparsed: 'ambiguous', detail: 'letters A, C' })
    expect(parseChoice('C', [])).toMatchObject({ unparsed: 'no-answer' })
  })
})
