import { describe, expect, it } from 'vitest'
import { collectScores } from '../../src/report/collect-scores.ts'
import { publicScoreQa, PUBLIC_EVENT_NAMES } from '../../src/report/public-gold.ts'
import type { HoltercareItem, TaskType } from '../../src/holtercare/format.ts'

const el = (task_type: TaskType, question: string, answer: string): HoltercareItem => ({ id: 'A107', task_type, qa_pair: { question, answer }, tag: 'valid' })

describe('publicScoreQa: the gold of a public element, read from its answer', () => {
  const cases: [string, HoltercareItem, unknown][] = [
    ['closed with options: the letter', el('closed_event_counting', 'How many PACs? A. 2; B. 0; C. 3; D. 1', 'D. 1'), { choices: ['2', '0', '3', '1'], correct: 3 }],
    ['closed presence in free text', el('closed_presence', 'Is AF evident?', 'No, no clear evidence of Atrial Fibrillation is present in this segment.'), { value: 'no' }],
    ['open counting', el('open_event_counting', 'How many?', 'There are 2 occurrences of Junctional Escape Rhythm identified in this tracing.'), { value: 2 }],
    ['open HR extremum', el('open_HR_extremum_timing', 'When?', 'The exact timestamp for the fastest heart rate is 67391005 milliseconds.'), { value: 67391005 }],
    ['open event timing', el('open_event_timing', 'When?', 'A total of 2 episodes of Junctional Escape Rhythm are detected. The specific timestamps are: 67347122, 67374005 ms.'), { value: 2, timestampsMs: [67347122, 67374005] }],
    ['open diagnosis', el('open_diagnosis', 'Which?', 'The arrhythmias present in this ECG strip are Premature Ventricular Contraction and Premature Atrial Contraction.'), { labels: ['Premature Atrial Contraction', 'Premature Ventricular Contraction'] }],
    ['open evidence', el('open_evidence_reasoning', 'Is sinus rhythm present, and why?', 'Yes, sinus rhythm is present. Rhythm clues: regular.'), { value: 'yes' }],
    ['report', el('report_general_summary', 'Summarise.', 'Recording duration 22 hours.'), {}],
  ]
  it.each(cases)('%s', (_, e, gold) => {
    const q = publicScoreQa(e, 'valid/x/0')
    expect(q).toMatchObject({ id: 'valid/x/0', caseId: 'A107', taskType: e.task_type, answer: e.qa_pair.answer })
    expect(q.gold).toEqual(gold)
  })

  it('gives no gold, with why, for an answer that does not parse', () => {
    const q = publicScoreQa(el('closed_diagnosis', 'Which? A. Asystole; B. Sinus Pause', 'E. Something'), 'id')
    expect(q.gold).toBeNull()
    expect(q.goldProblem).toMatch(/option letter among 2 options/)
  })

  it('knows the 22 public event names', () => {
    expect(PUBLIC_EVENT_NAMES).toHaveLength(22)
  })
})

describe('collectScores', () => {
  const qa = new Map([1, 2, 3].map((n) => [`q${n}`, publicScoreQa(el('closed_presence', 'Is AF evident?', 'Yes.'), `q${n}`)]))

  it('scores each prediction once, marks unanswered items missing per system and reports duplicates and unknown items', async () => {
    const c = await collectScores([
      { source: 'run1', chunks: [{ qa, predictions: [{ qaId: 'q1', model: 'm', modality: 'text', answer: 'Yes' }, { qaId: 'q9', model: 'm', modality: 'text', answer: 'No' }] }] },
      { source: 'run2', chunks: [{ qa, predictions: [{ qaId: 'q1', model: 'm', modality: 'text', answer: 'No' }, { qaId: 'q2', model: 'm', modality: 'text', answer: 'No' }] }] },
    ], { vocabulary: [] })
    expect(c.sums.groups.get('m\u0000text\u0000closed_presence')!.status).toMatchObject({ scored: 2, missing: 1 })
    expect([...c.sums.closed.get('m\u0000text')!]).toEqual([['q1', { task: 'closed_presence', correct: true }], ['q2', { task: 'closed_presence', correct: false }]])
    expect(c.systemSources.get('m\u0000text')).toEqual(['run1', 'run2'])
    expect(c.problems.map((p) => [p.kind, p.count])).toEqual([['no-prediction', 1], ['unknown-item', 1], ['duplicate-prediction', 1]])
  })
})
