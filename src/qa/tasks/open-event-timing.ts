// open_event_timing: how many times does the event occur, and when (ms from the recording's
// start)? Asked in pair blocks (excerpt-roles.ts), so the answer may be none; gold: the count and
// the onset times (beat events: each beat's time). Sustained rates are not asked: their onset is
// not something a reader can place to the millisecond.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import type { CountWords } from '../count-words.ts'
import { count } from './open-event-counting.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask, TEXT_METRICS } from './task-module.ts'
import { timingText } from '../answer-text.ts'
import { isRateEvent } from '../count-words.ts'

const ASK = [
  (w: CountWords) => `How many ${w.plural} are there in this excerpt (${w.rule}), and at which times (ms from the start of the recording)? Say none if there are none.`,
  (w: CountWords) => `List the ${w.plural} of the segment shown with the time of each in milliseconds, in order (${w.rule}); answer none if there are none.`,
  (w: CountWords) => `Give the number of ${w.plural} in this excerpt and when each one happens (ms), or say there are none; ${w.rule}.`,
]
const SAY = [
  (n: number, w: CountWords, t: string) => `${cap(count(n, w))}, at ${t} ms.`,
  (n: number, w: CountWords, t: string) => `The excerpt has ${count(n, w)}; the times are ${t} ms.`,
  (n: number, w: CountWords, t: string) => `I find ${count(n, w)}, at ${t} ms.`,
]
const NONE = [(w: CountWords) => `There are no ${w.plural} in this excerpt.`, (w: CountWords) => `None: the segment shows no ${w.plural}.`]

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1)
}

/** An open timing item (none where the event is absent). */
export function openEventTiming(facts: ExcerptFacts, event: string, words: CountWords, rng: SeededRandom): QaDraft {
  const found = eventIn(facts, event)
  const times = found?.occurrences.map((o) => o.timeMs) ?? []
  return {
    task: 'open_event_timing',
    question: pick(ASK, rng)(words),
    answer: times.length ? pick(SAY, rng)(times.length, words, times.join(', ')) : pick(NONE, rng)(words),
    gold: { value: times.length, timestampsMs: times, event, evidenceBeats: found ? found.occurrences.flatMap((o) => o.beats) : [] },
  }
}

export const task = defineTask({
  type: 'open_event_timing',
  tier: 'Open-QA',
  kind: 'timestamps',
  metrics: ['timestampF1', ...TEXT_METRICS],
  ask: {
    block: 'pair',
    // Beat-precise times only: a sustained rate or a rhythm has no onset a reader can point to, and a list stays short.
    canAsk: (facts, a) => !isRateEvent(a.event, a.vocabulary) && eventIn(facts, a.event)?.kind !== 'rhythm' && (eventIn(facts, a.event)?.occurrences.length ?? 0) <= a.maxList,
    make: (facts, a) => openEventTiming(facts, a.event, a.words, a.rng),
  },
  answer: (a, q) => { const t = a.times(q); return t === null ? null : timingText(t, q.event) },
})
