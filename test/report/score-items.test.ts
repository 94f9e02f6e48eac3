import { describe, expect, it } from 'vitest'
import { missingItem, scoreItem } from '../../src/report/score-items.ts'
import type { ScorePrediction, ScoreQa } from '../../src/report/score-types.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'

const vocabulary = DEFAULT_VOCABULARY.map((e) => e.name)
const opts = { vocabulary }

function qa(taskType: string, question: string, gold: ScoreQa['gold'], answer = 'reference answer'): ScoreQa {
  return { id: `x:${taskType}`, caseId: 'c1', taskType, question, answer, gold }
}
const pred = (answer: string, extra: Partial<ScorePrediction> = {}): ScorePrediction => ({ qaId: 'x', model: 'm', modality: 'text', answer, ...extra })

const TIMING = 'Which list gives the times? A. 1000, 2000; B. 1500, 2500; C. 1200; D. 3000'
const DX = 'Which diagnosis best fits? A. Premature Atrial Contraction; B. Atrial Fibrillation; C. Asystole'
const DX_ABSENT = 'The patient is 60. Which of these is absent from the excerpt? A. Premature Atrial Contraction; B. Atrial Fibrillation; C. Asystole'

describe('scoreItem, per task type', () => {
  const cases: [string, ScoreQa, string, Record<string, unknown>][] = [
    ['closed timing, letter right', qa('closed_event_timing', TIMING, { choices: ['1000, 2000', '1500, 2500', '1200', '3000'], correct: 1 }), 'Answer: B', { status: 'scored', correct: true, read: 'B' }],
    ['closed timing, option text right', qa('closed_event_timing', TIMING, { choices: ['1000, 2000', '1500, 2500', '1200', '3000'], correct: 1 }), '1500, 2500', { status: 'scored', correct: true }],
    ['closed timing, letter wrong', qa('closed_event_timing', TIMING, { choices: ['1000, 2000', '1500, 2500', '1200', '3000'], correct: 1 }), 'C', { status: 'scored', correct: false, read: 'C' }],
    ['closed timing, two letters: unparsed and wrong', qa('closed_event_timing', TIMING, { choices: ['1000, 2000', '1500, 2500', '1200', '3000'], correct: 1 }), 'A or C', { status: 'unparsed', correct: false }],
    ['closed diagnosis, options from the question when gold has none', qa('closed_diagnosis', DX, { correct: 1 }), 'It is atrial fibrillation.', { status: 'scored', correct: true }],
    ['closed diagnosis asking what is absent', qa('closed_diagnosis', DX_ABSENT, { correct: 2 }), 'Asystole is not present.', { status: 'scored', correct: true }],
    ['closed presence without options: yes/no', qa('closed_presence', 'Is AF present?', { value: 'no', event: 'Atrial Fibrillation' }), 'No, there is none.', { status: 'scored', correct: true, read: 'no' }],
    ['closed presence, refusal', qa('closed_presence', 'Is AF present?', { value: 'yes' }), 'I cannot determine that.', { status: 'unparsed', correct: false }],
    ['open counting', qa('open_event_counting', 'How many PVCs?', { value: 3 }), 'There are 5 PVCs.', { status: 'scored', absError: 2, read: '5' }],
    ['open counting, unparsed: no error', qa('open_event_counting', 'How many PVCs?', { value: 3 }), 'several', { status: 'unparsed', reason: 'ambiguous: no number, only a quantity word' }],
    ['open HR extremum in ms', qa('open_HR_extremum_timing', 'When is it fastest?', { value: 10_000 }), 'At 10250 ms.', { status: 'scored', absError: 250 }],
    ['open event timing within 150 ms', qa('open_event_timing', 'When?', { timestampsMs: [1000, 5000] }), '2 occurrences, at 1100, 7000 ms.', { status: 'scored', counts: { tp: 1, fp: 1, fn: 1 } }],
    ['open event timing, unparsed predicts nothing', qa('open_event_timing', 'When?', { timestampsMs: [1000, 5000] }), 'I refuse.', { status: 'unparsed', counts: { tp: 0, fp: 0, fn: 2 } }],
    ['open diagnosis, label set', qa('open_diagnosis', 'Which?', { labels: ['Premature Ventricular Contraction', 'Sinus Pause'] }), 'PVCs and atrial fibrillation; no pauses.', { status: 'scored', counts: { tp: 1, fp: 1, fn: 1 } }],
    ['open evidence reasoning, yes/no', qa('open_evidence_reasoning', 'Is there AF, and why?', { value: 'yes' }), 'Yes: irregular RR, no P waves.', { status: 'scored', correct: true }],
    ['report: text metrics only', qa('report_general_summary', 'Summarise.', {}), 'Sinus rhythm.', { status: 'scored', text: { bleu1: 0, bleu4: 0, rougeL: 0 } }],
    ['no gold: counted, not scored', qa('open_event_counting', 'How many?', null), '3', { status: 'no-gold' }],
  ]
  it.each(cases)('%s', (_, q, answer, expected) => {
    const s = scoreItem(q, pred(answer), opts)
    expect(s).toMatchObject(expected)
    // Only what the task is scored by is set.
    if (s.status === 'unparsed' || s.status === 'no-gold') expect(s.absError).toBeUndefined()
    if (q.taskType.startsWith('report_')) expect([s.correct, s.absError, s.counts]).toEqual([undefined, undefined, undefined])
  })

  it('gives text metrics to open and report items, not to closed ones', () => {
    const open = scoreItem(qa('open_event_counting', 'How many?', { value: 2 }, 'There are 2 PVCs.'), pred('There are 2 PVCs.'), opts)
    for (const v of [open.text!.bleu1, open.text!.bleu4, open.text!.rougeL]) expect(v).toBeCloseTo(100, 9)
    // BLEU-4's statistics: 5 tokens ("There are 2 PVCs ."), every n-gram matched.
    expect(open.text!.stats).toEqual({ counts: [5, 4, 3, 2], totals: [5, 4, 3, 2], sysLen: 5, refLen: 5 })
    const closed = scoreItem(qa('closed_event_timing', TIMING, { choices: ['a', 'b', 'c', 'd'], correct: 0 }), pred('A'), opts)
    expect(closed.text).toBeUndefined()
    const report = scoreItem(qa('report_statistical_overview', 'Summarise.', {}, 'Mean heart rate 72 bpm.'), pred('Mean heart rate 80 bpm.'), opts)
    expect(report.text!.rougeL).toBeCloseTo(80, 6) // 4 of 5 tokens in common
  })

  it('counts a prediction with an error as failed, with its code, never scored', () => {
    const s = scoreItem(qa('closed_presence', 'Is AF present?', { value: 'yes' }), pred('', { error: { code: 'http-500', message: 'boom' } }), opts)
    expect(s).toMatchObject({ status: 'failed', reason: 'http-500' })
    expect(s.correct).toBeUndefined()
    expect(s.text).toBeUndefined()
  })

  it('says why an answer was unparsed', () => {
    expect(scoreItem(qa('closed_event_timing', TIMING, { choices: ['1000, 2000', '1500, 2500', '1200', '3000'], correct: 0 }), pred('A or C'), opts).reason).toBe('ambiguous: letters A, C')
  })

  it('marks an item without a prediction as missing', () => {
    expect(missingItem(qa('closed_presence', 'q', { value: 'yes' }), 'm', 'text')).toMatchObject({ status: 'missing', model: 'm', modality: 'text', caseId: 'c1' })
  })
})
