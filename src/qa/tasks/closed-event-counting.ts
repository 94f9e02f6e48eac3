// closed_event_counting: how many times does the event occur in the excerpt? The four options
// are the true counts of the same event in four excerpts of the record (option-groups.ts), in
// ascending order, so the truth's rank is uniform and no answerer blind to the ECG beats chance.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { formatOptions } from '../holtercare-format.ts'
import { inText } from '../vocabulary.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

const ASK = [
  (e: string, u: string) => `How many ${u} of ${e} does this excerpt contain?`,
  (e: string, u: string) => `Count the ${u} of ${e} in this excerpt.`,
  (e: string, u: string) => `What is the number of ${e} ${u} in the segment shown?`,
]

/** The unit a count is in: beats for a beat event, episodes otherwise. */
export function countUnit(counts: 'beats' | 'episodes'): string {
  return counts === 'beats' ? 'beats' : 'episodes'
}

/** A counting item whose options are `values` (counts, ascending) and whose truth is values[truth]. */
export function closedEventCounting(facts: ExcerptFacts, event: string, counts: 'beats' | 'episodes', values: readonly string[], truth: number, group: string, rng: SeededRandom): QaDraft {
  const found = eventIn(facts, event)
  return {
    task: 'closed_event_counting',
    question: pick(ASK, rng)(inText(event), countUnit(counts)),
    options: formatOptions(values),
    answer: `${'ABCD'[truth]}. ${values[truth]}`,
    gold: { value: Number(values[truth]), event, choices: [...values], correct: truth, evidenceBeats: found ? found.occurrences.flatMap((o) => o.beats) : [], design: { distractors: 'group', group } },
  }
}
