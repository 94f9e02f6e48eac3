// Front end of the QRS detector (qrs-detector.ts): Pan & Tompkins 1985 (IEEE TBME 32(3):230-236),
// band-pass 5-15 Hz -> five-point derivative -> squaring -> 150 ms moving-window integration.
// The band-pass is a causal Butterworth pair (2nd-order high-pass at 5 Hz, 2nd-order low-pass at
// 15 Hz) designed for any fs, instead of the paper's integer filters that only fit 200 Hz. All
// state lives in the returned object, and every output sample depends only on the samples before
// it in the same order of operations, so the output does not depend on how the input is blocked.
import { designButterworth, type Sos } from './butterworth.ts'
import { createSosFilter } from './sos-filter.ts'
import { createJsFrontEndBuffers, D1, HELD, POS } from './qrs-front-end-js.ts'
import { createWasmFrontEndBuffers } from './qrs-front-end-wasm.ts'

export interface QrsFrontEnd {
  /**
   * Takes block x; state carries to the next block. `raw` (x with invalid samples held) and `bp`
   * (band-passed) hold the `history` samples before x, then x's: x[k] is at history + k. They
   * are filled by scan(), up to the last sample it took (the JavaScript kernel fills them at
   * once). The arrays are views of buffers this object reuses: valid until the next call. Pass
   * the same `history` (at least 4) on every call, and scan the whole block before the next one.
   */
  load(x: Float32Array, history: number): { raw: Float32Array; bp: Float64Array }
  /**
   * Runs the front end and the peak picker (qrs-peaks.ts) over samples k0..k1-1 of the block
   * (k0 < k1), x[0] being sample `first`: stops after the sample at which a peak ends
   * (pick[PICK_PEAK] = 1) and returns the index of the last sample taken; pick[PICK_PREV] is its
   * integrated energy.
   */
  scan(k0: number, k1: number, first: number): number
  /** The peak picker's state (qrs-peaks.ts's layout); the caller may set its rising flag and height. */
  readonly pick: Float64Array
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

/** Which per-sample kernel runs: WebAssembly where available (the default), or JavaScript. */
export type QrsKernel = 'wasm' | 'js'

/** Creates the streaming front end for sampling rate fs. */
export function createQrsFrontEnd(fs: number, kernel: QrsKernel = 'wasm'): QrsFrontEnd {
  const sos = qrsBandpass(fs)
  if (sos.length !== 2) throw new Error(`QRS front end: the kernel runs 2 band-pass sections, qrsBandpass gave ${sos.length}`)
  const filter = createSosFilter(sos) // for its steady state; the kernel runs the sections
  const coef = Float64Array.from(sos.flat())
  const mwiWidth = Math.max(1, Math.round(0.15 * fs))
  // The WebAssembly kernel is bit-identical to the JavaScript one and faster (bench/results/qrs-speed.md).
  const allocate = (capacity: number, block: number) =>
    (kernel === 'wasm' ? createWasmFrontEndBuffers(coef, mwiWidth, capacity, block) : null) ?? createJsFrontEndBuffers(coef, mwiWidth, capacity, block)
  let buf = allocate(0, 0)
  let started = false
  let filled = 0 // samples of buf.raw/buf.bp written, history included
  let restarted = false // since reset(), before the next block
  return {
    delay: estimateDelay(fs),
    mwiWidth,
    reset() {
      started = false
      // Filter and derivative start afresh; the held value and the ring position carry over.
      buf.st.fill(0, 0, HELD)
      buf.st.fill(0, D1, POS)
      buf.sq.fill(0)
      restarted = true
    },
    get pick() {
      return buf.pick
    },
    scan(k0, k1, first) {
      return buf.scan(k0, k1, first)
    },
    load(x, history) {
      if (!(history >= 4)) throw new RangeError(`QRS front end: history must be at least 4 samples (the derivative's), found ${history}`)
      const n = x.length
      // Keep the last `history` samples before this block at the front (one copy per block).
      const keep = Math.min(history, filled)
      if (buf.raw.length < history + n || buf.block < n) {
        const next = allocate(history + n, n)
        next.st.set(buf.st)
        next.sq.set(buf.sq)
        next.raw.set(buf.raw.subarray(filled - keep, filled), history - keep)
        next.bp.set(buf.bp.subarray(filled - keep, filled), history - keep)
        buf = next
      } else {
        buf.raw.copyWithin(history - keep, filled - keep, filled)
        buf.bp.copyWithin(history - keep, filled - keep, filled)
      }
      filled = history + n
      // The WebAssembly kernel reads the derivative's past inputs from bp: zero after a reset, as
      // the state's are (placement never reads before the segment's start).
      if (restarted) buf.bp.fill(0, history - 4, history)
      restarted = false
      if (!started && n > 0) {
        filter.steady(buf.st, Number.isFinite(x[0]) ? x[0] : buf.st[HELD])
        started = true
      }
      // The paper's derivative is (2x[n] + x[n-1] - x[n-3] - 2x[n-4]) / 8 at 200 Hz; scaling by
      // fs keeps the energy comparable across rates (thresholds are adaptive anyway).
      buf.load(x, history, fs / 8)
      return { raw: buf.raw.subarray(0, filled), bp: buf.bp.subarray(0, filled) }
    },
  }
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
