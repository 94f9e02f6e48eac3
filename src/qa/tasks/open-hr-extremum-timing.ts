// open_HR_extremum_timing: when is the heart rate fastest (or slowest), on the basis the question
// names (rate-words.ts)? Answered as a time in ms (scored by its error); asked only where the
// extreme stands out from every other moment of the excerpt (hr-extreme.ts: clear).
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { extremeBeats, type HrExtreme } from '../hr-extreme.ts'
import { pick } from '../phrasing.ts'
import { rateQuestion, rateWords } from './rate-words.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask, TEXT_METRICS } from './task-module.ts'
import { extremeText } from '../answer-text.ts'

const SAY = [
  (w: string, t: number) => `${w[0].toUpperCase()}${w.slice(1)} ends at ${t} ms.`,
  (w: string, t: number) => `At ${t} ms: ${w} ends at that beat.`,
]

/** An open extremum item. */
export function openHrExtremumTiming(facts: ExcerptFacts, x: HrExtreme, rng: SeededRandom): QaDraft {
  return {
    task: 'open_HR_extremum_timing',
    question: rateQuestion(x, facts.avgBeats, rng),
    answer: pick(SAY, rng)(rateWords(x, facts.avgBeats), x.timeMs),
    gold: { value: x.timeMs, extremum: x.which, basis: x.basis, bpm: x.bpm, evidenceBeats: extremeBeats(facts, x) },
  }
}

export const task = defineTask({
  type: 'open_HR_extremum_timing',
  tier: 'Open-QA',
  kind: 'timestamp',
  unit: 'ms',
  metrics: ['mae', 'scoreMae', ...TEXT_METRICS],
  // Open: the answer is a time with no options to choose from, so every other moment must be clearly slower (faster).
  ask: { block: 'extremum', canAsk: (x) => x.clear, make: (facts, a) => openHrExtremumTiming(facts, a.x, a.rng) },
  answer: (a, q) => { const x = a.extreme(q); return x === null ? null : extremeText(q.extremum, x.timeMs, x.bpm) },
})
