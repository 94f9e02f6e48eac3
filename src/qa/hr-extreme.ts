// The fastest or slowest heart rate of an excerpt, as summarize reports it (the 8-beat NN average;
// its time is the beat ending the window), and which other moments a closed item may offer beside
// it: windows sharing no beat with it whose rate is at least `marginBpm` away. Every two options
// are kept more than avgBeats + 2 beats apart (decoy-beats.ts): the moments near the extreme
// rate are near it in time, so with decoys allowed close to one another the truth would be the
// option with the widest gaps around it (the option before the widest step between options was
// the truth 40 % of the time in a synthetic audit). An open item is fair only when every window
// sharing no beat with the extreme is that far (`clear`), else two moments tie within what a
// reader can measure.
import type { ExcerptFacts } from './excerpt-facts.ts'
import { decoysAround } from './decoy-beats.ts'

export interface HrExtreme {
  which: 'fastest' | 'slowest'
  /** Index of the beat ending the extreme window. */
  index: number
  bpm: number
  timeMs: number
  /** Beats ending windows that share no beat with it and are at least the margin away from it (decoy times), in time order. */
  others: number[]
  /** Every window sharing no beat with it is at least the margin away. */
  clear: boolean
}

/** The extreme of the averaged rate, or null when the excerpt has none. */
export function hrExtreme(facts: ExcerptFacts, which: 'fastest' | 'slowest', avgBeats: number, marginBpm: number): HrExtreme | null {
  const hr = facts.hrAvg
  const sign = which === 'fastest' ? 1 : -1
  let best = -1
  for (let i = 0; i < hr.length; i++) if (Number.isFinite(hr[i]) && (best < 0 || sign * hr[i] > sign * hr[best])) best = i
  if (best < 0) return null
  const others: number[] = []
  let clear = true
  for (let i = 0; i < hr.length; i++) {
    if (!Number.isFinite(hr[i]) || Math.abs(i - best) <= avgBeats) continue
    if (sign * (hr[best] - hr[i]) < marginBpm) clear = false
    else others.push(i)
  }
  return { which, index: best, bpm: Math.round(hr[best] * 10) / 10, timeMs: Math.round(facts.beats[best].timeMs), others, clear }
}

/** Decoy beats for a closed item: beats clearly slower (faster) than the extreme, at `rank`, every two options more than avgBeats + 2 beats apart (decoy-beats.ts). */
export function extremeDecoys(x: HrExtreme, rank: number, avgBeats: number, below: (n: number) => number): number[] | null {
  return decoysAround(x.index, x.others, rank, below, avgBeats + 2)
}
