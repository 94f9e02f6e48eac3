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

/**
 * A causal moving average of `width` samples as a LinearFilter. The state is the last width-1
 * inputs (most recent first); each output is summed afresh, never as a running sum, so a NaN
 * input leaves the state after width-1 samples instead of poisoning it forever.
 */
export function createMovingAverage(width: number): LinearFilter {
  if (!Number.isInteger(width) || width < 1) throw new RangeError(`moving-average width must be a positive integer, found ${width}`)
  const m = width - 1
  const inv = 1 / width
  return {
    stateSize: m,
    steady(state, v) {
      state.fill(v)
    },
    run(state, x, y, from, to, step) {
      for (let i = from; i !== to; i += step) {
        const v = x[i]
        let sum = v
        for (let j = 0; j < m; j++) sum += state[j]
        for (let j = m - 1; j > 0; j--) state[j] = state[j - 1]
        if (m > 0) state[0] = v
        y[i] = sum * inv
      }
    },
  }
}
