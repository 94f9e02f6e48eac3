// Beat windows for the beat classifier (beat-classifier.ts): every beat is seen on one fixed
// grid, GRID_HZ (250 Hz) from PRE_MS before to POST_MS after its sample, whatever the input rate,
// so templates, widths and thresholds need no per-rate constants. The input is first smoothed by
// a box of ~12 ms (a low-pass with its first zero near 83 Hz: muscle noise and, at high rates,
// aliasing are reduced, the QRS keeps its shape) and then linearly interpolated onto the grid.
// The window's own baseline is removed: the level of its flattest 40 ms before the QRS (the PR
// or TP segment) is subtracted, so raw signals with wander and cleaned signals look alike.
// Speed (about 110,000 beats a day): the interpolation points depend on the rate only, so they
// are computed once per windower, and the scratch arrays are reused from beat to beat (a typed
// array of this size is allocated outside the heap, which cost more than the arithmetic). The
// JavaScript windower reads its input in place (extractFrom: the classifier's block or ring; the
// WebAssembly one copies it into the kernel's memory), at 250 Hz the smoothed
// samples are the grid itself, and the flattest baseline stretch skips stretches whose ends
// alone rule them out. The running sum of the box stays one chain in the plain order (the
// windows must equal the plain definition bit for bit), so it sets the floor here; it runs in
// WebAssembly where available (beat-window-wasm.ts), without JavaScript's bounds checks, and so
// do the baseline removal and the classifier's measures of the window (extractShape), which in
// JavaScript cost as much again.
import type { BeatShape } from './beat-features.ts'
import { createWindowKernel } from './beat-window-wasm.ts'

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
  readonly input: Float32Array
  /**
   * Writes the beat on the grid into `wave` (WINDOW_LEN), baseline removed, and returns the
   * peak-to-peak of that baseline stretch (mV: large when noise hides the isoelectric line);
   * null when an input sample is not finite (gap, NaN, record edge).
   */
  extract(wave: Float64Array): number | null
  /** As `extract`, reading the input samples from source[start..] in place (the ring or the block). */
  extractFrom(source: Float32Array, start: number, wave: Float64Array): number | null
  /**
   * As `extractFrom` into shape.wave and shape.baselinePtp; when `measures` is true, also
   * shape's spanMs, ptp and noise as beat-features.ts's measureShape gives them (else the caller
   * measures). False when an input sample is not finite (shape then unchanged).
   */
  extractShape(source: Float32Array, start: number, shape: BeatShape): boolean
  /** True when extractShape measures (the WebAssembly kernel does, beside the window). */
  readonly measures: boolean
}

/**
 * Creates the windower for input rate fs (interpolation points computed once); the smoothing,
 * baseline removal and shape measures run in WebAssembly (beat-window-wasm.ts, same bits) where
 * available unless `wasm` is false.
 */
export function createBeatWindower(fs: number, wasm = true): BeatWindower {
  const { before, after, box } = windowReach(fs)
  const n = before + after + 1
  const half = box >> 1
  const smooth = new Float64Array(n) // box-smoothed input, same indexing
  // Grid point g lies at input position before + (g - CENTER) fs / GRID_HZ, whatever the beat:
  // between input samples index[g] and index[g] + 1, with weights near[g] and far[g].
  const index = new Int32Array(WINDOW_LEN)
  const near = new Float64Array(WINDOW_LEN)
  const far = new Float64Array(WINDOW_LEN)
  for (let g = 0; g < WINDOW_LEN; g++) {
    const t = before + ((g - CENTER) * fs) / GRID_HZ
    index[g] = Math.floor(t)
    far[g] = t - Math.floor(t)
    near[g] = 1 - far[g]
  }
  // At GRID_HZ itself (and at rates where every grid point falls on a sample one apart) the grid
  // is a run of smoothed samples, written straight into the wave.
  const direct = index.every((i, g) => i === index[0] + g && far[g] === 0) ? index[0] : -1
  const kernel = wasm ? createWindowKernel(n, box, half, index, near, far, direct) : null
  const input = kernel ? kernel.input : new Float32Array(n)
  // The kernel's window of source[start..] (copied into its input unless it is that input).
  const runKernel = (source: Float32Array, start: number) => {
    if (source !== input) input.set(source.subarray(start, start + n))
    return kernel!.run()
  }
  function extractFrom(source: Float32Array, start: number, wave: Float64Array): number | null {
    if (kernel) {
      if (!runKernel(source, start)) return null
      wave.set(kernel.wave)
      return kernel.measures[0]
    }
    // A centred box of odd or even width (left-biased), as a running sum in the order of the
    // plain definition (add the newest sample, then drop the oldest): smooth[j] is the sum that
    // ends at input j - half + box - 1, over box. The sum ends finite only if every input sample
    // is (a NaN stays, an infinity turns to NaN or stays).
    let sum = 0
    for (let k = 0; k < box; k++) sum += source[start + k]
    if (direct >= 0) {
      // Only the sums whose smoothed sample is on the grid are divided and stored.
      const from = direct + box - 1 - half
      let k = box
      for (; k <= from; k++) {
        sum += source[start + k]
        sum -= source[start + k - box]
      }
      for (let g = 0; g < WINDOW_LEN; g++, k++) {
        wave[g] = sum / box
        sum += source[start + k]
        sum -= source[start + k - box]
      }
      for (; k < n; k++) {
        sum += source[start + k]
        sum -= source[start + k - box]
      }
      return Number.isFinite(sum) ? removeBaseline(wave, wave) : null
    }
    smooth[half] = sum / box
    for (let k = box; k < n; k++) {
      sum += source[start + k]
      sum -= source[start + k - box]
      smooth[k - box + 1 + half] = sum / box
    }
    if (!Number.isFinite(sum)) return null
    // On a sample (far 0, near 1) this is smooth[i] + (+-0), i.e. smooth[i]: a sum here is never
    // -0 (see removeBaseline), and smooth[i + 1] is finite.
    for (let g = 0; g < WINDOW_LEN; g++) {
      const i = index[g]
      wave[g] = smooth[i] * near[g] + smooth[i + 1] * far[g]
    }
    return removeBaseline(wave, wave)
  }
  function extractShape(source: Float32Array, start: number, shape: BeatShape): boolean {
    if (kernel) {
      if (!runKernel(source, start)) return false
      shape.wave.set(kernel.wave)
      const m = kernel.measures
      shape.baselinePtp = m[0]
      shape.spanMs = m[1]
      shape.ptp = m[2]
      shape.noise = m[3]
      return true
    }
    const baselinePtp = extractFrom(source, start, shape.wave)
    if (baselinePtp === null) return false
    shape.baselinePtp = baselinePtp
    return true
  }
  return {
    before,
    after,
    input,
    extract: (wave) => extractFrom(input, 0, wave),
    extractFrom,
    extractShape,
    measures: kernel !== null,
  }
}

const BASE_LEN = Math.round((40 * GRID_HZ) / 1000)
const BASE_FROM = at(-PRE_MS)
const BASE_TO = at(-40)

// (JavaScript path; the WebAssembly kernel "shape" does the same, measuring every stretch.)
// Subtracts the mean of the flattest 40 ms (least peak-to-peak) between 250 and 40 ms before the
// beat, writing w minus that level into `out` (may be w); returns that peak-to-peak. A stretch's peak-to-peak is at least the difference of its end
// values (rounding is monotonic, so also in floating point), so a stretch whose ends already differ
// by the best so far cannot be strictly flatter and is not scanned: on real beats most of them.
// The extremes are taken with comparisons rather than Math.min/max (which branch on NaN and
// signed zeros): the same values here, as a wave holds neither (extract returns before
// interpolating a non-finite input, and the running sum, the division and the interpolation with
// weights in (0, 1] never make a -0 from the +0 the sum starts at).
function removeBaseline(w: Float64Array, out: Float64Array): number {
  let best = Infinity
  let flattest = 0
  for (let a = BASE_FROM; a + BASE_LEN <= BASE_TO; a++) {
    const first = w[a]
    if (Math.abs(w[a + BASE_LEN - 1] - first) >= best) continue
    let lo = first
    let hi = first
    for (let k = a + 1; k < a + BASE_LEN; k++) {
      const v = w[k]
      if (v < lo) lo = v
      if (v > hi) hi = v
    }
    if (hi - lo < best) {
      best = hi - lo
      flattest = a
    }
  }
  let sum = 0
  for (let k = flattest; k < flattest + BASE_LEN; k++) sum += w[k]
  const level = sum / BASE_LEN
  for (let k = 0; k < WINDOW_LEN; k++) out[k] = w[k] - level
  return best
}
