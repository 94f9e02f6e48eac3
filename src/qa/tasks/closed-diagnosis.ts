// closed_diagnosis: which one of these findings does the excerpt show, or which one does it not
// show? In the first form exactly one option is true of the excerpt; in the second exactly one is
// false. The options are the findings of 3-4 excerpts of the record, grouped so each excerpt has
// its own answer (option-groups.ts), in an order the group shares: every option is right as often
// as it is offered, whatever a blind answerer prefers.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { formatOptions } from '../../holtercare/options.ts'
import { diagnosisLabels } from '../diagnosis-labels.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask } from './task-module.ts'
import { asksAbsent, diagnosisOption } from './option-pick.ts'
import { diagnosisText } from '../answer-text.ts'
import { mentionedLabels } from '../named-findings.ts'

export type DiagnosisForm = 'present' | 'absent'

const ASK: Record<DiagnosisForm, string[]> = {
  present: [
    'Which one of the following findings does this excerpt show?',
    'Exactly one of these findings fits the segment shown. Which is it?',
    'Which of the listed findings is present in this ECG excerpt?',
  ],
  absent: [
    'All but one of the following findings are present in this excerpt. Which one is absent?',
    'Which of these findings does the segment shown not contain? The others are all present.',
    'One of the listed findings is missing from this ECG excerpt; the rest are there. Which is missing?',
  ],
}

/** A diagnosis item whose options are `values` and whose truth is values[truth]. */
export function closedDiagnosis(facts: ExcerptFacts, form: DiagnosisForm, values: readonly string[], truth: number, group: string, rng: SeededRandom): QaDraft {
  const found = facts.events.find((e) => e.name === values[truth])
  return {
    task: 'closed_diagnosis',
    question: pick(ASK[form], rng),
    options: formatOptions(values),
    answer: `${'ABCD'[truth]}. ${values[truth]}`,
    gold: { value: values[truth], labels: diagnosisLabels(facts), choices: [...values], correct: truth, evidenceBeats: found ? found.occurrences.flatMap((o) => o.beats) : [], design: { distractors: 'group', group, form } },
  }
}

export const task = defineTask({
  type: 'closed_diagnosis',
  tier: 'Closed-QA',
  kind: 'choice',
  options: 'labels',
  metrics: ['accuracy'],
  ask: { block: 'diagnosis', make: (facts, a) => closedDiagnosis(facts, a.form, a.values, a.truth, a.group, a.rng) },
  pick: (a, q, options, vocab) => diagnosisOption(a.labels(q, true) ?? [], options.map((o) => mentionedLabels(o, vocab)), asksAbsent(q.stem)),
  answer: (a, q) => { const l = a.labels(q, true); return l === null ? null : diagnosisText(l) },
})
