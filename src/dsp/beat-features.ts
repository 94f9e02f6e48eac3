// Morphology features of one beat window (beat-window.ts grid, baseline removed) for the beat
// classifier. The QRS "span" is the time holding the central 80 % of the slope energy (squared
// first difference) from 100 ms before to 150 ms after the beat: unlike onset/offset thresholds
// it needs no fiducial points and hardly moves with noise or amplitude; it is shorter than the
// clinical QRS duration (about 30 ms for a normal beat, 90-120 ms for a PVC on MIT-BIH 208).
// Template matching is most of the classifier's time (a beat meets up to 8 templates at 13
// shifts), so the work is split by what it depends on: the template's centred values and
// variance change only when the template does (centreTemplate), the beat's variance at each
// shift is computed once per beat (shiftVariances), and the covariances of several shifts are
// summed in one pass (independent sums, so the CPU overlaps them). Every sum keeps the order of
// the plain definition (see matchTemplate in the tests), so the results are identical to it.
import { at, GRID_HZ } from './beat-window.ts'

/** Grid range compared between a beat and a template: the QRS and the start of ST-T. */
export const MATCH_FROM = at(-100)
export const MATCH_TO = at(180)
/** Largest alignment shift tried when matching, grid samples (+-24 ms). */
export const MAX_SHIFT = 6
/** Number of shifts tried, -MAX_SHIFT..MAX_SHIFT. */
export const SHIFTS = 2 * MAX_SHIFT + 1
/** Length of the match range; a template keeps only this part of its wave (nothing else is compared). */
export const MATCH_LEN = MATCH_TO - MATCH_FROM

export interface BeatShape {
  wave: Float64Array
  /** Span of the central 80 % of the QRS slope energy, ms. */
  spanMs: number
  /** QRS peak-to-peak, mV (80 ms before to 100 ms after the beat). */
  ptp: number
  /** Peak-to-peak of the flattest 40 ms before the QRS, mV (noise where there should be none). */
  baselinePtp: number
  /**
   * Mean |second difference| before (-250..-60 ms) and after (200..440 ms) the QRS, the smaller
   * of the two, per mV of QRS: P, T and baseline are smooth there, muscle noise and spikes are not.
   */
  noise: number
}

/** measureShape's ranges on the grid (exported so the WebAssembly kernels' layout is checked against them). */
export const SHAPE_RANGES = Object.freeze({ SPAN_FROM: at(-100), SPAN_TO: at(150), PTP_FROM: at(-80), PTP_TO: at(100), PRE_NOISE: [at(-250) + 1, at(-60)] as const, POST_NOISE: [at(200), at(440)] as const })
const { SPAN_FROM, SPAN_TO, PTP_FROM, PTP_TO, PRE_NOISE, POST_NOISE } = SHAPE_RANGES

/** Measures span, amplitude and noise of `shape.wave` into `shape` (baselinePtp is the caller's). */
export function measureShape(shape: BeatShape): void {
  const wave = shape.wave
  let total = 0
  for (let k = SPAN_FROM; k < SPAN_TO; k++) total += slope2(wave, k)
  let cum = 0
  let k10 = SPAN_FROM
  let k90 = SPAN_FROM
  for (let k = SPAN_FROM; k < SPAN_TO; k++) {
    cum += slope2(wave, k)
    if (cum < 0.1 * total) k10 = k
    if (cum < 0.9 * total) k90 = k
  }
  let lo = Infinity
  let hi = -Infinity
  for (let k = PTP_FROM; k <= PTP_TO; k++) {
    lo = Math.min(lo, wave[k])
    hi = Math.max(hi, wave[k])
  }
  const ptp = hi - lo
  const noise = Math.min(roughness(wave, PRE_NOISE[0], PRE_NOISE[1]), roughness(wave, POST_NOISE[0], POST_NOISE[1]))
  shape.spanMs = ((k90 - k10) * 1000) / GRID_HZ
  shape.ptp = ptp
  shape.noise = ptp > 0 ? noise / ptp : Infinity
}

function roughness(w: Float64Array, from: number, to: number): number {
  let sum = 0
  for (let k = from; k < to; k++) sum += Math.abs(w[k + 1] - 2 * w[k] + w[k - 1])
  return sum / (to - from)
}

function slope2(w: Float64Array, k: number): number {
  const d = w[k + 1] - w[k - 1]
  return d * d
}

export interface Match {
  /** Pearson correlation over MATCH_FROM..MATCH_TO at the best shift. */
  corr: number
  /** Shift (grid samples) of the beat against the template at the best correlation. */
  shift: number
}

/** A template's match range, centred on its mean, and its sum of squares there. */
export interface CentredTemplate {
  /** range[k] - mean, for k < MATCH_LEN. */
  centred: Float64Array
  variance: number
  /** The template's running average over the match range, which `centred` was centred from (beat-match.ts keeps them together). */
  range: Float64Array
}

/** An empty CentredTemplate to fill with centreTemplate. */
export function createCentred(): CentredTemplate {
  return { centred: new Float64Array(MATCH_LEN), variance: 0, range: new Float64Array(MATCH_LEN) }
}

/** Centres a template's match range (MATCH_LEN values) into `out`; again whenever it changes. */
export function centreTemplate(range: Float64Array, out: CentredTemplate): void {
  let mean = 0
  for (let k = 0; k < MATCH_LEN; k++) mean += range[k]
  mean /= MATCH_LEN
  let variance = 0
  for (let k = 0; k < MATCH_LEN; k++) {
    const c = range[k] - mean
    out.centred[k] = c
    variance += c ** 2
  }
  out.variance = variance
}

/**
 * The beat's sum of squares about its mean over the match range moved by each shift d, into
 * out[d + MAX_SHIFT] (SHIFTS values): the part of the correlation that no template changes.
 */
export function shiftVariances(beat: Float64Array, out: Float64Array): void {
  // Seven shifts per pass, as in matchCentred: first the sums, then the sums of squares.
  for (let d = -MAX_SHIFT; d <= MAX_SHIFT; d += 7) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0
    let j = MATCH_FROM + d
    let b0 = beat[j], b1 = beat[j + 1], b2 = beat[j + 2], b3 = beat[j + 3], b4 = beat[j + 4], b5 = beat[j + 5]
    for (let k = 0; k < MATCH_LEN; k++, j++) {
      const b6 = beat[j + 6]
      s0 += b0; s1 += b1; s2 += b2; s3 += b3; s4 += b4; s5 += b5; s6 += b6
      b0 = b1; b1 = b2; b2 = b3; b3 = b4; b4 = b5; b5 = b6
    }
    let q0 = 0, q1 = 0, q2 = 0, q3 = 0, q4 = 0, q5 = 0, q6 = 0
    j = MATCH_FROM + d
    b0 = beat[j]; b1 = beat[j + 1]; b2 = beat[j + 2]; b3 = beat[j + 3]; b4 = beat[j + 4]; b5 = beat[j + 5]
    for (let k = 0; k < MATCH_LEN; k++, j++) {
      const b6 = beat[j + 6]
      q0 += b0 * b0; q1 += b1 * b1; q2 += b2 * b2; q3 += b3 * b3; q4 += b4 * b4; q5 += b5 * b5; q6 += b6 * b6
      b0 = b1; b1 = b2; b2 = b3; b3 = b4; b4 = b5; b5 = b6
    }
    const e = d + MAX_SHIFT
    setVariance(out, e, s0, q0)
    setVariance(out, e + 1, s1, q1)
    setVariance(out, e + 2, s2, q2)
    setVariance(out, e + 3, s3, q3)
    setVariance(out, e + 4, s4, q4)
    setVariance(out, e + 5, s5, q5)
    setVariance(out, e + 6, s6, q6)
  }
}

function setVariance(out: Float64Array, e: number, sum: number, sum2: number): void {
  if (e < SHIFTS) out[e] = sum2 - (sum * sum) / MATCH_LEN
}

/**
 * Best Pearson correlation of `beat` with a centred template over shifts of at most MAX_SHIFT
 * (the first best, from -MAX_SHIFT up), into `out`. `variances` is shiftVariances(beat).
 */
export function matchCentred(beat: Float64Array, variances: Float64Array, t: CentredTemplate, out: Match): Match {
  // The template is centred, so the covariance needs no beat mean. Seven shifts per pass: each
  // covariance is its own sum in k order, the seven overlap in the CPU, and each beat sample is
  // read once per pass (it moves down b0..b6).
  const c = t.centred
  const tVar = t.variance
  out.corr = -1
  out.shift = 0
  for (let d = -MAX_SHIFT; d <= MAX_SHIFT; d += 7) {
    let c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0
    let j = MATCH_FROM + d
    let b0 = beat[j], b1 = beat[j + 1], b2 = beat[j + 2], b3 = beat[j + 3], b4 = beat[j + 4], b5 = beat[j + 5]
    for (let k = 0; k < MATCH_LEN; k++, j++) {
      const tk = c[k]
      const b6 = beat[j + 6]
      c0 += b0 * tk; c1 += b1 * tk; c2 += b2 * tk; c3 += b3 * tk; c4 += b4 * tk; c5 += b5 * tk; c6 += b6 * tk
      b0 = b1; b1 = b2; b2 = b3; b3 = b4; b4 = b5; b5 = b6
    }
    const e = d + MAX_SHIFT
    consider(out, e, c0, tVar, variances)
    consider(out, e + 1, c1, tVar, variances)
    consider(out, e + 2, c2, tVar, variances)
    consider(out, e + 3, c3, tVar, variances)
    consider(out, e + 4, c4, tVar, variances)
    consider(out, e + 5, c5, tVar, variances)
    consider(out, e + 6, c6, tVar, variances)
  }
  return out
}

// Takes shift index e (shift e - MAX_SHIFT) when it correlates better than the best so far.
function consider(out: Match, e: number, cov: number, tVar: number, variances: Float64Array): void {
  if (e >= SHIFTS) return
  const bVar = variances[e]
  const corr = tVar > 0 && bVar > 0 ? cov / Math.sqrt(tVar * bVar) : 0
  if (corr > out.corr) {
    out.corr = corr
    out.shift = e - MAX_SHIFT
  }
}

/**
 * Moves a template's match range towards the beat (aligned by `shift`) by `weight`, in place.
 * The shifted range stays inside the beat's window (MAX_SHIFT grid samples either side).
 */
export function blendInto(range: Float64Array, beat: Float64Array, shift: number, weight: number): void {
  for (let k = 0; k < MATCH_LEN; k++) range[k] += weight * (beat[MATCH_FROM + k + shift] - range[k])
}
