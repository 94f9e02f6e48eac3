// Signal quality of one window of one lead (pure, typed arrays), so artifact periods can be left
// out of statistics and scoring. Four transparent checks, each a share of the window:
// - invalid: non-finite samples (WFDB's invalid value, NaN-like digital extremes).
// - flat: 1 s pieces whose peak-to-peak range is below `flatMv` (5 uV): a lead that is off,
//   whose recorder writes a constant (at most one step of flicker on a 5 uV-step ADC such as
//   MIT-BIH's). Anything livelier is left alone, because the quiet baseline of a real pause
//   (asystole) can move only tens of microvolts in a second, and a pause must stay in the report.
// - saturated: runs of at least `saturationMs` equal samples at the window's maximum or minimum
//   (the amplifier or ADC at its rail); only counted when the window is not flat overall.
// - noisy: the kurtosis of the QRS-band slope (a smoothed difference, see smoothedSlope). On ECG
//   the slope is dominated by a few steep QRS slopes (heavy-tailed: 1st to 95th percentile of the
//   10 s windows of lead 0 of MIT-BIH 100, 101, 102, 208 and Icentia11k p00000_s00, 10.3 to 25.5);
//   broadband muscle and electrode noise makes it near-Gaussian (2.8 to 3.0 measured).
//   The difference removes baseline wander, so slow drift is not called noise. A low kurtosis
//   alone would also call ventricular tachycardia and flutter noise (regular wide complexes
//   have a near-Gaussian slope), and the summary would then drop a VT episode; so a window is
//   noisy only when its slope energy does not repeat at a heart-rate period (periodicity). Kurtosis-based quality indices are standard (e.g. kSQI, Li, Clifford and
//   Clifford 2008; Behar et al. 2013), here applied to the derivative.
// Each share is compared with a threshold to give the window's flags.

export type QualityFlag = 'invalid' | 'flat' | 'saturated' | 'noisy'

export interface QualityOptions {
  /** Peak-to-peak range below which a 1 s piece is flat, mV. */
  flatMv: number
  /** Shortest run of equal samples at an extreme that counts as saturation, ms. */
  saturationMs: number
  /** Kurtosis of the QRS-band slope below which the window is noisy... */
  noiseKurtosis: number
  /** ...unless its slope energy repeats with at least this autocorrelation (a regular rhythm). */
  rhythmCorr: number
  /** Shares (%) of the window above which a flag is set. */
  invalidPct: number
  flatPct: number
  saturatedPct: number
}

export const DEFAULT_QUALITY_OPTIONS: QualityOptions = {
  flatMv: 0.005,
  saturationMs: 40,
  noiseKurtosis: 5,
  rhythmCorr: 0.5,
  invalidPct: 10,
  flatPct: 20,
  saturatedPct: 2,
}

export interface WindowQuality {
  flags: QualityFlag[]
  invalidPct: number
  flatPct: number
  saturatedPct: number
  /** Kurtosis of the QRS-band slope (null when fewer than 4 valid slope values). */
  slopeKurtosis: number | null
}

const round2 = (x: number) => Math.round(x * 100) / 100

/** Share (%) of samples in 1 s pieces whose range is below flatMv (a last piece under 0.5 s joins the one before). */
function flatShare(x: Float32Array, fs: number, flatMv: number): number {
  const piece = Math.max(1, Math.round(fs))
  let flat = 0
  for (let start = 0; start < x.length; ) {
    let end = Math.min(x.length, start + piece)
    if (x.length - end < piece / 2) end = x.length
    let lo = Infinity
    let hi = -Infinity
    for (let i = start; i < end; i++) {
      const v = x[i]
      if (v < lo) lo = v
      if (v > hi) hi = v
    }
    // All-invalid pieces (lo stays Infinity) are counted by the invalid check, not here.
    if (hi >= lo && hi - lo < flatMv) flat += end - start
    start = end
  }
  return (100 * flat) / Math.max(1, x.length)
}

/** Share (%) of samples in runs of >= minRun equal values at the window's maximum or minimum. */
function saturatedShare(x: Float32Array, lo: number, hi: number, minRun: number): number {
  let count = 0
  let run = 0
  for (let i = 0; i <= x.length; i++) {
    const v = i < x.length ? x[i] : NaN
    if (run > 0 && v === x[i - 1]) {
      run++
      continue
    }
    if (run >= minRun && (x[i - 1] === hi || x[i - 1] === lo)) count += run
    run = v === hi || v === lo ? 1 : 0
  }
  return (100 * count) / Math.max(1, x.length)
}

/**
 * The QRS-band slope: the mean over `lag` samples minus the mean over the `lag` samples before
 * (a smoothed first difference peaking near fs / (2 lag) Hz; with lag = 20 ms, 25 Hz), where
 * both stretches are free of invalid samples. The smoothing keeps white noise from swamping the
 * QRS slopes the way a raw sample-to-sample difference would.
 */
function smoothedSlope(x: Float32Array, lag: number): Float64Array {
  const d = new Float64Array(Math.max(0, x.length - 2 * lag + 1))
  let n = 0
  let a = 0 // sum of x[i - 2 lag + 1 .. i - lag]
  let b = 0 // sum of x[i - lag + 1 .. i]
  let bad = 0 // invalid samples among the 2 lag samples
  for (let i = 0; i < x.length; i++) {
    const v = x[i]
    const ok = Number.isFinite(v)
    if (!ok) bad++
    else b += v
    if (i >= lag) {
      const m = x[i - lag]
      if (Number.isFinite(m)) {
        b -= m
        a += m
      }
    }
    if (i >= 2 * lag) {
      const m = x[i - 2 * lag]
      if (Number.isFinite(m)) a -= m
      else bad--
    }
    if (i >= 2 * lag - 1 && bad === 0) d[n++] = (b - a) / lag
  }
  return d.subarray(0, n)
}

/** Kurtosis (not excess) of a series; null when under 4 values or constant. */
function kurtosis(d: Float64Array): number | null {
  const n = d.length
  if (n < 4) return null
  let mean = 0
  for (let i = 0; i < n; i++) mean += d[i]
  mean /= n
  let m2 = 0
  let m4 = 0
  for (let i = 0; i < n; i++) {
    const c = (d[i] - mean) * (d[i] - mean)
    m2 += c
    m4 += c * c
  }
  m2 /= n
  m4 /= n
  return m2 > 0 ? m4 / (m2 * m2) : null
}

/**
 * How periodic the slope's energy is: the largest autocorrelation of |slope| (averaged over
 * 20 ms bins, mean removed) at lags of 0.2 to 2 s, i.e. rhythms of 30 to 300 per minute. A
 * fast wide-complex rhythm (ventricular tachycardia, flutter) has a near-Gaussian slope like
 * noise, but repeats itself. Measured: synthetic VT at 180 and 200 bpm 0.92 and 0.97; white
 * noise 0.09; MIT-BIH 100 with 0.6 mV of added noise 0.18-0.31; a synthetic ECG under 0.5 mV of
 * noise 0.35; record 101's noisy V1 stretches 0.23-0.49. The threshold (0.5) leaves a rhythm in.
 */
function periodicity(d: Float64Array, fs: number): number {
  const bin = Math.max(1, Math.round(0.02 * fs))
  const m = Math.floor(d.length / bin)
  const e = new Float64Array(m)
  let mean = 0
  for (let k = 0; k < m; k++) {
    let sum = 0
    for (let i = k * bin; i < (k + 1) * bin; i++) sum += Math.abs(d[i])
    e[k] = sum / bin
    mean += e[k]
  }
  mean /= Math.max(1, m)
  let energy = 0
  for (let k = 0; k < m; k++) {
    e[k] -= mean
    energy += e[k] * e[k]
  }
  if (energy === 0) return 0
  let best = 0
  const lo = Math.max(1, Math.round(0.2 / 0.02))
  const hi = Math.min(m - 1, Math.round(2 / 0.02))
  for (let lagBins = lo; lagBins <= hi; lagBins++) {
    let r = 0
    for (let k = 0; k + lagBins < m; k++) r += e[k] * e[k + lagBins]
    best = Math.max(best, r / energy)
  }
  return best
}

/** Assesses one window of one lead sampled at fs Hz (samples in mV, NaN = invalid). */
export function assessWindow(x: Float32Array, fs: number, options: Partial<QualityOptions> = {}): WindowQuality {
  const o = { ...DEFAULT_QUALITY_OPTIONS, ...options }
  let invalid = 0
  let lo = Infinity
  let hi = -Infinity
  for (let i = 0; i < x.length; i++) {
    const v = x[i]
    if (!Number.isFinite(v)) invalid++
    else {
      if (v < lo) lo = v
      if (v > hi) hi = v
    }
  }
  const invalidPct = (100 * invalid) / Math.max(1, x.length)
  const flatPct = flatShare(x, fs, o.flatMv)
  const minRun = Math.max(3, Math.round((o.saturationMs * fs) / 1000))
  const saturatedPct = hi - lo >= 10 * o.flatMv ? saturatedShare(x, lo, hi, minRun) : 0
  const slope = smoothedSlope(x, Math.max(1, Math.round(0.02 * fs)))
  const kurt = kurtosis(slope)
  const flags: QualityFlag[] = []
  if (invalidPct > o.invalidPct) flags.push('invalid')
  if (flatPct > o.flatPct) flags.push('flat')
  if (saturatedPct > o.saturatedPct) flags.push('saturated')
  // Flat and invalid windows have no meaningful derivative statistics.
  // A regular rhythm is not noise, however Gaussian its slope (VT, flutter: see periodicity).
  if (kurt !== null && kurt < o.noiseKurtosis && !flags.includes('flat') && !flags.includes('invalid') && periodicity(slope, fs) < o.rhythmCorr) flags.push('noisy')
  return { flags, invalidPct: round2(invalidPct), flatPct: round2(flatPct), saturatedPct: round2(saturatedPct), slopeKurtosis: kurt === null ? null : round2(kurt) }
}
