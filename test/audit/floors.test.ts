// The open tasks' floors (src/audit/floors.ts), each worked out by hand on a few items: MAE of
// the priors' median, of the median for the finding named, of zero; the middle of the stated
// span for a time; ROUGE-L F1 of the priors' most frequent answer, overall and per finding.
import { describe, expect, it } from 'vitest'
import { openFloors } from '../../src/audit/floors.ts'
import { createNameFinder } from '../../src/audit/mentions.ts'
import { auditItems } from '../../src/audit/report.ts'
import { rougeL } from '../../src/metrics/rouge-l.ts'
import { item, span } from './items.ts'

const finder = createNameFinder()
const scores = (r: ReturnType<typeof openFloors>) => Object.fromEntries(r.floors.map((f) => [f.floor, [f.metric, f.items, Number(f.score.toFixed(4))]]))

describe('counting floors', () => {
  const count = (finding: string, answer: string, id = 'C1') => item('open_event_counting', `How many ${finding} episodes are there?`, answer, id)
  // Priors: sinus pause 1 and 3 (median 2), asystole 4, 6, 8 (median 6); all five: median 4.
  const priors = [count('Sinus Pause', 'There is 1 episode.'), count('Sinus Pause', 'There are 3 episodes.'), count('Asystole', 'There are 4 episodes.'), count('Asystole', 'There are 6 episodes.'), count('Asystole', 'There are 8 episodes.')]
  // Audited: sinus pause 2, asystole 5, atrial flutter 1 (no prior: the overall median), one unparsed.
  const audited = [count('Sinus Pause', 'There are 2 episodes.'), count('Asystole', 'There are 5 episodes.'), count('Atrial Flutter', 'There is 1 episode.'), count('Asystole', 'Nothing was seen.')]
  it('priors\' median |4-2|,|4-5|,|4-1| = 2; per finding |2-2|,|6-5|,|4-1| = 4/3; zero 2,5,1 = 8/3', () => {
    const r = openFloors('open_event_counting', audited, finder, priors)
    expect(r).toMatchObject({ task: 'open_event_counting', items: 4, parsed: 3 })
    expect(scores(r)).toEqual({ 'priors\' median': ['MAE', 3, 2], 'priors\' median for the finding named': ['MAE', 3, 1.3333], zero: ['MAE', 3, 2.6667] })
  })
  it('without priors only zero', () => {
    expect(scores(openFloors('open_event_counting', audited, finder))).toEqual({ zero: ['MAE', 3, 2.6667] })
  })
  it('auditItems gives the same rows with --train, and never learns from the audited items', () => {
    const r = auditItems(audited.map((i) => ({ split: 'test', item: { ...i, tag: 'test' } })), priors)
    expect(r.open.map((t) => [t.task, t.floors.map((f) => Number(f.score.toFixed(4)))])).toEqual([['open_event_counting', [2, 1.3333, 2.6667]]])
  })
})

describe('HR extremum floors', () => {
  const at = (question: string, ms: string, id = 'C1') => item('open_HR_extremum_timing', `${question} When is the heart rate fastest?`, `It is fastest at ${ms} ms.`, id)
  // Span middles 90000 and 30000 against 100000 and 15000; the third item states no span.
  const audited = [at(span(60000, 120000), '100,000'), at(span(0, 60000), '15000'), at('A 60-year-old male.', '70000')]
  it('middle of the stated span: |90000-100000|, |30000-15000| = 12500 on the two items with a span', () => {
    expect(scores(openFloors('open_HR_extremum_timing', audited, finder))).toEqual({ 'middle of the stated span': ['MAE', 2, 12500] })
  })
  it('with priors also their median (70000): |70000-100000|, |70000-15000|, 0 = 28333.33', () => {
    const priors = [at('', '50000'), at('', '70000'), at('', '200000')]
    expect(scores(openFloors('open_HR_extremum_timing', audited, finder, priors))).toEqual({ 'priors\' median': ['MAE', 3, 28333.3333], 'middle of the stated span': ['MAE', 2, 12500] })
  })
})

describe('text floors', () => {
  it('open_diagnosis: the priors\' most frequent answer, ROUGE-L F1 in points (100 and 2 of 4 tokens both ways: 50)', () => {
    const dx = (answer: string) => item('open_diagnosis', 'What does the excerpt show?', answer)
    const priors = [dx('Sinus Pause is seen.'), dx('Asystole is seen.'), dx('Sinus Pause is seen.')]
    const r = openFloors('open_diagnosis', [dx('Sinus Pause is seen.'), dx('Atrial Flutter is seen.')], finder, priors)
    expect(scores(r)).toEqual({ 'the priors\' most frequent answer': ['ROUGE-L F1', 2, 75] })
  })
  it('open_event_timing: overall and for the finding the question names', () => {
    const timing = (finding: string, answer: string) => item('open_event_timing', `When does the ${finding} occur?`, answer)
    const priors = [timing('Sinus Pause', 'The Sinus Pause occurs at 61000 ms.'), timing('Asystole', 'The Asystole occurs at 70000 ms.'), timing('Asystole', 'The Asystole occurs at 70000 ms.')]
    const audited = [timing('Sinus Pause', 'The Sinus Pause occurs at 65000 ms.'), timing('Atrial Flutter', 'Atrial Flutter starts at 3 s.')]
    const r = openFloors('open_event_timing', audited, finder, priors)
    // Item 1 against the most frequent answer: LCS the/occurs/at/ms = 4 of 6 and 7 tokens, F = 8/13;
    // against the pause's own answer 6 of 7 both ways, F = 6/7. Item 2 has no prior of its own.
    const second = 100 * rougeL('The Asystole occurs at 70000 ms.', 'Atrial Flutter starts at 3 s.').f
    expect(second).toBeCloseTo(100 / 6) // only "at" in common: 1 of 6 tokens both ways
    expect(scores(r)).toEqual({
      'the priors\' most frequent answer': ['ROUGE-L F1', 2, Number(((800 / 13 + second) / 2).toFixed(4))],
      'the priors\' most frequent answer for the finding named': ['ROUGE-L F1', 2, Number(((600 / 7 + second) / 2).toFixed(4))],
    })
  })
  it('no floor for a text task without priors', () => {
    expect(openFloors('report_general_summary', [item('report_general_summary', 'Summarise.', 'Sinus rhythm.')], finder).floors).toEqual([])
  })
})
