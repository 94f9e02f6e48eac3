// Beat placement for the QRS detector (qrs-detector.ts). The integrated energy peaks about one
// integration window after the QRS, delayed further by the band-pass, so the beat is placed in
// two steps: the band-pass extremum within the integration window before the energy peak, moved
// back by the band-pass delay, then the raw sample farthest from the local mean within +-60 ms
// (an R peak or, for a negative QRS, its deepest point; the mean removes baseline offset).
// The signals come from the front end's buffers (the current block and `history` samples
// before it), so nothing is copied per sample. Placement used to read a ring of `history`
// samples; an energy peak found over ~1.2 s after it (a long plateau) reached past the ring and
// read the newer samples that had overwritten those slots. That case keeps the ring's reading
// (`slot`), so beats stay the same as before.

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
  const mask = size - 1
  return {
    history: size,
    place(raw, bp, base, m, height, from, last) {
      const lo0 = Math.max(from, m - look)
      // The lowest sample read below is at least min(lo0, lo0 - delay - refine, from).
      if (Math.max(from, lo0 - delay - refine) > last - size) return placeIn(raw, bp, base, m, height, from, last, lo0, delay, refine)
      return placeAliased(raw, bp, base, m, height, from, last, lo0, delay, refine, mask)
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

// placeIn as the ring read it: sample i from the slot it shared with the newest sample written there.
function placeAliased(raw: Float32Array, bp: Float64Array, base: number, m: number, height: number, from: number, last: number, lo0: number, delay: number, refine: number, mask: number): QrsPeak {
  const slot = (i: number) => last - ((last - i) & mask) - base
  let pb = m
  let best = Math.abs(bp[slot(m)])
  let slope = 0
  let after = bp[slot(m)]
  for (let k = m; k >= lo0; k--) {
    const v = bp[slot(k)]
    if (Math.abs(v) > best) {
      pb = k
      best = Math.abs(v)
    }
    if (k < m) slope = Math.max(slope, Math.abs(after - v))
    after = v
  }
  const c = pb - delay
  const lo = Math.max(from, c - refine)
  const hi = Math.min(last, c + refine)
  let mean = 0
  for (let k = lo; k <= hi; k++) mean += raw[slot(k)]
  mean /= Math.max(1, hi - lo + 1)
  let at = Math.max(lo, Math.min(hi, c))
  let far = Math.abs(raw[slot(at)] - mean)
  for (let k = lo; k <= hi; k++) {
    const d = Math.abs(raw[slot(k)] - mean)
    if (d > far) {
      at = k
      far = d
    }
  }
  return { at, height, slope }
}
