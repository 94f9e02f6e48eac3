// Lowers the sampling rate of a window before it is written as text (render-text's
// `rate`), e.g. 360 -> 100 Hz to fit a model's context. Method: bandlimited interpolation
// (J. O. Smith's resampling by a windowed sinc): output sample k sits at input position
// t = k * from/to, and is the sum of the input samples within `half` of t, each weighted by a
// Blackman-windowed sinc low-pass at its distance from t (cutoff 0.4 x the new rate; half =
// ceil(10 x from/to) input samples). The weights are read from a table of the kernel at 1/L of a
// sample (L = max(8, ceil(256 / ratio)), linear between phases) and divided by their sum, so DC
// passes exactly. The filter is symmetric (linear phase): nothing is delayed.
// Limits, measured with sines (test/render/resample.test.ts): the gain is within 0.5 % up to
// 0.25 x the new rate (25 Hz at 100 Hz), about 0.5 (-6 dB) at 0.4 x, below -35 dB at the new
// Nyquist frequency and below -70 dB from 0.55 x on: the band just under the new Nyquist
// frequency is given up so that nothing aliases into the band kept. Each window is resampled on
// its own: within `half` input samples of its ends (about 10 output samples) the kernel is cut
// off by the window's edge and renormalized, not fed by the neighbouring windows. A NaN input
// makes every output within `half` input samples of it NaN. Rates only go down (or stay).
// Cost: 2 x half + 1 weights an output, about 2.4 s for a 24 h lead at 360 -> 100 Hz (a quick
// timing of 8,640 windows of 10 s on the 2-core development machine).

/** A resampler for one pair of rates; the kernel table is made once. */
export interface Resampler {
  fromHz: number
  toHz: number
  /** Output length for `n` input samples: round(n * toHz / fromHz). */
  outputLength(n: number): number
  /** Resamples one window (a new array; the input itself when the rates are equal). */
  apply(x: Float32Array): Float32Array
}

/** Makes the resampler; `toHz` must be positive and at most `fromHz`. */
export function createResampler(fromHz: number, toHz: number): Resampler {
  if (!(fromHz > 0) || !(toHz > 0) || toHz > fromHz || !Number.isFinite(fromHz)) {
    throw new RangeError(`resample: the new rate must be > 0 and <= the input rate, found ${toHz} Hz from ${fromHz} Hz`)
  }
  const ratio = fromHz / toHz
  const outputLength = (n: number) => Math.round((n * toHz) / fromHz)
  if (toHz === fromHz) return { fromHz, toHz, outputLength, apply: (x) => x }
  const half = Math.ceil(10 * ratio)
  const L = Math.max(8, Math.ceil(256 / ratio))
  const rows = kernelRows(0.4 / ratio, half, L)
  const width = 2 * half + 1
  return {
    fromHz,
    toHz,
    outputLength,
    apply(x) {
      const n = x.length
      const out = new Float32Array(outputLength(n))
      for (let k = 0; k < out.length; k++) {
        const t = k * ratio
        const first = Math.max(0, Math.ceil(t - half))
        const last = Math.min(n - 1, Math.floor(t + half))
        // Input sample j is at kernel position j - t + half: one table phase for all of them.
        const u = first - t + half
        const i0 = Math.floor(u)
        const phase = (u - i0) * L
        const p = Math.min(Math.floor(phase), L - 1)
        const f = phase - p
        const a = p * width + i0 - first
        const b = a + width
        let acc = 0
        let sum = 0
        for (let j = first; j <= last; j++) {
          const w = rows[a + j] + f * (rows[b + j] - rows[a + j])
          acc += w * x[j]
          sum += w
        }
        out[k] = acc / sum
      }
      return out
    },
  }
}

/** Resamples `x` from `fromHz` to `toHz` (see createResampler; makes the table each call). */
export function resample(x: Float32Array, fromHz: number, toHz: number): Float32Array {
  return createResampler(fromHz, toHz).apply(x)
}

/**
 * The Blackman-windowed sinc (`cutoff` in cycles per input sample) in L + 1 rows: row p, entry i
 * is the kernel at i + p / L - half (0 beyond half), so one output's weights are one or two rows.
 */
function kernelRows(cutoff: number, half: number, L: number): Float64Array {
  const width = 2 * half + 1
  const rows = new Float64Array((L + 1) * width)
  for (let p = 0; p <= L; p++) {
    for (let i = 0; i < width; i++) {
      const tau = i + p / L - half
      if (tau > half) continue
      const sinc = tau === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * tau) / (Math.PI * tau)
      const w = 0.42 + 0.5 * Math.cos((Math.PI * tau) / half) + 0.08 * Math.cos((2 * Math.PI * tau) / half)
      rows[p * width + i] = sinc * w
    }
  }
  return rows
}
