// The fastest or slowest heart rate of an excerpt, as summarize reports it (the 8-beat NN average;
// its time is the beat ending the window), and which other moments are clearly slower (or
// faster): windows sharing no beat with it whose rate is at least `marginBpm` away. A closed item
// offers only those beside the truth, so the right option is clearly the extreme among them; an
// open item is fair only when every such window is that far (`clear`), else two moments tie
// within what a reader can measure.
import type { ExcerptFacts } from './excerpt-facts.ts'

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

/**
 * Decoy beats for a closed item: `rank` of them before the truth and 3 - rank after, no two of
 * them neighbours, drawn by `below`; null when the excerpt has too few.
 */
export function extremeDecoys(x: HrExtreme, rank: number, below: (n: number) => number): number[] | null {
  const pickFrom = (pool: number[], n: number): number[] | null => {
    const out: number[] = []
    let left = pool
    while (out.length < n) {
      if (left.length === 0) return null
      const i = left[below(left.length)]
      out.push(i)
      left = left.filter((j) => Math.abs(j - i) > 1)
    }
    return out
  }
  const before = pickFrom(x.others.filter((i) => i < x.index), rank)
  const after = pickFrom(x.others.filter((i) => i > x.index), 3 - rank)
  return before && after ? [...before, ...after].sort((a, b) => a - b) : null
}
