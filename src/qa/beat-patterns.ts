// Patterns of an excerpt's beat sequence (pure), as beat index ranges so every occurrence keeps
// the beats it came from: runs of one AAMI class, bigeminy / trigeminy, long RR intervals, and
// sustained rates over the 8-beat NN average. The rules match src/dsp/ectopy.ts and hr-stats.ts
// (which summarize uses): a beat that ends a break (an artifact period or a gap) starts afresh.

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
export function findGeminy(beats: readonly PatternBeat[], of: string, period: number, minCycles: number): Span[] {
  const out: Span[] = []
  let normals: number[] = []
  let cycles = 0
  let first = -1
  let last = -1
  const close = () => {
    if (cycles >= minCycles) out.push({ first, last, at: first })
    cycles = 0
  }
  beats.forEach((b, i) => {
    if (b.afterBreak) {
      close()
      normals = []
    }
    if (b.label === 'N') {
      normals.push(i)
      if (normals.length > period - 1) {
        normals.shift()
        close()
      }
    } else if (b.label === of && normals.length === period - 1) {
      if (cycles === 0) first = normals[0]
      cycles++
      last = i
      normals = []
    } else {
      close()
      normals = []
    }
  })
  close()
  return out
}

/** RR intervals in (aboveMs, belowMs], timed at the beat before the interval. */
export function findLongRr(beats: readonly PatternBeat[], aboveMs: number, belowMs = Infinity): Span[] {
  const out: Span[] = []
  for (let i = 1; i < beats.length; i++) {
    if (beats[i].afterBreak) continue
    const rr = beats[i].timeMs - beats[i - 1].timeMs
    if (rr > aboveMs && rr <= belowMs) out.push({ first: i - 1, last: i, at: i - 1 })
  }
  return out
}

/**
 * The 8-beat (avgBeats) NN average heart rate at each beat that ends a full window of consecutive
 * NN intervals, else NaN: the series whose extremes summarize reports as max and min HR.
 */
export function averagedHr(beats: readonly PatternBeat[], avgBeats: number): Float64Array {
  const out = new Float64Array(beats.length).fill(NaN)
  const ring = new Float64Array(avgBeats)
  let filled = 0
  let head = 0
  let sum = 0
  for (let i = 1; i < beats.length; i++) {
    const rr = beats[i].timeMs - beats[i - 1].timeMs
    if (!beats[i].afterBreak && beats[i].label === 'N' && beats[i - 1].label === 'N' && rr > 0) {
      sum += rr - (filled === avgBeats ? ring[head] : 0)
      ring[head] = rr
      head = (head + 1) % avgBeats
      if (filled < avgBeats) filled++
      if (filled === avgBeats) out[i] = 60_000 / (sum / avgBeats)
    } else {
      filled = 0
      head = 0
      sum = 0
    }
  }
  return out
}

/**
 * Episodes where the averaged rate stays above `aboveBpm` (or below `belowBpm`) over consecutive
 * beats for at least `sustainMs`, counting only beats `allowed` (sinus context); timed at the
 * first beat whose average qualifies.
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
