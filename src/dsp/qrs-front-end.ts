// Front end of the QRS detector (qrs-detector.ts): Pan & Tompkins 1985 (IEEE TBME 32(3):230-236),
// band-pass 5-15 Hz -> five-point derivative -> squaring -> 150 ms moving-window integration.
// The band-pass is a causal Butterworth pair (2nd-order high-pass at 5 Hz, 2nd-order low-pass at
// 15 Hz) designed for any fs, instead of the paper's integer filters that only fit 200 Hz. All
// state lives in the returned object, and every output sample depends only on the samples before
// it in the same order of operations, so the output does not depend on how the input is blocked.
import { designButterworth, type Sos } from './butterworth.ts'
import { createSosFilter } from './sos-filter.ts'

export interface QrsFrontEnd {
  /**
   * Runs x through the front end; state carries to the next call. `raw` (x with invalid samples
   * held) and `bp` (band-passed) hold the `history` samples before x, then x's: x[k] is at
   * history + k. `mwi` (integrated energy) has x's samples only. The arrays are views of buffers
   * this object reuses: valid until the next call. Pass the same `history` on every call.
   */
  process(x: Float32Array, history: number): { raw: Float32Array; bp: Float64Array; mwi: Float64Array }
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
  const sos = qrsBandpass(fs)
  if (sos.length !== 2) throw new Error(`QRS front end: the kernel runs 2 band-pass sections, qrsBandpass gave ${sos.length}`)
  const filter = createSosFilter(sos) // for its steady state; the kernel below runs the sections
  const coef = Float64Array.from(sos.flat())
  const mwiWidth = Math.max(1, Math.round(0.15 * fs))
  const sq = new Float64Array(mwiWidth)
  const st = new Float64Array(STATE_SIZE)
  let started = false
  let rawBuf = new Float32Array(0)
  let bpBuf = new Float64Array(0)
  let mwiBuf = new Float64Array(0)
  let filled = 0 // samples of rawBuf/bpBuf written, history included
  return {
    delay: estimateDelay(fs),
    mwiWidth,
    reset() {
      started = false
      // Filter and derivative start afresh; the held value and the ring position carry over.
      st.fill(0, 0, HELD)
      st.fill(0, D1, POS)
      sq.fill(0)
    },
    process(x, history) {
      const n = x.length
      // Keep the last `history` samples before this block at the front (one copy per block).
      const keep = Math.min(history, filled)
      if (rawBuf.length < history + n) {
        const raw = new Float32Array(history + n)
        const bp = new Float64Array(history + n)
        raw.set(rawBuf.subarray(filled - keep, filled), history - keep)
        bp.set(bpBuf.subarray(filled - keep, filled), history - keep)
        rawBuf = raw
        bpBuf = bp
        mwiBuf = new Float64Array(n)
      } else {
        rawBuf.copyWithin(history - keep, filled - keep, filled)
        bpBuf.copyWithin(history - keep, filled - keep, filled)
      }
      filled = history + n
      const mwi = mwiBuf.subarray(0, n)
      if (!started && n > 0) {
        filter.steady(st, Number.isFinite(x[0]) ? x[0] : st[HELD])
        started = true
      }
      // The paper's derivative is (2x[n] + x[n-1] - x[n-3] - 2x[n-4]) / 8 at 200 Hz; scaling by
      // fs keeps the energy comparable across rates (thresholds are adaptive anyway).
      frontEndKernel(coef, st, sq, fs / 8, x, rawBuf, bpBuf, history, mwi)
      return { raw: rawBuf.subarray(0, filled), bp: bpBuf.subarray(0, filled), mwi }
    },
  }
}

// Scalar state of the kernel in one Float64Array: the two biquads' z0, z1 (indices 0-3, as
// createSosFilter lays them out), the last valid input, the derivative's last four inputs, the
// integration sum and ring position.
const HELD = 4, D1 = 5, D2 = 6, D3 = 7, D4 = 8, SUM = 9, POS = 10, STATE_SIZE = 11

// One pass per block: hold invalid samples, band-pass (two sections, the operations of
// sos-filter.ts in the same order), derivative, squaring and moving-window integration. Every
// state value is a local inside the loop: kept in closure variables, each write of a number boxed
// it anew (~50 ns/sample), and four passes over the block cost ~20 ns/sample more than one.
function frontEndKernel(c: Float64Array, st: Float64Array, sq: Float64Array, dScale: number, x: Float32Array, raw: Float32Array, bp: Float64Array, off: number, mwi: Float64Array): void {
  const p0 = c[0], p1 = c[1], p2 = c[2], pa1 = c[4], pa2 = c[5]
  const q0 = c[6], q1 = c[7], q2 = c[8], qa1 = c[10], qa2 = c[11]
  const width = sq.length
  let pz0 = st[0], pz1 = st[1], qz0 = st[2], qz1 = st[3]
  let held = st[HELD], d1 = st[D1], d2 = st[D2], d3 = st[D3], d4 = st[D4], sum = st[SUM]
  let pos = st[POS] | 0
  for (let k = 0; k < x.length; k++) {
    // Invalid samples (NaN) hold the last valid value: a step would ring through the filter.
    const v = x[k]
    if (Number.isFinite(v)) held = v
    raw[off + k] = held
    const u = p0 * held + pz0
    pz0 = p1 * held - pa1 * u + pz1
    pz1 = p2 * held - pa2 * u
    const b = q0 * u + qz0
    qz0 = q1 * u - qa1 * b + qz1
    qz1 = q2 * u - qa2 * b
    bp[off + k] = b
    const d = (2 * b + d1 - d3 - 2 * d4) * dScale
    d4 = d3
    d3 = d2
    d2 = d1
    d1 = b
    const e = d * d
    sum += e - sq[pos]
    sq[pos] = e
    if (++pos === width) pos = 0
    // A running sum can drift slightly below zero by rounding; energy never is.
    mwi[k] = sum > 0 ? sum / width : 0
  }
  st[0] = pz0
  st[1] = pz1
  st[2] = qz0
  st[3] = qz1
  st[HELD] = held
  st[D1] = d1
  st[D2] = d2
  st[D3] = d3
  st[D4] = d4
  st[SUM] = sum
  st[POS] = pos
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
