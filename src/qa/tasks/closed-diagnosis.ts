// closed_diagnosis: which one of these findings does the excerpt show? Exactly one option is
// true of the excerpt: the options are the findings of 2-4 excerpts of the record, grouped so
// that each excerpt has its own finding and none of the others (option-groups.ts), in an order
// the group shares; every option is right as often as it is offered.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { formatOptions } from '../holtercare-format.ts'
import { diagnosisLabels } from '../diagnosis-labels.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

const ASK = [
  'Which one of the following findings does this excerpt show?',
  'Exactly one of these diagnoses fits the segment shown. Which is it?',
  'Which of the listed findings is present in this ECG excerpt?',
]

/** A diagnosis item whose options are `values` and whose truth is values[truth]. */
export function closedDiagnosis(facts: ExcerptFacts, values: readonly string[], truth: number, group: string, rng: SeededRandom): QaDraft {
  const found = facts.events.find((e) => e.name === values[truth])
  return {
    task: 'closed_diagnosis',
    question: pick(ASK, rng),
    options: formatOptions(values),
    answer: `${'ABCD'[truth]}. ${values[truth]}`,
    gold: { value: values[truth], labels: diagnosisLabels(facts), choices: [...values], correct: truth, evidenceBeats: found ? found.occurrences.flatMap((o) => o.beats) : [], design: { distractors: 'group', group } },
  }
}
