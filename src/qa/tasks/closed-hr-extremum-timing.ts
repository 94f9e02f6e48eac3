// closed_HR_extremum_timing: at which time is the heart rate fastest (or slowest)? The rate is
// the 8-beat NN average summarize uses, timed at the beat ending the window. Options: the truth
// and three beats that end other windows sharing no beat with it, each clearly slower (or
// faster: hr-extreme.ts), the truth at a uniformly drawn rank among them in time
// order, so neither the option layout nor the numbers point at it.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { formatOptions } from '../holtercare-format.ts'
import { extremeDecoys, type HrExtreme } from '../hr-extreme.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

const ASK = [
  (w: string) => `At which time (ms from the start of the recording) is the heart rate ${w} in this excerpt?`,
  (w: string) => `Averaged over 8 consecutive normal beats, when does the heart reach its ${w} rate in the segment shown?`,
  (w: string) => `Which timestamp (ms) marks the ${w} heart rate in this excerpt?`,
]

/** A closed extremum item with the truth at `rank`, or null when the excerpt has too few other windows. */
export function closedHrExtremumTiming(facts: ExcerptFacts, x: HrExtreme, rank: number, avgBeats: number, rng: SeededRandom): QaDraft | null {
  const decoys = extremeDecoys(x, rank, avgBeats, (n) => rng.below(n))
  if (!decoys) return null
  const times = [...decoys.slice(0, rank).map((i) => facts.beats[i].timeMs), x.timeMs, ...decoys.slice(rank).map((i) => facts.beats[i].timeMs)].map((t) => `${Math.round(t)} ms`)
  return {
    task: 'closed_HR_extremum_timing',
    question: pick(ASK, rng)(x.which),
    options: formatOptions(times),
    answer: `${'ABCD'[rank]}. ${times[rank]}`,
    gold: { value: x.timeMs, extremum: x.which, bpm: x.bpm, choices: times, correct: rank, evidenceBeats: facts.beats.slice(Math.max(0, x.index - avgBeats), x.index + 1).map((b) => b.sample), design: { distractors: 'shift', rank } },
  }
}
