// rr_interval (the ECG multi-task benchmark's RR-interval estimation): the mean interval between
// consecutive beats of the excerpt in ms, from the reference beats (rhythm-class.ts), scored by
// MAE. The benchmark asks it of 10 s ECGs; the excerpt set says how long its excerpts are.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { pick } from '../phrasing.ts'
import { meanRrMs } from '../rhythm-class.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask } from './task-module.ts'

const ASK = [
  'What is the mean RR interval of this ECG, in milliseconds? Answer with a number.',
  'Estimate the average time between consecutive R peaks in this excerpt, in ms.',
  'How long is the RR interval on average in the segment shown (ms)?',
]

/** The answer sentence for a mean RR interval. */
export function rrText(ms: number): string {
  return `The mean RR interval is ${Math.round(ms)} ms.`
}

/** An RR-interval item, or null with fewer than two beats in a row. */
export function rrInterval(facts: ExcerptFacts, rng: SeededRandom): QaDraft | null {
  const rr = meanRrMs(facts)
  if (rr === null) return null
  const value = Math.round(rr)
  return { task: 'rr_interval', question: pick(ASK, rng), answer: rrText(value), gold: { value, unit: 'ms', evidenceBeats: facts.beats.map((b) => b.sample) } }
}

export const task = defineTask({
  type: 'rr_interval',
  tier: 'Multitask',
  kind: 'number',
  unit: 'ms',
  metrics: ['mae'],
  tellsPatient: false,
  ask: { block: 'every', make: (facts, a) => rrInterval(facts, a.rng) },
  answer: (a, q) => { const v = a.estimate?.(q, 'rr_interval') ?? null; return v === null ? null : rrText(v) },
})
