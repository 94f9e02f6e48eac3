// Scaling of cleaned signals (physical floats) to EDF's 16-bit digital values. Each output sample
// of the clean chain is a weighted sum of input samples, y[n] = sum h[k] x[n-k], with sum h = 0
// (the high-pass removes DC), so |y| <= ||h||_1 * max|x - c| for any constant c; with c the
// middle of the input's range, |y| <= ||h||_1 * span / 2. ||h||_1 is measured on the chain's
// impulse response (2.39-2.42 for 200-1000 Hz, 50/60 Hz), so the physical range is
// +-||h||_1 * span / 2 (about +-1.2 spans), symmetric so that 0 mV is digital 0, over digital
// -32767..32767: the quantisation step is range / 32767 and the error at most half a step. The
// bound holds away from a segment's edges, where scipy's odd extension can reach further; values
// beyond the range are clipped and counted, and NaN (invalid input) is written as 0 and counted.
import { formatEdfNumber } from '../formats/edf-ascii.ts'
import { createLeadCleaner, type CleanOptions } from '../dsp/ecg-clean.ts'

export const DIGITAL_LIMIT = 32767

/** ||h||_1 of the clean chain at `fs`: its response to a unit impulse in 100 s of zeros. */
export function cleanGainBound(options: CleanOptions, fs: number): number {
  const n = Math.round(100 * fs)
  const x = new Float64Array(n)
  x[n >> 1] = 1
  const f = createLeadCleaner(options, fs)
  let sum = 0
  for (const y of [f.push(x), f.finish()]) for (let i = 0; i < y.length; i++) sum += Math.abs(y[i])
  return sum
}

/** The smallest number >= x with 4 significant digits that EDF's 8-character field holds exactly (1 for x <= 0). */
export function roundUpRange(x: number): number {
  if (!(x > 0)) return 1
  const unit = 10 ** (Math.floor(Math.log10(x)) - 3)
  let r = Number((Math.ceil(x / unit - 1e-9) * unit).toPrecision(4))
  if (r < x) r = Number((r + unit).toPrecision(4))
  const text = formatEdfNumber(r, 8)
  return text === null ? r : Number(text)
}

/** Float -> digital for one signal of physical range +-`range`, counting what does not fit. */
export interface Quantiser {
  range: number
  /** Physical units per digital step: range / 32767. */
  step: number
  clipped: number
  invalid: number
  quantise(x: Float32Array, out: Int32Array): void
}

/** A quantiser for +-`range` (as written in the header, so readers' scaling is the same). */
export function createQuantiser(range: number): Quantiser {
  const step = range / DIGITAL_LIMIT
  const q: Quantiser = {
    range, step, clipped: 0, invalid: 0,
    quantise(x, out) {
      for (let i = 0; i < x.length; i++) {
        const v = x[i]
        if (Number.isNaN(v)) {
          out[i] = 0
          q.invalid++
          continue
        }
        let d = Math.round(v / step)
        if (d > DIGITAL_LIMIT || d < -DIGITAL_LIMIT) {
          d = d > 0 ? DIGITAL_LIMIT : -DIGITAL_LIMIT
          q.clipped++
        }
        out[i] = d
      }
    },
  }
  return q
}
