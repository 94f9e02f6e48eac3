// open_event_timing: how many times does the event occur, and when (ms from the recording's
// start)? Gold: the count and the list of onset times (beat events: each beat's time).
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { inText } from '../vocabulary.ts'
import { pick, plural } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

const ASK = [
  (e: string) => `${e[0].toUpperCase()}${e.slice(1)} is present in this excerpt. How many times does it occur, and at which times (ms from the start of the recording)?`,
  (e: string) => `Give the number of occurrences of ${e} in this excerpt and the time of each in milliseconds, in order.`,
  (e: string) => `Count every ${e} in the segment shown and list when each one happens (ms).`,
]
const SAY = [
  (n: string, e: string, t: string) => `${n} of ${e}, at ${t} ms.`,
  (n: string, e: string, t: string) => `The excerpt has ${n} of ${e}; the times are ${t} ms.`,
  (n: string, e: string, t: string) => `I find ${n} of ${e}, occurring at ${t} ms.`,
]

/** An open timing item about a present event. */
export function openEventTiming(facts: ExcerptFacts, event: string, rng: SeededRandom): QaDraft {
  const found = eventIn(facts, event)!
  const times = found.occurrences.map((o) => o.timeMs)
  const e = inText(event)
  return {
    task: 'open_event_timing',
    question: pick(ASK, rng)(e),
    answer: pick(SAY, rng)(plural(times.length, 'occurrence'), e, times.join(', ')),
    gold: { value: times.length, timestampsMs: times, event, evidenceBeats: found.occurrences.flatMap((o) => o.beats) },
  }
}
