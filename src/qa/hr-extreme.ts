// The fastest or slowest heart rate of an excerpt, on one of two bases, and which other moments a
// closed item may offer beside it:
//   average  the rate averaged over `avgBeats` consecutive RR intervals (summarize's, so the
//            extremes asked are the ones a report states), timed at the beat ending the window;
//   beat     the instantaneous rate of one RR interval (the shortest RR is the fastest beat,
//            the longest the slowest), timed at the beat ending it, as the public release asks.
// Rates are compared in whole samples, so two windows of exactly the same length tie, and an
// excerpt whose extreme ties is not asked. Decoys are moments clearly (the margin) slower or
// faster that share no beat with the truth; an open item is asked only where every such moment
// is that clear of the extreme (`clear`), else two moments tie within what a reader can measure.
import type { ExcerptFacts } from './excerpt-facts.ts'

export type Extremum = 'fastest' | 'slowest'
export type RateBasis = 'average' | 'beat'

export interface HrExtreme {
  which: Extremum
  basis: RateBasis
  /** Index of the beat ending the extreme window or interval. */
  index: number
  bpm: number
  timeMs: number
  /** Beats ending windows (intervals) clearly slower (faster) and sharing no beat with it, in time order. */
  others: number[]
  /** Every beat ending a window (interval), in time order. */
  moments: number[]
  /** Every window (interval) sharing no beat with it is at least the margin away. */
  clear: boolean
}

// The rate at each beat on a basis (NaN where none ends there) and how many intervals it spans.
function rates(facts: ExcerptFacts, basis: RateBasis): { bpm: Float64Array; span: number } {
  if (basis === 'average') return { bpm: facts.hrAvg, span: facts.avgBeats }
  const bpm = new Float64Array(facts.beats.length).fill(NaN)
  for (let i = 1; i < facts.beats.length; i++) {
    const rr = facts.beats[i].sample - facts.beats[i - 1].sample
    if (!facts.beats[i].afterBreak && rr > 0) bpm[i] = (60 * facts.fs) / rr
  }
  return { bpm, span: 1 }
}

/** The extreme rate on `basis`, or null when the excerpt has none or its extreme ties. */
export function hrExtreme(facts: ExcerptFacts, which: Extremum, basis: RateBasis, marginBpm: number): HrExtreme | null {
  const { bpm: hr, span } = rates(facts, basis)
  const sign = which === 'fastest' ? 1 : -1
  let best = -1
  for (let i = 0; i < hr.length; i++) if (Number.isFinite(hr[i]) && (best < 0 || sign * hr[i] > sign * hr[best])) best = i
  if (best < 0) return null
  const others: number[] = []
  const moments: number[] = []
  let clear = true
  for (let i = 0; i < hr.length; i++) {
    if (Number.isFinite(hr[i])) moments.push(i)
    if (!Number.isFinite(hr[i]) || i === best) continue
    if (hr[i] === hr[best]) return null
    if (Math.abs(i - best) <= span) continue
    if (sign * (hr[best] - hr[i]) < marginBpm) clear = false
    else others.push(i)
  }
  return { which, basis, index: best, bpm: Math.round(hr[best] * 10) / 10, timeMs: Math.round(facts.beats[best].timeMs), others, moments, clear }
}

/** The beats the extreme rests on: its window (or interval). */
export function extremeBeats(facts: ExcerptFacts, x: HrExtreme): number[] {
  const span = x.basis === 'average' ? (facts.avgBeats) : 1
  return facts.beats.slice(Math.max(0, x.index - span), x.index + 1).map((b) => b.sample)
}

/** Beats a closed item's options must keep between them: more than a window, so no two share a beat. */
export function extremeApart(facts: ExcerptFacts, x: HrExtreme): number {
  return x.basis === 'average' ? (facts.avgBeats) + 2 : 2
}
