// RR bookkeeping for the beat classifier (beat-classifier.ts), updated beat by beat in order:
// - whether a beat came on time (RR >= 0.9x the median of the last 8 RR of any beats): this
//   weighs template support, before labels exist;
// - the normal RR, a running mean (1/8 per beat, each step clamped to 0.7-1.5x) of the intervals
//   between supraventricular (N or S) beats: the pause after a PVC is not the rhythm;
// - irregularity, the median |difference| of successive such intervals over the last 8, per
//   normal RR: sinus rhythm with isolated APCs stays near 0.05 (an APC moves two of the 8
//   differences), atrial fibrillation goes well past 0.1, and there prematurity means nothing.
import type { BeatLabel } from './beat-rules.ts'

const HISTORY = 8

export interface RhythmTracker {
  /** Before a beat is labelled: true when its RR (ms, null if unknown) is not short for the recent rhythm. */
  onTime(rrMs: number | null): boolean
  /** After it is labelled; rrMs null after a gap. */
  add(label: BeatLabel, rrMs: number | null): void
  /** Running RR between supraventricular beats, ms (null until one is seen). */
  normalRr(): number | null
  /** Median successive difference of those intervals per normal RR (0 until 4 are known). */
  irregularity(): number
  /** Label of the previous beat (null at the start and after a gap). */
  previous(): BeatLabel | null
}

/** Creates the RR state of one record. */
export function createRhythmTracker(): RhythmTracker {
  const recent = new Float64Array(HISTORY)
  let recentCount = 0
  const diffs = new Float64Array(HISTORY)
  let diffCount = 0
  let ref: number | null = null
  let lastSv: number | null = null // the previous interval, when it was between supraventricular beats
  let prev: BeatLabel | null = null
  const sorted = new Float64Array(HISTORY) // scratch of median

  return {
    onTime(rr) {
      if (rr === null) return true
      const k = Math.min(recentCount, HISTORY)
      const ok = k === 0 || rr >= 0.9 * median(recent, k, sorted)
      recent[recentCount++ % HISTORY] = rr
      return ok
    },
    add(label, rr) {
      if (rr === null) prev = null
      if (supraventricular(label) && supraventricular(prev) && rr !== null) {
        ref = ref === null ? rr : ref + (Math.min(1.5 * ref, Math.max(0.7 * ref, rr)) - ref) / 8
        if (lastSv !== null) diffs[diffCount++ % HISTORY] = Math.abs(rr - lastSv)
        lastSv = rr
      } else lastSv = null
      prev = label
    },
    normalRr: () => ref,
    irregularity() {
      const k = Math.min(diffCount, HISTORY)
      return k < 4 || ref === null ? 0 : median(diffs, k, sorted) / ref
    },
    previous: () => prev,
  }
}

const supraventricular = (l: BeatLabel | null) => l === 'N' || l === 'S'

// Median of values[0..k), sorted by insertion into `scratch` (k <= HISTORY: called once or twice
// a beat, where copying and sorting a typed array cost more than the rest of this file).
function median(values: Float64Array, k: number, scratch: Float64Array): number {
  for (let i = 0; i < k; i++) {
    const v = values[i]
    let j = i
    for (; j > 0 && scratch[j - 1] > v; j--) scratch[j] = scratch[j - 1]
    scratch[j] = v
  }
  return k % 2 ? scratch[k >> 1] : (scratch[k / 2 - 1] + scratch[k / 2]) / 2
}
