// open_HR_extremum_timing: when is the heart rate fastest (or slowest)? Answered as a time in ms
// (scored by its error); asked only where the extreme stands out from every other moment of the
// excerpt (hr-extreme.ts: clear).
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import type { HrExtreme } from '../hr-extreme.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

const ASK = [
  (w: string) => `When is the heart rate ${w} in this excerpt? Give the time in ms from the start of the recording.`,
  (w: string) => `Report the millisecond time of the ${w} heart rate (8-beat average) in the segment shown.`,
  (w: string) => `In this excerpt, at what time (ms) does the ${w} heart rate occur?`,
]
const SAY = [
  (w: string, t: number, b: number) => `The heart rate is ${w} at ${t} ms (about ${Math.round(b)} bpm).`,
  (w: string, t: number, b: number) => `The ${w} rate, about ${Math.round(b)} bpm, is reached at ${t} ms.`,
]

/** An open extremum item. */
export function openHrExtremumTiming(facts: ExcerptFacts, x: HrExtreme, avgBeats: number, rng: SeededRandom): QaDraft {
  return {
    task: 'open_HR_extremum_timing',
    question: pick(ASK, rng)(x.which),
    answer: pick(SAY, rng)(x.which, x.timeMs, x.bpm),
    gold: { value: x.timeMs, extremum: x.which, bpm: x.bpm, evidenceBeats: facts.beats.slice(Math.max(0, x.index - avgBeats), x.index + 1).map((b) => b.sample) },
  }
}
