// Waveform delineation of one beat: P onset, peak and offset, QRS onset and offset, Q and S
// peaks, T peak and offset, each a sample index or null where the beat shows none.
//
// The method is peak based, as the clinical reading of a beat is: around the R peak the beat's
// window runs from 35 % of the RR interval before it to 65 % after it (the share of the cycle
// the P wave and the T wave occupy at any rate). In it,
//   Q  the last trough before R, S the first trough after R,
//   P  the most prominent peak before Q (no Q, no P: a beat whose QRS starts without a Q trough
//      before its R is, in a lead like MLII, mostly a ventricular beat, which has no conducted P),
//   T  the most prominent peak after S,
// where a peak or trough counts only when its prominence (its height above the higher of the two
// lowest points that separate it from higher ground, within the segment searched) is at least 5 %
// of that segment's range, so ripple is not a wave. P onset is the point of sharpest upward bend
// (the largest second difference of the lightly smoothed signal) before P, T offset the same after
// T, P offset the same between P and the QRS onset. The QRS onset and offset are where the
// complex's first and last strokes gather and lose pace: from the steepest stroke into Q (or up to
// R) and out of S (or down from R), the first sample outward whose slope falls below 30 % of it.
// Wavelet delineators (Martínez et al. 2004) find the same points from the zero crossings of a
// multiscale transform; a peak-based reading needs no resampling, runs beat by beat on a short
// window, and its rules can be read and checked.
// Pure: reads the signal through `at`, writes nothing.

export interface BeatWaves {
  pOnset: number | null
  pPeak: number | null
  pOffset: number | null
  qrsOnset: number | null
  qPeak: number | null
  sPeak: number | null
  qrsOffset: number | null
  tPeak: number | null
  tOffset: number | null
}

export interface BeatSignal {
  /** The value at a sample index (NaN outside what is held). */
  at(sample: number): number
  /** First and one-past-last sample index held. */
  start: number
  end: number
}

/** Share of the RR interval before R the beat's window starts, and after it that the window ends. */
export const PRE_SHARE = 0.35
export const POST_SHARE = 0.65
const MIN_PROMINENCE = 0.05
const STROKE_SHARE = 0.3
const SLOPE_MS = 4

/** The window of the beat at `r` for an RR interval of `rr` samples: [from, to], both inclusive. */
export function beatWindow(r: number, rr: number): { from: number; to: number } {
  return { from: r - Math.round(PRE_SHARE * rr), to: r + Math.round(POST_SHARE * rr) }
}

/**
 * Peaks (sign 1) or troughs (sign -1) of x over [a, b] with prominence at least `share` of the
 * segment's range, in order, each with its prominence. A flat top counts once, at its middle.
 */
export function prominentPeaks(x: BeatSignal, a: number, b: number, sign: 1 | -1, share = MIN_PROMINENCE): { at: number; prominence: number }[] {
  if (b - a < 2) return []
  const v = new Float64Array(b - a + 1)
  let lo = Infinity
  let hi = -Infinity
  for (let i = a; i <= b; i++) {
    const y = sign * x.at(i)
    v[i - a] = y
    if (y < lo) lo = y
    if (y > hi) hi = y
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || v.some((y) => Number.isNaN(y))) return []
  const min = share * (hi - lo)
  const out: { at: number; prominence: number }[] = []
  const n = v.length
  for (let i = 1; i < n - 1; i++) {
    if (!(v[i] > v[i - 1])) continue
    let j = i
    while (j + 1 < n - 1 && v[j + 1] === v[i]) j++
    if (!(v[j + 1] < v[i])) { i = j; continue }
    const peak = (i + j) >> 1
    let left = v[i]
    for (let k = i - 1; k >= 0 && v[k] <= v[i]; k--) left = Math.min(left, v[k])
    let right = v[i]
    for (let k = j + 1; k < n && v[k] <= v[i]; k++) right = Math.min(right, v[k])
    const prominence = v[i] - Math.max(left, right)
    if (prominence >= min && prominence > 0) out.push({ at: a + peak, prominence })
    i = j
  }
  return out
}

const mostProminent = (ps: { at: number; prominence: number }[]) => (ps.length ? ps.reduce((m, p) => (p.prominence > m.prominence ? p : m)).at : null)

// The sample of sharpest upward bend over [a, b]: the largest second difference of x smoothed by
// a moving average of `w` samples applied twice (a triangle), so one noisy sample does not win.
function sharpestBend(x: BeatSignal, a: number, b: number, w: number): number | null {
  if (b - a < 3) return null
  const h = Math.max(0, Math.floor(w / 2))
  const n = b - a + 1
  const raw = new Float64Array(n)
  for (let i = 0; i < n; i++) raw[i] = x.at(a + i)
  if (raw.some((y) => Number.isNaN(y))) return null
  const box = (src: Float64Array) => {
    const out = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      let s = 0
      let c = 0
      for (let k = Math.max(0, i - h); k <= Math.min(n - 1, i + h); k++) { s += src[k]; c++ }
      out[i] = s / c
    }
    return out
  }
  const s = box(box(raw))
  let best = -Infinity
  let at: number | null = null
  for (let i = 1; i < n - 1; i++) {
    const d2 = s[i + 1] - 2 * s[i] + s[i - 1]
    if (d2 > best) { best = d2; at = a + i }
  }
  return at
}

// The slope at i over +-h samples: a derivative that a sample of noise does not steer.
const slope = (x: BeatSignal, i: number, h: number) => (x.at(i + h) - x.at(i - h)) / (2 * h)

// A QRS edge: the stroke that opens (closes) the complex is found as the steepest slope of the
// given sign between `a` and `b`, and the edge is where, going outward from it, the slope first
// falls below `share` of that stroke's: the complex starts (ends) where its first (last) stroke
// gathers (loses) pace. dir -1 walks back from the stroke to an onset, +1 forward to an offset.
function strokeEdge(x: BeatSignal, a: number, b: number, sign: 1 | -1, dir: -1 | 1, h: number, share: number, limit: number): number | null {
  let best = 0
  let at = -1
  for (let i = a; i <= b; i++) {
    const s = sign * slope(x, i, h)
    if (s > best) { best = s; at = i }
  }
  if (at < 0) return null
  for (let i = at; dir < 0 ? i >= limit : i <= limit; i += dir) if (!(sign * slope(x, i, h) >= share * best)) return i
  return null
}

/** Delineates the beat at R peak `r` with RR interval `rr` (samples) on a signal sampled at `fs` Hz. */
export function delineateBeat(x: BeatSignal, r: number, rr: number, fs: number): BeatWaves {
  const win = beatWindow(r, rr)
  const from = Math.max(win.from, x.start + 1)
  const to = Math.min(win.to, x.end - 2)
  const qs = prominentPeaks(x, from, r, -1).filter((p) => p.at < r)
  const qPeak = qs.length ? qs[qs.length - 1].at : null
  const pPeak = qPeak === null ? null : mostProminent(prominentPeaks(x, from, qPeak - 1, 1))
  const ss = prominentPeaks(x, r, to, -1).filter((p) => p.at > r)
  const sPeak = ss.length ? ss[0].at : null
  const tPeak = sPeak === null ? null : mostProminent(prominentPeaks(x, sPeak, to, 1))
  // The onset is found from the stroke into Q where there is one, else from R's upstroke; the
  // offset from the stroke out of S, else from R's downstroke. A QRS spans at most 200 ms either
  // side of R even when wide.
  const reach = Math.round(0.2 * fs)
  const h = Math.max(1, Math.round((SLOPE_MS * fs) / 1000))
  const lo = Math.max(from + h, r - reach, (pPeak ?? -Infinity) + 1)
  const hi = Math.min(to - h, r + reach, (tPeak ?? Infinity) - 1)
  // The stroke into Q is the 50 ms before it, out of S the 50 ms after it; an S more than 100 ms
  // after R is a later trough (a notched T, a U), not the complex's.
  const stroke = Math.round(0.05 * fs)
  const sNear = sPeak !== null && sPeak - r <= Math.round(0.1 * fs) ? sPeak : null
  const qrsOnset = qPeak !== null ? strokeEdge(x, Math.max(lo, qPeak - stroke), qPeak, -1, -1, h, STROKE_SHARE, lo) : strokeEdge(x, Math.max(lo, r - 2 * stroke), r, 1, -1, h, STROKE_SHARE, lo)
  const qrsOffset = sNear !== null ? strokeEdge(x, sNear, Math.min(hi, sNear + stroke), 1, 1, h, STROKE_SHARE, hi) : strokeEdge(x, r, Math.min(hi, r + 2 * stroke), -1, 1, h, STROKE_SHARE, hi)
  const smooth = Math.max(1, Math.round((r - from) / 10))
  const pOnset = pPeak === null ? null : sharpestBend(x, from, pPeak - 1, smooth)
  const pOffset = pPeak === null || qrsOnset === null || qrsOnset - pPeak < 3 ? null : sharpestBend(x, pPeak + 1, qrsOnset, smooth)
  const tOffset = tPeak === null ? null : sharpestBend(x, tPeak + 1, to, smooth)
  return { pOnset, pPeak, pOffset, qrsOnset, qPeak, sPeak, qrsOffset, tPeak, tOffset }
}
