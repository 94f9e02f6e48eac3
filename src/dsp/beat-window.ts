// Beat windows for the beat classifier (beat-classifier.ts): every beat is seen on one fixed
// grid, GRID_HZ (250 Hz) from PRE_MS before to POST_MS after its sample, whatever the input rate,
// so templates, widths and thresholds need no per-rate constants. The input is first smoothed by
// a box of ~12 ms (a low-pass with its first zero near 83 Hz: muscle noise and, at high rates,
// aliasing are reduced, the QRS keeps its shape) and then linearly interpolated onto the grid.
// The window's own baseline is removed: the level of its flattest 40 ms before the QRS (the PR
// or TP segment) is subtracted, so raw signals with wander and cleaned signals look alike.
// Speed (about 110,000 beats a day): the interpolation points depend on the rate only, so they
// are computed once per windower, and the scratch arrays are reused from beat to beat (a typed
// array of this size is allocated outside the heap, which cost more than the arithmetic).

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

/** Turns the input samples around one beat into its window on the grid; one per classifier. */
export interface BeatWindower {
  /** The reach of windowReach: input[k] is sample beat - before + k, up to beat + after. */
  readonly before: number
  readonly after: number
  /** Filled by the caller with the beat's input samples (mV, NaN = invalid) before `extract`. */
  readonly input: Float64Array
  /**
   * Writes the beat on the grid into `wave` (WINDOW_LEN), baseline removed, and returns the
   * peak-to-peak of that baseline stretch (mV: large when noise hides the isoelectric line);
   * null when an input sample is not finite (gap, NaN, record edge).
   */
  extract(wave: Float64Array): number | null
}

/** Creates the windower for input rate fs (interpolation points computed once). */
export function createBeatWindower(fs: number): BeatWindower {
  const { before, after, box } = windowReach(fs)
  const n = before + after + 1
  const half = box >> 1
  const input = new Float64Array(n)
  const smooth = new Float64Array(n) // box-smoothed input, same indexing
  const scratch: BaselineScratch = { lo: new Float64Array(BASE_TO), hi: new Float64Array(BASE_TO), preLo: new Float64Array(BASE_TO), preHi: new Float64Array(BASE_TO) }
  // Grid point g lies at input position before + (g - CENTER) fs / GRID_HZ, whatever the beat.
  const index = new Int32Array(WINDOW_LEN)
  const frac = new Float64Array(WINDOW_LEN)
  for (let g = 0; g < WINDOW_LEN; g++) {
    const t = before + ((g - CENTER) * fs) / GRID_HZ
    index[g] = Math.floor(t)
    frac[g] = t - Math.floor(t)
  }
  return {
    before,
    after,
    input,
    extract(wave) {
      // A centred box of odd or even width (left-biased), as a running sum. The sum ends finite
      // only if every input sample is (a NaN stays, an infinity turns to NaN or stays).
      let sum = 0
      for (let k = 0; k < n; k++) {
        sum += input[k]
        if (k >= box) sum -= input[k - box]
        if (k >= box - 1) smooth[k - box + 1 + half] = sum / box
      }
      if (!Number.isFinite(sum)) return null
      for (let g = 0; g < WINDOW_LEN; g++) {
        const i = index[g]
        const f = frac[g]
        wave[g] = f === 0 ? smooth[i] : smooth[i] * (1 - f) + smooth[i + 1] * f
      }
      return removeBaseline(wave, scratch)
    },
  }
}

const BASE_LEN = Math.round((40 * GRID_HZ) / 1000)
const BASE_FROM = at(-PRE_MS)
const BASE_TO = at(-40)

// Subtracts the mean of the flattest 40 ms (least peak-to-peak) between 250 and 40 ms before the
// beat; returns that peak-to-peak. The minimum and maximum of each 40 ms stretch come from running
// ones (van Herk / Gil-Werman): cut the range into blocks of BASE_LEN; a stretch starting at a
// covers the end of its block (the extremes from a to the block's end, lo/hi) and the start of the
// next one (those from that block's start to a + BASE_LEN - 1, preLo/preHi; a stretch that starts
// a block gets that block twice). Exact (min and max do not round), and on real beats, where
// these comparisons are hard to predict, under half the time of scanning every stretch.
function removeBaseline(w: Float64Array, s: BaselineScratch): number {
  const len = BASE_TO - BASE_FROM
  const { lo, hi, preLo, preHi } = s
  for (let start = 0; start < len; start += BASE_LEN) {
    const end = Math.min(start + BASE_LEN, len)
    preLo[start] = preHi[start] = w[BASE_FROM + start]
    for (let k = start + 1; k < end; k++) {
      preLo[k] = Math.min(preLo[k - 1], w[BASE_FROM + k])
      preHi[k] = Math.max(preHi[k - 1], w[BASE_FROM + k])
    }
    lo[end - 1] = hi[end - 1] = w[BASE_FROM + end - 1]
    for (let k = end - 2; k >= start; k--) {
      lo[k] = Math.min(lo[k + 1], w[BASE_FROM + k])
      hi[k] = Math.max(hi[k + 1], w[BASE_FROM + k])
    }
  }
  let best = Infinity
  let flattest = 0
  for (let a = 0; a + BASE_LEN <= len; a++) {
    const e = a + BASE_LEN - 1
    const ptp = Math.max(hi[a], preHi[e]) - Math.min(lo[a], preLo[e])
    if (ptp < best) {
      best = ptp
      flattest = a
    }
  }
  let sum = 0
  for (let k = BASE_FROM + flattest; k < BASE_FROM + flattest + BASE_LEN; k++) sum += w[k]
  const level = sum / BASE_LEN
  for (let k = 0; k < WINDOW_LEN; k++) w[k] -= level
  return best
}

interface BaselineScratch {
  lo: Float64Array
  hi: Float64Array
  preLo: Float64Array
  preHi: Float64Array
}
