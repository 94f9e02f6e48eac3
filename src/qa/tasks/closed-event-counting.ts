// closed_event_counting: how many times does the event occur in the excerpt? The four options
// are the true counts of the same event in four excerpts of the record (option-groups.ts), in
// ascending order, so the truth's rank is uniform and no answerer blind to the ECG beats chance;
// the question says what is counted.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import type { CountWords } from '../count-words.ts'
import { formatOptions } from '../../holtercare/options.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask } from './task-module.ts'
import { nearestOption } from './option-pick.ts'
import { countNoun, countText } from '../answer-text.ts'

const ASK = [
  (w: CountWords) => `How many ${w.plural} does this excerpt contain (${w.rule})?`,
  (w: CountWords) => `Count the ${w.plural} in this excerpt; ${w.rule}.`,
  (w: CountWords) => `What is the number of ${w.plural} in the segment shown (${w.rule})?`,
]

/** A counting item whose options are `values` (counts, ascending) and whose truth is values[truth]. */
export function closedEventCounting(facts: ExcerptFacts, event: string, words: CountWords, values: readonly string[], truth: number, group: string, rng: SeededRandom): QaDraft {
  const found = eventIn(facts, event)
  return {
    task: 'closed_event_counting',
    question: pick(ASK, rng)(words),
    options: formatOptions(values),
    answer: `${'ABCD'[truth]}. ${values[truth]}`,
    gold: { value: Number(values[truth]), event, choices: [...values], correct: truth, evidenceBeats: found ? found.occurrences.flatMap((o) => o.beats) : [], design: { distractors: 'group', group } },
  }
}

export const task = defineTask({
  type: 'closed_event_counting',
  tier: 'Closed-QA',
  kind: 'choice',
  options: 'counts',
  metrics: ['accuracy'],
  ask: { block: 'count', make: (facts, a) => closedEventCounting(facts, a.event, a.words, a.values, a.truth, a.group, a.rng) },
  pick: (a, q, options) => { const n = q.event === null ? null : a.count(q); return nearestOption(options, n === null ? null : [n]) },
  answer: (a, q, vocab) => { const n = a.count(q); return n === null ? null : countText(n, q.event, countNoun(q.event, vocab, q.stem)) },
})
