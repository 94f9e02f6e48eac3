// The per-sample kernel of the QRS front end (qrs-front-end.ts) in JavaScript, with the buffers it
// writes: the fallback where WebAssembly SIMD is missing (qrs-front-end-wasm.ts runs the same
// operations in WebAssembly, bit-identical) and the reference its tests compare with.
import { PICK_SIZE, scanEnergy } from './qrs-peaks.ts'

/** The front end's buffers and the kernel that fills them (JavaScript or WebAssembly). */
export interface FrontEndBuffers {
  /** Scalar state (STATE_SIZE values, layout below). */
  readonly st: Float64Array
  /** The peak picker's part of the state (st from PICK, laid out as qrs-peaks.ts says). */
  readonly pick: Float64Array
  /** Energy ring of the moving-window integration (its width). */
  readonly sq: Float64Array
  /** Held input and band-passed signal: capacity values; the kernel writes them from `off`. */
  readonly raw: Float32Array
  readonly bp: Float64Array
  /** The most samples a block may have. */
  readonly block: number
  /** Takes block x (at most `block` samples), to be written to raw/bp from `off` (after at least 4 samples of history). */
  load(x: Float32Array, off: number, dScale: number): void
  /**
   * Runs the front end and the peak picker over the block's samples k0..k1-1 (k0 < k1), stopping
   * after the sample at which a peak ends (pick[PICK_PEAK] = 1); returns the index of the last
   * sample taken. raw and bp are written up to it. x[0] is sample `first` (absolute).
   */
  scan(k0: number, k1: number, first: number): number
}

// Scalar state of the kernel in one Float64Array: the two biquads' z0, z1 (indices 0-3, as
// createSosFilter lays them out), the last valid input, the derivative's last four inputs, the
// integration sum and ring position, then the peak picker's state (scripts/wasm-qrs-kernels.mjs
// uses the same layout).
export const HELD = 4, D1 = 5, POS = 10, PICK = 11, STATE_SIZE = PICK + PICK_SIZE
const D2 = 6, D3 = 7, D4 = 8, SUM = 9

/** Buffers in plain typed arrays, run by the JavaScript kernel. */
export function createJsFrontEndBuffers(coef: Float64Array, width: number, capacity: number, block: number): FrontEndBuffers {
  const st = new Float64Array(STATE_SIZE)
  const sq = new Float64Array(width)
  const raw = new Float32Array(capacity)
  const bp = new Float64Array(capacity)
  const mwi = new Float64Array(block)
  const pick = st.subarray(PICK)
  // The whole block's front end at once, then the picker over its energy (as before the WebAssembly kernel fused them).
  return {
    st, pick, sq, raw, bp, block,
    load: (x, off, dScale) => frontEndKernel(coef, st, sq, dScale, x, raw, bp, off, mwi),
    scan: (k0, k1, first) => scanEnergy(mwi, k0, k1, first, pick),
  }
}

// One pass per block: hold invalid samples, band-pass (two sections, the operations of
// sos-filter.ts in the same order), derivative, squaring and moving-window integration. Every
// state value is a local inside the loop: kept in closure variables, each write of a number would
// box it anew, and four passes over the block would read it four times.
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
