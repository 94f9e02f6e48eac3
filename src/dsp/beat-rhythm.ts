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
  const recent = createMedianWindow()
  const diffs = createMedianWindow()
  let ref: number | null = null
  let lastSv: number | null = null // the previous interval, when it was between supraventricular beats
  let prev: BeatLabel | null = null

  return {
    onTime(rr) {
      if (rr === null) return true
      const ok = recent.count() === 0 || rr >= 0.9 * recent.median()
      recent.add(rr)
      return ok
    },
    add(label, rr) {
      if (rr === null) prev = null
      if (supraventricular(label) && supraventricular(prev) && rr !== null) {
        ref = ref === null ? rr : ref + (Math.min(1.5 * ref, Math.max(0.7 * ref, rr)) - ref) / 8
        if (lastSv !== null) diffs.add(Math.abs(rr - lastSv))
        lastSv = rr
      } else lastSv = null
      prev = label
    },
    normalRr: () => ref,
    irregularity: () => (diffs.count() < 4 || ref === null ? 0 : diffs.median() / ref),
    previous: () => prev,
  }
}

const supraventricular = (l: BeatLabel | null) => l === 'N' || l === 'S'

interface MedianWindow {
  /** Adds a value (finite), dropping the oldest once HISTORY are held. */
  add(v: number): void
  /** Values held (at most HISTORY). */
  count(): number
  /** Their median (count() > 0). */
  median(): number
}

// The last HISTORY values, also kept sorted: each new value replaces the oldest in the sorted
// array by one shift (a median is read once or twice a beat, and sorting the eight values anew
// each time, with its mispredicted comparisons, is a cost every beat would pay).
function createMedianWindow(): MedianWindow {
  const values = new Float64Array(HISTORY) // by age, circular
  const sorted = new Float64Array(HISTORY) // sorted[0..k)
  let total = 0
  return {
    add(v) {
      let k = Math.min(total, HISTORY)
      if (k === HISTORY) {
        // Drop the oldest (an equal value, if several: the same number either way; the bound only
        // guards against a value unequal to itself, which callers never add).
        const old = values[total % HISTORY]
        let i = 0
        while (i < HISTORY - 1 && sorted[i] !== old) i++
        for (k--; i < k; i++) sorted[i] = sorted[i + 1]
      }
      let j = k
      for (; j > 0 && sorted[j - 1] > v; j--) sorted[j] = sorted[j - 1]
      sorted[j] = v
      values[total++ % HISTORY] = v
    },
    count: () => Math.min(total, HISTORY),
    median() {
      const k = Math.min(total, HISTORY)
      return k % 2 ? sorted[k >> 1] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2
    },
  }
}
