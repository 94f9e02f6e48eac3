// open_event_counting: how many times does the event occur in the excerpt, answered as a number
// (scored by MAE). Asked in pair blocks (excerpt-roles.ts), of an excerpt with the event and one
// without, so the question never says the event is there; the question says what is counted.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import type { CountWords } from '../count-words.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask, TEXT_METRICS } from './task-module.ts'
import { countNoun, countText } from '../answer-text.ts'

const ASK = [
  (w: CountWords) => `How many ${w.plural} does this excerpt contain (${w.rule})? Answer with a number, 0 if there are none.`,
  (w: CountWords) => `Count the ${w.plural} in the segment shown; ${w.rule}. Give the number (0 if none).`,
  (w: CountWords) => `What is the number of ${w.plural} in this excerpt? ${cap(w.rule)}; answer 0 when there are none.`,
]
const SAY = [
  (n: number, w: CountWords) => `The excerpt contains ${count(n, w)}.`,
  (n: number, w: CountWords) => `I count ${count(n, w)} in this segment.`,
  (n: number, w: CountWords) => `There ${n === 1 ? 'is' : 'are'} ${count(n, w)} here.`,
]
// Zero written as a number too, so every answer carries its count as digits.
const ZERO = [(w: CountWords) => `The count is 0: the excerpt contains no ${w.plural}.`, (w: CountWords) => `0. There are no ${w.plural} in this segment.`]

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1)
}

/** "no atrial fibrillation episodes", "1 episode of ...", "3 ... beats". */
export function count(n: number, w: CountWords): string {
  return n === 0 ? `no ${w.plural}` : `${n} ${n === 1 ? w.singular : w.plural}`
}

/** An open counting item (0 where the event is absent). */
export function openEventCounting(facts: ExcerptFacts, event: string, words: CountWords, rng: SeededRandom): QaDraft {
  const found = eventIn(facts, event)
  const n = found?.occurrences.length ?? 0
  return {
    task: 'open_event_counting',
    question: pick(ASK, rng)(words),
    answer: n === 0 ? pick(ZERO, rng)(words) : pick(SAY, rng)(n, words),
    gold: { value: n, event, evidenceBeats: found ? found.occurrences.flatMap((o) => o.beats) : [] },
  }
}

export const task = defineTask({
  type: 'open_event_counting',
  tier: 'Open-QA',
  kind: 'count',
  unit: 'count',
  metrics: ['mae', 'scoreMae', ...TEXT_METRICS],
  ask: { block: 'pair', make: (facts, a) => openEventCounting(facts, a.event, a.words, a.rng) },
  answer: (a, q, vocab) => { const n = a.count(q); return n === null ? null : countText(n, q.event, countNoun(q.event, vocab, q.stem)) },
})
