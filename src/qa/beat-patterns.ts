// Patterns of an excerpt's beat sequence (pure), as beat index ranges so every occurrence keeps
// the beats it came from: runs of one AAMI class, bigeminy / trigeminy (summarize's tracker,
// src/dsp/ectopy.ts), long RR intervals, and sustained rates over the 8-beat average of every
// beat (the series src/dsp/hr-stats.ts's tracker gives). A beat that ends a break (an artifact
// period or a gap) starts afresh, as summarize's interrupt does.
// The excerpt's first beat, and the first after a break, follow a beat nobody can see, so a
// pattern that could have begun before it has no onset in the excerpt: `*AtEdge` tell which.

import { createGeminyTracker } from '../dsp/ectopy.ts'

export interface PatternBeat {
  timeMs: number
  label: string
  /** No interval joins this beat to the one before (artifact period or gap between them). */
  afterBreak?: boolean
}

/** An occurrence: the indices of its first and last beat, and the beat it is timed at. */
export interface Span {
  first: number
  last: number
  at: number
}

/** Runs of `min`..`max` consecutive beats of class `of`. */
export function findRuns(beats: readonly PatternBeat[], of: string, min: number, max = Infinity): Span[] {
  const out: Span[] = []
  let start = -1
  const close = (end: number) => {
    const n = end - start + 1
    if (start >= 0 && n >= min && n <= max) out.push({ first: start, last: end, at: start })
    start = -1
  }
  beats.forEach((b, i) => {
    if (b.afterBreak) close(i - 1)
    if (b.label === of) {
      if (start < 0) start = i
    } else close(i - 1)
  })
  close(beats.length - 1)
  return out
}

/** Bigeminy (period 2) or trigeminy (period 3) of class `of`: at least `minCycles` cycles of (period - 1) N beats then one `of`; timed at the first N. */
export function findGeminy(beats: readonly PatternBeat[], of: 'S' | 'V', period: 2 | 3, minCycles: number): Span[] {
  // Summarize's tracker decides the episodes (a break fed as a Q, as its interrupt does); its
  // times name the beats, which are in time order.
  const tracker = createGeminyTracker(period, of, minCycles, Infinity)
  const index = new Map<number, number>()
  beats.forEach((b, i) => {
    index.set(b.timeMs, i)
    if (b.afterBreak) tracker.add('Q', b.timeMs)
    tracker.add(b.label, b.timeMs)
  })
  return tracker.finish().episodesMs.map((e) => ({ first: index.get(e.startMs)!, last: index.get(e.endMs)!, at: index.get(e.startMs)! }))
}

/** RR intervals in (aboveMs, belowMs], timed at the beat before the interval; only those `allowed` (by the index of the beat ending them) when given. */
export function findLongRr(beats: readonly PatternBeat[], aboveMs: number, belowMs = Infinity, allowed: (i: number) => boolean = () => true): Span[] {
  const out: Span[] = []
  for (let i = 1; i < beats.length; i++) {
    if (beats[i].afterBreak || !allowed(i)) continue
    const rr = beats[i].timeMs - beats[i - 1].timeMs
    if (rr > aboveMs && rr <= belowMs) out.push({ first: i - 1, last: i, at: i - 1 })
  }
  return out
}

/**
 * Episodes where the averaged rate stays above `aboveBpm` (or below `belowBpm`) over consecutive
 * beats for at least `sustainMs`, counting only beats `allowed` (sinus context); timed at the
 * first beat whose average qualifies (rateAtEdge tells an episode already running there).
 */
export function findSustainedRate(beats: readonly PatternBeat[], hr: Float64Array, o: { aboveBpm?: number; belowBpm?: number; sustainMs: number }, allowed: (i: number) => boolean): Span[] {
  const out: Span[] = []
  let start = -1
  const qualifies = (i: number) => Number.isFinite(hr[i]) && allowed(i) && (o.aboveBpm !== undefined ? hr[i] > o.aboveBpm : hr[i] < o.belowBpm!)
  const close = (end: number) => {
    if (start >= 0 && beats[end].timeMs - beats[start].timeMs >= o.sustainMs) out.push({ first: start, last: end, at: start })
    start = -1
  }
  for (let i = 0; i < beats.length; i++) {
    if (qualifies(i)) {
      if (start < 0) start = i
    } else if (start >= 0) close(i - 1)
  }
  if (start >= 0) close(beats.length - 1)
  return out
}

/** Whether a run (or any span) begins at the excerpt's first beat or the first after a break, where the beat before it is unseen. */
export function spanAtEdge(beats: readonly PatternBeat[], span: Span): boolean {
  return span.first === 0 || beats[span.first].afterBreak === true
}

/**
 * Whether a bigeminy / trigeminy episode could have begun before what is seen: the beats between
 * the excerpt's start (or a break) and its first N are fewer than a cycle and end the way a
 * cycle does (N ... N then the `of` beat), so the pattern may have been running already.
 */
export function geminyAtEdge(beats: readonly PatternBeat[], span: Span, of: 'S' | 'V', period: 2 | 3): boolean {
  // d: how many beats are seen before the first N, back to the excerpt's start or a break.
  for (let d = 0; d < period; d++) {
    const i = span.first - d
    if (d > 0 && beats[i].label !== (d === 1 ? of : 'N')) return false
    if (i === 0 || beats[i].afterBreak) return true
  }
  return false
}

/** Whether a sustained-rate episode holds from the first full window of its stretch of beats (the excerpt's start or a break), so its onset is not seen. */
export function rateAtEdge(hr: Float64Array, span: Span): boolean {
  return span.first === 0 || !Number.isFinite(hr[span.first - 1])
}

/**
 * The most extreme averaged rate the excerpt holds for `sustainMs` among `allowed` beats: for
 * `aboveBpm`, the highest rate R such that the average stays at or above R over beats at least
 * sustainMs apart (for `belowBpm`, the lowest it stays at or under); null when no such stretch of
 * averaged beats exists. findSustainedRate finds an episode exactly when this is beyond the
 * threshold, so its distance to the threshold says how clearly the answer holds.
 */
export function sustainedExtreme(beats: readonly PatternBeat[], hr: Float64Array, o: { aboveBpm?: number; belowBpm?: number; sustainMs: number }, allowed: (i: number) => boolean): number | null {
  const sign = o.aboveBpm !== undefined ? 1 : -1
  let best: number | null = null
  for (let i = 0; i < beats.length; i++) {
    let held = Infinity // sign * the least extreme rate over beats i..j
    for (let j = i; j < beats.length && Number.isFinite(hr[j]) && allowed(j); j++) {
      held = Math.min(held, sign * hr[j])
      if (beats[j].timeMs - beats[i].timeMs >= o.sustainMs) {
        if (best === null || held > best) best = held
        break
      }
    }
  }
  return best === null ? null : sign * best
}
