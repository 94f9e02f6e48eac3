// NeuroKit2's "powerline" step (0.2.9, signal_filter(method="powerline")): a boxcar of
// int(fs / powerline) ones (2 when fs < 100) with a = [len(b)], i.e. a moving average, applied
// with scipy `filtfilt(b, a, x, method="pad")` (odd padding of 3*len(b) samples, initial state
// lfilter_zi * edge value). Run forward and backward it is a triangular kernel of 2n-1 samples.
// Note NeuroKit2 truncates fs/powerline (int()), it does not round: 128 Hz gives 2, not 3.
// This file gives the width and the filter; zero-phase.ts does the forward-backward part.
import type { LinearFilter } from './sos-filter.ts'

/** Boxcar width NeuroKit2 uses for the powerline step at sampling rate `fs`. */
export function powerlineWidth(fs: number, powerlineHz: number): number {
  return fs >= 100 ? Math.max(1, Math.floor(fs / powerlineHz)) : 2
}

/** scipy filtfilt's default pad length for an FIR of `width` taps and a = [width]: 3 * max(len(a), len(b)). */
export function movingAveragePadlen(width: number): number {
  return 3 * width
}

// Running sums are re-summed from the stored inputs this often (and whenever they are not
// finite), which bounds rounding drift to a few ulps of the window sum.
const RESUM_EVERY = 4096

/**
 * A causal moving average of `width` samples as a LinearFilter. The state holds the last width-1
 * inputs in a ring, their running sum, the samples since it was last re-summed and the ring
 * position. A running sum costs two additions per sample whatever the width (summing the window
 * afresh cost 23 ns/sample at width 7); it is re-summed from the ring every RESUM_EVERY samples
 * counted from steady() (so where a run starts or stops never changes the output) and whenever
 * it is not finite, so a NaN input still leaves the state after width-1 samples.
 */
export function createMovingAverage(width: number): LinearFilter {
  if (!Number.isInteger(width) || width < 1) throw new RangeError(`moving-average width must be a positive integer, found ${width}`)
  const m = width - 1
  const inv = 1 / width
  // state[0..m): ring of inputs; state[m]: their sum; state[m + 1]: samples since re-summed; state[m + 2]: ring position.
  const SUM = m, SINCE = m + 1, POS = m + 2
  const resum = (state: Float64Array) => {
    let sum = 0
    for (let j = 0; j < m; j++) sum += state[j]
    return sum
  }
  return {
    stateSize: m + 3,
    steady(state, v) {
      state.fill(v, 0, m)
      state[SUM] = resum(state)
      state[SINCE] = 0
      state[POS] = 0
    },
    run(state, x, y, from, to, step) {
      if (m === 0) {
        for (let i = from; i !== to; i += step) y[i] = x[i]
        return
      }
      let sum = state[SUM]
      let since = state[SINCE] | 0
      let p = state[POS] | 0
      for (let i = from; i !== to; i += step) {
        const v = x[i]
        y[i] = (v + sum) * inv
        const old = state[p]
        state[p] = v
        if (++p === m) p = 0
        sum += v - old
        if (++since === RESUM_EVERY || sum - sum !== 0) {
          sum = resum(state)
          since = 0
        }
      }
      state[SUM] = sum
      state[SINCE] = since
      state[POS] = p
    },
  }
}
