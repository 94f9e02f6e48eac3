// Beat placement for the QRS detector (qrs-detector.ts). The integrated energy peaks about one
// integration window after the QRS, delayed further by the band-pass, so the beat is placed in
// two steps: the band-pass extremum within the integration window before the energy peak, moved
// back by the band-pass delay, then the raw sample farthest from the local mean within +-60 ms
// (an R peak or, for a negative QRS, its deepest point; the mean removes baseline offset).
// The signals come from the front end's buffers (the current block and `history` samples
// before it), so nothing is copied per sample. A peak found long after it (the energy stays high
// for seconds, a long plateau) is placed among the last `history` samples, the oldest the buffers
// hold whatever the blocking; a ring buffer used before read newer samples there, from the slots
// they had overwritten.

/** A peak of the integrated energy, placed on the raw signal. */
export interface QrsPeak {
  /** Refined beat sample (absolute). */
  at: number
  /** Height of the integrated-energy peak (what the thresholds compare). */
  height: number
  /** Steepest band-pass slope in the QRS window (Pan-Tompkins T-wave test). */
  slope: number
}

export interface QrsPlacer {
  /** Samples of the past that place() may read: the front end's history length. */
  readonly history: number
  /**
   * Places the energy peak found at sample m, looking no further back than `from` and no later
   * than `last` (the newest sample in the buffers). raw[i - base] and bp[i - base] are sample i.
   */
  place(raw: Float32Array, bp: Float64Array, base: number, m: number, height: number, from: number, last: number): QrsPeak
}

/** Creates the placement for sampling rate fs, band-pass delay and integration width (samples). */
export function createQrsPlacer(fs: number, delay: number, mwiWidth: number): QrsPlacer {
  const refine = Math.round(0.06 * fs)
  const look = mwiWidth + Math.round(0.05 * fs)
  let size = 1
  while (size < fs + 2 * look + delay + refine) size *= 2
  return {
    history: size,
    place(raw, bp, base, m, height, from, last) {
      const oldest = Math.max(from, last - size + 1)
      const at = Math.max(m, oldest)
      return placeIn(raw, bp, base, at, height, oldest, last, Math.max(oldest, at - look), delay, refine)
    },
  }
}

// The same comparisons as "keep the sample whose |value| is larger", with the best value and the
// previous sample kept in locals instead of read back from the buffers each time. Indices are
// relative to the buffers (small integers: `| 0` keeps them int32 for V8), and a running maximum
// is an `if` instead of Math.max (the same result: no value here is NaN or -0).
function placeIn(raw: Float32Array, bp: Float64Array, base: number, m: number, height: number, from: number, last: number, lo0: number, delay: number, refine: number): QrsPeak {
  const mb = (m - base) | 0
  let pb = mb
  let after = bp[mb]
  let best = Math.abs(after)
  let slope = 0
  for (let k = mb - 1, end = (lo0 - base) | 0; k >= end; k--) {
    const v = bp[k]
    const a = Math.abs(v)
    if (a > best) {
      pb = k
      best = a
    }
    const s = Math.abs(after - v)
    if (s > slope) slope = s
    after = v
  }
  const c = (pb - delay) | 0
  const lo = (Math.max(from - base, c - refine)) | 0
  const hi = (Math.min(last - base, c + refine)) | 0
  let mean = 0
  for (let k = lo; k <= hi; k++) mean += raw[k]
  mean /= Math.max(1, hi - lo + 1)
  let at = Math.max(lo, Math.min(hi, c))
  let far = Math.abs(raw[at] - mean)
  for (let k = lo; k <= hi; k++) {
    const d = Math.abs(raw[k] - mean)
    if (d > far) {
      at = k
      far = d
    }
  }
  return { at: at + base, height, slope }
}
