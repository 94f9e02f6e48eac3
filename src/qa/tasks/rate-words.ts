// How an extremum question says which rate it asks: every phrasing names the basis (a window of
// beats averaged, or one beat's RR interval), since the two put the extreme at different beats.
// Only the one-beat phrasings say "RR interval", "beat-to-beat rate" or "instantaneous", so a
// reader (the holter-dsp baseline among them) can tell the two apart by those words.
import type { HrExtreme } from '../hr-extreme.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

const AVERAGE = [
  (w: string, n: number) => `Averaged over ${n} consecutive intervals between beats, at which time (ms from the start of the recording) is the heart rate ${w} in this excerpt? Give the beat that ends the window.`,
  (w: string, n: number) => `Taking the heart rate as its mean over a window of ${n} consecutive intervals between beats, when does the segment shown reach its ${w} rate (the time of the window's last beat, in ms)?`,
  (w: string, n: number) => `Which timestamp (ms) ends the ${n}-interval window with the ${w} average heart rate in this excerpt?`,
]
const BEAT = {
  fastest: [
    () => 'At which time (ms from the start of the recording) does the shortest RR interval of this excerpt end, the fastest instantaneous heart rate?',
    () => 'Which beat of the segment shown comes soonest after the beat before it (the fastest beat-to-beat rate)? Give its time in ms.',
  ],
  slowest: [
    () => 'At which time (ms from the start of the recording) does the longest RR interval of this excerpt end, the slowest instantaneous heart rate?',
    () => 'Which beat of the segment shown ends the longest pause between two consecutive beats (the slowest beat-to-beat rate)? Give its time in ms.',
  ],
}

/** The question of an extremum item, naming its basis. */
export function rateQuestion(x: HrExtreme, avgBeats: number, rng: SeededRandom): string {
  return x.basis === 'average' ? pick(AVERAGE, rng)(x.which, avgBeats) : pick(BEAT[x.which], rng)()
}

/** How an answer names the rate: "the fastest 8-interval average rate (about 118 bpm)" or "the shortest RR interval (about 136 bpm)". */
export function rateWords(x: HrExtreme, avgBeats: number): string {
  const bpm = Math.round(x.bpm)
  if (x.basis === 'average') return `the ${x.which} ${avgBeats}-interval average rate (about ${bpm} bpm)`
  return `the ${x.which === 'fastest' ? 'shortest' : 'longest'} RR interval (about ${bpm} bpm)`
}
