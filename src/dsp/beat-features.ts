// Morphology features of one beat window (beat-window.ts grid, baseline removed) for the beat
// classifier. The QRS "span" is the time holding the central 80 % of the slope energy (squared
// first difference) from 100 ms before to 150 ms after the beat: unlike onset/offset thresholds
// it needs no fiducial points and hardly moves with noise or amplitude; it is shorter than the
// clinical QRS duration (about 30 ms for a normal beat, 90-120 ms for a PVC on MIT-BIH 208).
import { at, GRID_HZ, WINDOW_LEN } from './beat-window.ts'

/** Grid range compared between a beat and a template: the QRS and the start of ST-T. */
export const MATCH_FROM = at(-100)
export const MATCH_TO = at(180)
/** Largest alignment shift tried when matching, grid samples (+-24 ms). */
export const MAX_SHIFT = 6

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

/** Span and amplitude of a beat window. */
export function beatShape(wave: Float64Array, baselinePtp: number): BeatShape {
  const a = at(-100)
  const b = at(150)
  let total = 0
  for (let k = a; k < b; k++) total += slope2(wave, k)
  let cum = 0
  let k10 = a
  let k90 = a
  for (let k = a; k < b; k++) {
    cum += slope2(wave, k)
    if (cum < 0.1 * total) k10 = k
    if (cum < 0.9 * total) k90 = k
  }
  let lo = Infinity
  let hi = -Infinity
  for (let k = at(-80); k <= at(100); k++) {
    lo = Math.min(lo, wave[k])
    hi = Math.max(hi, wave[k])
  }
  const ptp = hi - lo
  const noise = Math.min(roughness(wave, at(-250) + 1, at(-60)), roughness(wave, at(200), at(440)))
  return { wave, spanMs: ((k90 - k10) * 1000) / GRID_HZ, ptp, baselinePtp, noise: ptp > 0 ? noise / ptp : Infinity }
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
  /** Beat QRS peak-to-peak over the template's, at that alignment (least squares gain). */
  gain: number
}

/** Best Pearson correlation of `beat` with `template` over shifts of at most MAX_SHIFT. */
export function matchTemplate(beat: Float64Array, template: Float64Array): Match {
  const n = MATCH_TO - MATCH_FROM
  let tMean = 0
  for (let k = MATCH_FROM; k < MATCH_TO; k++) tMean += template[k]
  tMean /= n
  let tVar = 0
  for (let k = MATCH_FROM; k < MATCH_TO; k++) tVar += (template[k] - tMean) ** 2
  const best: Match = { corr: -1, shift: 0, gain: 0 }
  for (let d = -MAX_SHIFT; d <= MAX_SHIFT; d++) {
    // The template is centred, so the covariance needs no beat mean; the beat's variance does.
    let sum = 0
    let sum2 = 0
    let cov = 0
    for (let k = MATCH_FROM; k < MATCH_TO; k++) {
      const b = beat[k + d]
      sum += b
      sum2 += b * b
      cov += b * (template[k] - tMean)
    }
    const bVar = sum2 - (sum * sum) / n
    const corr = tVar > 0 && bVar > 0 ? cov / Math.sqrt(tVar * bVar) : 0
    if (corr > best.corr) {
      best.corr = corr
      best.shift = d
      best.gain = tVar > 0 ? Math.sqrt(bVar / tVar) : 0
    }
  }
  return best
}

/** Moves `template` towards the beat (aligned by `shift`) by `weight`, in place. */
export function blendInto(template: Float64Array, beat: Float64Array, shift: number, weight: number): void {
  for (let k = 0; k < WINDOW_LEN; k++) {
    const j = Math.min(WINDOW_LEN - 1, Math.max(0, k + shift))
    template[k] += weight * (beat[j] - template[k])
  }
}
