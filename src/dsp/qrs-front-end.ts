// Front end of the QRS detector (qrs-detector.ts): Pan & Tompkins 1985 (IEEE TBME 32(3):230-236),
// band-pass 5-15 Hz -> five-point derivative -> squaring -> 150 ms moving-window integration.
// The band-pass is a causal Butterworth pair (2nd-order high-pass at 5 Hz, 2nd-order low-pass at
// 15 Hz) designed for any fs, instead of the paper's integer filters that only fit 200 Hz. All
// state lives in the returned object, and every output sample depends only on the samples before
// it in the same order of operations, so the output does not depend on how the input is blocked.
import { designButterworth, type Sos } from './butterworth.ts'
import { createSosFilter } from './sos-filter.ts'

export interface QrsFrontEnd {
  /** Band-passed signal and integrated energy for x (same length); state carries to the next call. */
  process(x: Float32Array): { bp: Float64Array; mwi: Float64Array }
  /** Forget the past (after a gap in the recording). */
  reset(): void
  /** Delay of the band-pass for a QRS-like pulse, in samples (used to refine beats on the raw signal). */
  readonly delay: number
  /** Integration window, in samples. */
  readonly mwiWidth: number
}

/** The 5-15 Hz band-pass as second-order sections (low-pass capped below Nyquist for low fs). */
export function qrsBandpass(fs: number): Sos {
  return [
    ...designButterworth({ order: 2, cutoffHz: 5, fs, type: 'highpass' }),
    ...designButterworth({ order: 2, cutoffHz: Math.min(15, 0.4 * fs), fs, type: 'lowpass' }),
  ]
}

/** Creates the streaming front end for sampling rate fs. */
export function createQrsFrontEnd(fs: number): QrsFrontEnd {
  const filter = createSosFilter(qrsBandpass(fs))
  const state = new Float64Array(filter.stateSize)
  const mwiWidth = Math.max(1, Math.round(0.15 * fs))
  const sq = new Float64Array(mwiWidth)
  // The paper's derivative is (2x[n] + x[n-1] - x[n-3] - 2x[n-4]) / 8 at 200 Hz; scaling by fs
  // keeps the energy comparable across rates (thresholds are adaptive anyway).
  const dScale = fs / 8
  let h1 = 0, h2 = 0, h3 = 0, h4 = 0
  let pos = 0
  let sum = 0
  let last = 0
  let started = false
  return {
    delay: estimateDelay(fs),
    mwiWidth,
    reset() {
      started = false
      h1 = h2 = h3 = h4 = sum = 0
      sq.fill(0)
    },
    process(x) {
      const n = x.length
      const bp = new Float64Array(n)
      for (let k = 0; k < n; k++) {
        // Invalid samples (NaN) hold the last valid value: a step would ring through the filter.
        const v = x[k]
        if (Number.isFinite(v)) last = v
        bp[k] = last
      }
      if (!started && n > 0) {
        filter.steady(state, bp[0])
        started = true
      }
      filter.run(state, bp, bp, 0, n, 1)
      const mwi = new Float64Array(n)
      for (let k = 0; k < n; k++) {
        const b = bp[k]
        const d = (2 * b + h1 - h3 - 2 * h4) * dScale
        h4 = h3; h3 = h2; h2 = h1; h1 = b
        const e = d * d
        sum += e - sq[pos]
        sq[pos] = e
        if (++pos === mwiWidth) pos = 0
        // A running sum can drift slightly below zero by rounding; energy never is.
        mwi[k] = sum > 0 ? sum / mwiWidth : 0
      }
      return { bp, mwi }
    },
  }
}

// Where a Gaussian QRS-like pulse (sigma 10 ms) comes out of the band-pass, relative to its centre.
function estimateDelay(fs: number): number {
  const filter = createSosFilter(qrsBandpass(fs))
  const n = Math.round(1.5 * fs)
  const centre = Math.round(0.5 * fs)
  const sigma = 0.01 * fs
  const x = new Float64Array(n)
  for (let i = 0; i < n; i++) x[i] = Math.exp(-0.5 * ((i - centre) / sigma) ** 2)
  filter.run(new Float64Array(filter.stateSize), x, x, 0, n, 1)
  let best = 0
  for (let i = 1; i < n; i++) if (x[i] > x[best]) best = i
  return Math.max(0, best - centre)
}
