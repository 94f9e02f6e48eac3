// One-to-one matching of reference and detected beats, as WFDB's bxb does it for ANSI/AAMI
// EC57 (bxb.c, main loop cases 1-4 with the 2002 modification). Both lists are walked in time
// order; whichever beat comes first is paired with the other list's current beat when that one
// lies within the window (|dt| <= window, so exactly 150 ms still matches) AND is closer than
// the first beat's own successor, or the successors pair better with each other. So each
// reference takes the closest detection in the window, and when two beats compete for one
// partner the closer one wins (on a tie, the later one). Whatever is not paired is a miss (FN)
// or an extra detection (FP). Linear time, no allocation besides the two result arrays.
import { PipelineError } from '../core/errors.ts'

/** EC57's match window. */
export const DEFAULT_MATCH_WINDOW_MS = 150

/** Result of matching: for each beat, the index of its partner in the other list, or -1. */
export interface BeatMatch {
  /** refToTest[i] = index of the detection matched to reference beat i, -1 when missed. */
  refToTest: Int32Array
  /** testToRef[j] = index of the reference beat matched to detection j, -1 when extra. */
  testToRef: Int32Array
  windowSamples: number
}

/** The window in samples, rounded like WFDB's strtim(".15") (54 samples at 360 Hz). */
export function matchWindowSamples(fs: number, windowMs: number = DEFAULT_MATCH_WINDOW_MS): number {
  if (!(fs > 0) || !(windowMs >= 0)) {
    throw new PipelineError('E_INTERNAL', `match window: expected fs > 0 and windowMs >= 0, found fs=${fs}, windowMs=${windowMs}`, { field: 'fs' })
  }
  return Math.round((windowMs * fs) / 1000)
}

/** Pairs reference and detected beat times (non-decreasing sample indices) within ±windowSamples. */
export function matchBeats(ref: ArrayLike<number>, test: ArrayLike<number>, windowSamples: number): BeatMatch {
  checkSorted(ref, 'reference')
  checkSorted(test, 'detected')
  const nR = ref.length
  const nT = test.length
  const refToTest = new Int32Array(nR).fill(-1)
  const testToRef = new Int32Array(nT).fill(-1)
  // Past the end a list reads as +Infinity, which never matches and ends the loop.
  const at = (xs: ArrayLike<number>, k: number) => (k < xs.length ? xs[k] : Infinity)
  let i = 0
  let j = 0
  while (i < nR || j < nT) {
    const T = at(ref, i)
    const T1 = at(ref, i + 1)
    const t = at(test, j)
    const t1 = at(test, j + 1)
    let paired: boolean
    if (t < T) {
      // Detection first (bxb case 1/2): pair unless the next detection suits T better.
      paired = T - t <= windowSamples && (T - t < Math.abs(T - t1) || Math.abs(T1 - t1) < Math.abs(T - t1))
      if (!paired) j++
    } else {
      // Reference first (case 3/4): pair unless the next reference suits t better.
      paired = t - T <= windowSamples && (t - T < Math.abs(t - T1) || Math.abs(t1 - T1) < Math.abs(t - T1))
      if (!paired) i++
    }
    if (paired) {
      refToTest[i] = j
      testToRef[j] = i
      i++
      j++
    }
  }
  return { refToTest, testToRef, windowSamples }
}

function checkSorted(xs: ArrayLike<number>, which: string): void {
  for (let k = 0; k < xs.length; k++) {
    if (!Number.isFinite(xs[k]) || (k > 0 && xs[k] < xs[k - 1])) {
      throw new PipelineError(
        'E_INTERNAL',
        `beat matching: ${which} beat ${k} is at sample ${xs[k]}${k > 0 ? ` after ${xs[k - 1]}` : ''}; expected finite, non-decreasing sample indices (build the list with toBeatSeries, which sorts)`,
        { field: which, index: k },
      )
    }
  }
}
