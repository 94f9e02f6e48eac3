// Beat placement for the QRS detector (qrs-detector.ts). The integrated energy peaks about one
// integration window after the QRS, delayed further by the band-pass, so the beat is placed in
// two steps: the band-pass extremum within the integration window before the energy peak, moved
// back by the band-pass delay, then the raw sample farthest from the local mean within +-60 ms
// (an R peak or, for a negative QRS, its deepest point; the mean removes baseline offset).
// The last second or so of both signals is kept in ring buffers, so memory does not grow.

/** A peak of the integrated energy, placed on the raw signal. */
export interface QrsPeak {
  /** Refined beat sample (absolute). */
  at: number
  /** Height of the integrated-energy peak (what the thresholds compare). */
  height: number
  /** Steepest band-pass slope in the QRS window (Pan-Tompkins T-wave test). */
  slope: number
}

export interface QrsRing {
  /** Stores sample n of the raw and band-passed signal. */
  write(n: number, raw: number, bp: number): void
  /** Places the energy peak found at sample m, looking no further back than `from` and no later than `last`. */
  place(m: number, height: number, from: number, last: number): QrsPeak
}

/** Creates the ring buffers for sampling rate fs, band-pass delay and integration width (samples). */
export function createQrsRing(fs: number, delay: number, mwiWidth: number): QrsRing {
  const refine = Math.round(0.06 * fs)
  const look = mwiWidth + Math.round(0.05 * fs)
  let size = 1
  while (size < fs + 2 * look + delay + refine) size *= 2
  const mask = size - 1
  const raw = new Float32Array(size)
  const bp = new Float64Array(size)
  return {
    write(n, x, b) {
      raw[n & mask] = x
      bp[n & mask] = b
    },
    place(m, height, from, last) {
      // The same comparisons as "keep the sample whose |value| is larger", with the best value
      // and the previous sample kept in locals instead of read back from the rings each time.
      const lo0 = Math.max(from, m - look)
      let pb = m
      let best = Math.abs(bp[m & mask])
      let slope = 0
      let after = bp[m & mask]
      for (let k = m; k >= lo0; k--) {
        const v = bp[k & mask]
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
      for (let k = lo; k <= hi; k++) mean += raw[k & mask]
      mean /= Math.max(1, hi - lo + 1)
      let at = Math.max(lo, Math.min(hi, c))
      let far = Math.abs(raw[at & mask] - mean)
      for (let k = lo; k <= hi; k++) {
        const d = Math.abs(raw[k & mask] - mean)
        if (d > far) {
          at = k
          far = d
        }
      }
      return { at, height, slope }
    },
  }
}
