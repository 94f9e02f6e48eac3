// Beat windows for the beat classifier (beat-classifier.ts): every beat is seen on one fixed
// grid, GRID_HZ (250 Hz) from PRE_MS before to POST_MS after its sample, whatever the input rate,
// so templates, widths and thresholds need no per-rate constants. The input is first smoothed by
// a box of ~12 ms (a low-pass with its first zero near 83 Hz: muscle noise and, at high rates,
// aliasing are reduced, the QRS keeps its shape) and then linearly interpolated onto the grid.
// The window's own baseline is removed: the level of its flattest 40 ms before the QRS (the PR
// or TP segment) is subtracted, so raw signals with wander and cleaned signals look alike.

/** Rate of the beat grid, Hz. */
export const GRID_HZ = 250
/** Window start before the beat, ms, and end after it. */
export const PRE_MS = 250
export const POST_MS = 450
/** Grid index of the beat sample itself. */
export const CENTER = Math.round((PRE_MS * GRID_HZ) / 1000)
/** Window length on the grid. */
export const WINDOW_LEN = CENTER + Math.round((POST_MS * GRID_HZ) / 1000) + 1

/** Grid index of a time relative to the beat, ms. */
export const at = (ms: number) => CENTER + Math.round((ms * GRID_HZ) / 1000)

/** Input samples the window needs around a beat at rate fs: [beat - before, beat + after]. */
export function windowReach(fs: number): { before: number; after: number; box: number } {
  const box = Math.max(1, Math.round(0.012 * fs))
  const half = box >> 1
  // The grid's ends in input samples, plus the box's reach and one sample for interpolation.
  const before = Math.ceil((CENTER * fs) / GRID_HZ) + half + 1
  const after = Math.ceil(((WINDOW_LEN - 1 - CENTER) * fs) / GRID_HZ) + (box - half) + 1
  return { before, after, box }
}

/** A beat on the grid, baseline removed, and how flat its flattest 40 ms before the QRS were. */
export interface BeatWindow {
  wave: Float64Array
  /** Peak-to-peak of that baseline stretch, mV: large when noise hides the isoelectric line. */
  baselinePtp: number
}

/**
 * The window of the beat at `beat` on the grid, read through `get(n)` (absolute sample n, which
 * lies within windowReach); null when a sample in it is not finite (gap, NaN, record edge).
 */
export function beatWindow(get: (n: number) => number, beat: number, fs: number): BeatWindow | null {
  const { before, after, box } = windowReach(fs)
  const lo = beat - before
  const n = before + after + 1
  // Box-smoothed input, indexed from lo; a centred box of odd or even width (left-biased).
  const half = box >> 1
  const sm = new Float64Array(n)
  let sum = 0
  for (let k = 0; k < n; k++) {
    const v = get(lo + k)
    if (!Number.isFinite(v)) return null
    sm[k] = v
  }
  const smooth = new Float64Array(n)
  for (let k = 0; k < n; k++) {
    sum += sm[k]
    if (k >= box) sum -= sm[k - box]
    if (k >= box - 1) smooth[k - box + 1 + half] = sum / box
  }
  const w = new Float64Array(WINDOW_LEN)
  for (let g = 0; g < WINDOW_LEN; g++) {
    const t = beat - lo + ((g - CENTER) * fs) / GRID_HZ
    const i = Math.floor(t)
    const f = t - i
    w[g] = f === 0 ? smooth[i] : smooth[i] * (1 - f) + smooth[i + 1] * f
  }
  return { wave: w, baselinePtp: removeBaseline(w) }
}

// Subtracts the mean of the flattest 40 ms (least peak-to-peak) between 250 and 40 ms before the
// beat; returns that peak-to-peak.
function removeBaseline(w: Float64Array): number {
  const len = Math.round((40 * GRID_HZ) / 1000)
  let best = Infinity
  let level = 0
  for (let a = at(-PRE_MS); a + len <= at(-40); a++) {
    let lo = Infinity, hi = -Infinity, s = 0
    for (let k = a; k < a + len; k++) {
      lo = Math.min(lo, w[k])
      hi = Math.max(hi, w[k])
      s += w[k]
    }
    if (hi - lo < best) {
      best = hi - lo
      level = s / len
    }
  }
  for (let k = 0; k < w.length; k++) w[k] -= level
  return best
}
