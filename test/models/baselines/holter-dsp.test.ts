// The holter-dsp baseline on items made by the generator's own code, given as detector facts the
// very facts each gold was computed from: right on every closed item, every yes/no, every open
// count, time and label set; the same answers with the item's answer and gold blanked, and
// without ever reading them (a proxy throws); reports stating the detected beat count; without
// facts, the blind baseline's answers.
import { describe, expect, it } from 'vitest'
import { createHolterDspBaseline } from '../../../src/models/baselines/holter-dsp.ts'
import { diagnosisOption } from '../../../src/qa/tasks/option-pick.ts'
import { createBlindBaseline } from '../../../src/models/baselines/blind.ts'
import { parseCountAnswer, parseTimestampAnswer } from '../../../src/qa/option-numbers.ts'
import { reportFigures } from '../../../src/qa/report-figures.ts'
import { TASKS_BY_TIER } from '../../../src/holtercare/format.ts'
import { DEFAULT_VOCABULARY } from '../../../src/qa/vocabulary.ts'
import { mentionedLabels } from '../../../src/qa/question-read.ts'
import { blanked, contextOf, generateItems, letterOf, sealed } from './qa-items.ts'

const g = generateItems('d', 30, 'test')
const dsp = createHolterDspBaseline()
const answers = new Map(g.items.map((q) => [q.id, dsp.answer(q, contextOf(g, q))]))
const of = (task: string) => g.items.filter((q) => q.taskType === task)

describe('holter-dsp with the gold source as detector facts', () => {
  it.each(TASKS_BY_TIER['Closed-QA'])('%s: right on every item with options', (task) => {
    const closed = of(task).filter((q) => q.gold.choices)
    expect(closed.length).toBeGreaterThan(20)
    const wrong = closed.filter((q) => letterOf(answers.get(q.id)!) !== q.gold.correct).map((q) => `${q.id}: ${answers.get(q.id)} vs ${q.answer}`)
    expect(wrong).toEqual([])
  })

  it('answers every presence and evidence item yes or no rightly, evidence in the gold words', () => {
    const yesNo = [...of('closed_presence').filter((q) => !q.gold.choices), ...of('open_evidence_reasoning')]
    expect(yesNo.length).toBeGreaterThan(300)
    for (const q of yesNo) expect(answers.get(q.id)!.slice(0, 3).replace(',', '').toLowerCase()).toBe(q.gold.value)
    for (const q of of('open_evidence_reasoning')) expect(answers.get(q.id)).toBe(q.answer)
  })

  it('gives every open count, time list, extreme time and label set of the gold', () => {
    for (const q of of('open_event_counting')) expect(parseCountAnswer(answers.get(q.id)!)).toBe(q.gold.value)
    for (const q of of('open_HR_extremum_timing')) expect(parseTimestampAnswer(answers.get(q.id)!)).toBe(q.gold.value)
    for (const q of of('open_event_timing')) {
      const a = answers.get(q.id)!
      expect(parseCountAnswer(a)).toBe(q.gold.value)
      // Asked of excerpts without the event too: none is an answer with no time.
      if (q.gold.timestampsMs!.length) expect(a).toContain(`${q.gold.timestampsMs!.join(', ')} ms`)
      else expect(a).not.toMatch(/\d+ ms/)
    }
    for (const q of of('open_diagnosis')) expect(mentionedLabels(answers.get(q.id)!, DEFAULT_VOCABULARY)).toEqual(q.gold.labels)
  })

  it('states the detected beat count and rates in both reports', () => {
    const reports = g.items.filter((q) => q.taskType.startsWith('report_'))
    expect(reports.length).toBeGreaterThan(100)
    for (const q of reports) {
      const f = reportFigures(g.facts.get(q.excerpt.id)!, 8)
      expect(f.totalBeats).toBe(g.facts.get(q.excerpt.id)!.beats.length)
      const a = answers.get(q.id)!
      const beats = f.totalBeats.toLocaleString('en-US')
      expect(a).toMatch(new RegExp(`(^|[ (])${beats} beats|Total beats: ${beats}\\.`))
      if (f.maxHr) expect(a).toContain(`${f.maxHr.timeMs} ms`)
      if (q.taskType === 'report_general_summary') expect(a).toMatch(/Conclusion|In summary/)
    }
  })
})

describe('holter-dsp reads only the question and the facts', () => {
  it('gives the same answers with answer and gold blanked, and never reads them', () => {
    for (const q of g.items) {
      const ctx = contextOf(g, q)
      expect(dsp.answer(blanked(q), ctx)).toBe(answers.get(q.id))
      expect(dsp.answer(sealed(q), ctx)).toBe(answers.get(q.id))
    }
  })

  it('answers as the blind baseline without facts', () => {
    const blind = createBlindBaseline()
    for (const q of g.items.slice(0, 2000)) expect(dsp.answer(sealed(q), contextOf(null, q))).toBe(blind.answer(q, contextOf(null, q)))
  })

  it('is deterministic and independent of order', () => {
    const again = createHolterDspBaseline()
    for (const q of [...g.items].reverse()) expect(again.answer(q, contextOf(g, q))).toBe(answers.get(q.id))
  })
})

describe('diagnosisOption', () => {
  it.each([
    { name: 'the one present', detected: ['A', 'B'], options: [['C'], ['B'], ['D']], absent: false, pick: 1 },
    { name: 'the best overlap of sets', detected: ['A', 'B'], options: [['A', 'C'], ['A', 'B'], ['B']], absent: false, pick: 1 },
    { name: 'ties to the earlier', detected: ['A', 'B'], options: [['C'], ['A'], ['B']], absent: false, pick: 1 },
    { name: 'the absent one when asked', detected: ['A', 'B'], options: [['A'], ['C'], ['B']], absent: true, pick: 1 },
    { name: 'options naming nothing', detected: ['A'], options: [[], []], absent: false, pick: null },
  ])('$name', ({ detected, options, absent, pick }) => {
    expect(diagnosisOption(detected, options, absent)).toBe(pick)
  })
})
