// closed_HR_extremum_timing: at which time is the heart rate fastest (or slowest)? On one of two
// bases, each phrasing saying which (hr-extreme.ts): the rate averaged over a window of beats,
// or one beat's instantaneous rate (the shortest or longest RR interval, the public release's
// usual question). Options: the truth and three beats ending windows (intervals) clearly slower
// (faster) that share no beat with it, placed where the record's other extremes lie
// (decoy-beats.ts), weighted by how often each of those extremes keeps its own item, in time
// order, so neither the layout nor the numbers point at the truth.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { formatOptions } from '../../holtercare/options.ts'
import { extremeApart, extremeBeats, type HrExtreme } from '../hr-extreme.ts'
import { exchangeableDecoys, keepRate, type DecoyInput } from '../decoy-beats.ts'
import { spanPosition } from './closed-event-timing.ts'
import { rateQuestion } from './rate-words.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask } from './task-module.ts'
import { nearestOption } from './option-pick.ts'
import { extremeText } from '../answer-text.ts'

// Every two options keep as far apart as the truth's own stretch of moments too near its rate
// reaches (moments on both sides of it, up to the first that may be a decoy): a rule for the
// truth alone would leave it the option with the widest gap around it.
function reach(x: HrExtreme, others: ReadonlySet<number>): number {
  const at = x.moments.indexOf(x.index)
  let left = at
  while (left > 0 && !others.has(x.moments[left - 1])) left--
  let right = at
  while (right < x.moments.length - 1 && !others.has(x.moments[right + 1])) right++
  return Math.max(x.index - x.moments[left], x.moments[right] - x.index)
}

function decoyInput(facts: ExcerptFacts, x: HrExtreme, references: readonly number[], weights?: readonly number[]): DecoyInput {
  const others = new Set(x.others)
  return { truth: x.index, pool: x.moments, allowed: (i) => others.has(i), position: (i) => spanPosition(facts, i), references, weights, minApart: Math.max(extremeApart(facts, x), reach(x, others)) }
}

/** A closed extremum item with decoys at `references` (other extremes' positions, drawn by `weights`), or null when the draw puts two options too near or a decoy on a moment not clearly slower (faster). */
export function closedHrExtremumTiming(facts: ExcerptFacts, x: HrExtreme, references: readonly number[], rng: SeededRandom, weights?: readonly number[]): QaDraft | null {
  const decoys = exchangeableDecoys(decoyInput(facts, x, references, weights), (n) => rng.below(n))
  if (!decoys) return null
  const order = [...decoys, x.index].sort((a, b) => a - b)
  const rank = order.indexOf(x.index)
  const times = order.map((i) => `${i === x.index ? x.timeMs : Math.round(facts.beats[i].timeMs)} ms`)
  return {
    task: 'closed_HR_extremum_timing',
    question: rateQuestion(x, facts.avgBeats, rng),
    options: formatOptions(times),
    answer: `${'ABCD'[rank]}. ${times[rank]}`,
    gold: { value: x.timeMs, extremum: x.which, basis: x.basis, bpm: x.bpm, choices: times, correct: rank, evidenceBeats: extremeBeats(facts, x), design: { distractors: 'exchangeable', rank } },
  }
}

export const task = defineTask({
  type: 'closed_HR_extremum_timing',
  tier: 'Closed-QA',
  kind: 'choice',
  options: 'times',
  metrics: ['accuracy'],
  ask: {
    block: 'extremum',
    make: (facts, a) => closedHrExtremumTiming(facts, a.x, a.references, a.rng, a.weights),
    keepRate: (facts, a) => keepRate(decoyInput(facts, a.x, a.references), (n) => a.rng.below(n)),
  },
  pick: (a, q, options) => { const x = a.extreme(q); return nearestOption(options, x ? [x.timeMs] : null) },
  answer: (a, q) => { const x = a.extreme(q); return x === null ? null : extremeText(q.extremum, x.timeMs, x.bpm) },
})
