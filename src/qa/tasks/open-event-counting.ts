// open_event_counting: how many times does the event occur in the excerpt, answered as a number
// (scored by MAE). Asked about events present in the excerpt whose onsets all lie in it.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { inText } from '../vocabulary.ts'
import { pick, plural } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

const ASK = [
  (e: string, u: string) => `How many ${u} of ${e} occur in this excerpt? Answer with a number.`,
  (e: string, u: string) => `Give the number of ${e} ${u} you count in the segment shown.`,
  (e: string, u: string) => `In this excerpt, count the ${u} of ${e}.`,
]
const SAY = [
  (n: string, e: string) => `The excerpt contains ${n} of ${e}.`,
  (n: string, e: string) => `I count ${n} of ${e} in this segment.`,
  (n: string, e: string) => `There are ${n} of ${e} here.`,
]

/** An open counting item about a present event. */
export function openEventCounting(facts: ExcerptFacts, event: string, rng: SeededRandom): QaDraft {
  const found = eventIn(facts, event)!
  const unit = found.counts === 'beats' ? 'beat' : 'episode'
  const e = inText(event)
  return {
    task: 'open_event_counting',
    question: pick(ASK, rng)(e, `${unit}s`),
    answer: pick(SAY, rng)(plural(found.occurrences.length, unit), e),
    gold: { value: found.occurrences.length, event, evidenceBeats: found.occurrences.flatMap((o) => o.beats) },
  }
}
