// Streaming zero-phase (forward-backward) filtering, equal to scipy `sosfiltfilt` / `filtfilt`
// (method "pad") over an unbounded stream with bounded look-ahead (`clean`).
//
// Forward pass: causal, exact, state carried across blocks. Start of a segment exactly as scipy:
// the first padlen+1 samples are held, the odd extension 2*x[0] - x[padlen..1] is prepended and
// the forward state starts at steady(ext[0]) (scipy's zi * x0).
// Backward pass: anti-causal, so it cannot be exact before the stream ends. The forward output is
// buffered; once the buffer holds `margin + chunk` samples, the backward filter starts at the
// buffer's last sample from steady(y_last) (as scipy does at the true end) and runs back to the
// start; only the first `chunk` outputs are emitted, the `margin` newest are kept and redone in
// the next window. The backward state error at an emitted sample has decayed over >= margin
// samples, i.e. by rMax^margin, rMax = largest pole radius: `decayMargin` sizes the margin from
// a tolerance (default 1e-9 relative to the forward output's level: 21.35 s at any fs for the
// 0.5 Hz 5th-order high-pass, 7,685 samples at 360 Hz). Window positions depend only on sample
// indices, so output is identical for any input block size. At `finish` (end of record or gap),
// the odd extension of the last padlen+1 samples is appended and the backward pass runs from
// steady(y_end), exactly as scipy.
// With a pair kernel (an SOS filter where WebAssembly SIMD runs: sos-pair.ts), a full window's
// backward pass runs alongside the forward pass over the next chunk, in the two lanes of SIMD
// registers, and the window is emitted when the next one is full (or at finish).
// Memory: at most margin + chunk forward outputs (with a pair kernel, plus the pending window's
// chunk) plus 2*(padlen+1) raw samples.
// Latency: a sample is emitted between `margin` and `margin + chunk - 1` samples after it arrives,
// a chunk later with a pair kernel (default chunk = margin: 21.3-42.7 s for the 0.5 Hz high-pass).
// Cost: the backward pass covers (margin + chunk) / chunk samples per output sample, so a larger
// chunk trades memory and latency for speed (clean.ts uses 4 margins: 1.25 instead of 2); with
// a pair kernel all but (margin / chunk) of it rides along with the forward pass.
// Short segments (N <= padlen, where scipy raises "x must be longer than padlen") use padlen N-1.
import type { Sos } from './butterworth.ts'
import type { LinearFilter } from './sos-filter.ts'
import { concatSamples } from './concat-samples.ts'

export interface ZeroPhaseSpec {
  filter: LinearFilter
  /** Odd-extension length at each edge (scipy's padlen). */
  padlen: number
  /** Samples of look-ahead kept so the backward pass has converged before a sample is emitted. */
  margin: number
  /** Samples emitted per backward window (default: margin, at least 1). */
  chunk?: number
  /**
   * push() may return a view of a buffer the next push() or finish() overwrites, instead of a
   * fresh array per window: for a caller that consumes each output at once (clean's filter
   * chain), it saves allocating a window of fresh memory (a quarter MB of page faults) per chunk.
   */
  reuseOutput?: boolean
}

export interface ZeroPhaseStream<Out extends Float64Array | Float32Array = Float64Array> {
  /** Feeds samples (copied, not kept); returns the outputs that are final, in order. */
  push(x: Float64Array | Float32Array): Out
  /** Ends the segment (scipy's right-edge handling) and returns the rest; the stream restarts clean. */
  finish(): Out
  /** Samples currently held (forward buffer plus start-up head). */
  held(): number
  /** Bound on held(): margin + chunk + padlen + 1. */
  readonly maxHeld: number
}

/** Largest pole radius of second-order sections. */
export function maxPoleRadius(sos: Sos): number {
  let r = 0
  for (const [, , , , a1, a2] of sos) {
    const disc = a1 * a1 - 4 * a2
    r = Math.max(r, disc < 0 ? Math.sqrt(a2) : Math.max(Math.abs((-a1 + Math.sqrt(disc)) / 2), Math.abs((-a1 - Math.sqrt(disc)) / 2)))
  }
  return r
}

/** Samples after which the slowest mode of `sos` has decayed below `tol` (the look-ahead margin). */
export function decayMargin(sos: Sos, tol = 1e-9): number {
  const r = maxPoleRadius(sos)
  if (!(r < 1)) throw new RangeError(`filter is not stable (pole radius ${r}); cannot size a zero-phase margin`)
  return r === 0 ? 1 : Math.ceil(Math.log(tol) / Math.log(r))
}

/** Creates a streaming forward-backward filter; see the file header for margin and latency. */
export function createZeroPhase(spec: ZeroPhaseSpec): ZeroPhaseStream {
  const { filter, padlen } = spec
  const margin = Math.max(0, Math.ceil(spec.margin))
  const chunk = Math.max(1, Math.ceil(spec.chunk ?? margin))
  const cap = margin + chunk
  // With a pair kernel (sos-pair.ts), the last full window is filtered backward in wbuf, in
  // place from `back` down, alongside the forward pass over the next samples, and its first
  // `chunk` values are emitted when it reaches 0; without one, right when it is full.
  const kernel = filter.pairKernel?.(cap) ?? null
  const fstate = kernel?.forwardState ?? new Float64Array(filter.stateSize)
  const bstate = kernel?.backwardState ?? new Float64Array(filter.stateSize)
  const ybuf = kernel?.forward ?? new Float64Array(cap)
  const wbuf = kernel?.backward ?? new Float64Array(cap)
  const emit = spec.reuseOutput ? new Float64Array(chunk) : null
  let pending = false
  let back = -1 // next index of wbuf to filter backward while pending
  const head = new Float64Array(padlen + 1)
  const ring = new Float64Array(padlen + 1) // last padlen+1 raw inputs, for the right extension
  let ylen = 0
  let headLen = 0
  let started = false
  let seen = 0 // raw samples in this segment

  const rawBack = (j: number) => ring[(seen - 1 - j) % ring.length] // x[N-1-j]

  function start(pad: number, out: Float64Array[]): void {
    const ext = new Float64Array(pad)
    for (let i = 0; i < pad; i++) ext[i] = 2 * head[0] - head[pad - i]
    filter.steady(fstate, pad > 0 ? ext[0] : head[0])
    filter.run(fstate, ext, ext, 0, pad, 1) // outputs at the left extension are never emitted
    started = true
    const h = head.slice(0, headLen)
    headLen = 0
    forward(h, out)
  }

  // Ends the pending backward window alone and emits its chunk.
  function finishBack(out: Float64Array[]): void {
    if (!pending) return
    if (back >= 0) filter.run(bstate, wbuf, wbuf, back, -1, -1)
    pending = false
    // (A push long enough to end two windows needs the first one copied.)
    if (!emit || out.includes(emit)) out.push(wbuf.slice(0, chunk))
    else {
      emit.set(wbuf.subarray(0, chunk))
      out.push(emit)
    }
  }

  function forward(x: Float64Array | Float32Array, out: Float64Array[]): void {
    for (let off = 0; off < x.length; ) {
      const k = Math.min(x.length - off, cap - ylen)
      ybuf.set(x.subarray(off, off + k), ylen)
      // Forward over the new samples; as far as they go, together with the pending backward window.
      const both = kernel && pending ? Math.min(k, back + 1) : 0
      if (both > 0) {
        kernel!.pair(ylen, back, both)
        back -= both
        if (back < 0) finishBack(out)
      }
      filter.run(fstate, ybuf, ybuf, ylen + both, ylen + k, 1)
      ylen += k
      off += k
      if (ylen === cap) {
        // A full window: the backward pass starts at its last sample from steady(y_last) (it
        // converges over the margin, whose outputs are dropped).
        finishBack(out)
        wbuf.set(ybuf)
        filter.steady(bstate, wbuf[cap - 1])
        back = cap - 1
        pending = true
        if (!kernel) finishBack(out)
        ybuf.copyWithin(0, chunk, cap)
        ylen -= chunk
      }
    }
  }

  return {
    maxHeld: cap + (kernel ? chunk : 0) + padlen + 1,
    held: () => ylen + headLen + (pending ? chunk : 0),
    push(x) {
      const out: Float64Array[] = []
      // Only the last padlen+1 inputs can be needed (right edge at finish).
      for (let i = Math.max(0, x.length - ring.length); i < x.length; i++) ring[(seen + i) % ring.length] = x[i]
      let off = 0
      if (!started) {
        const k = Math.min(x.length, head.length - headLen)
        head.set(x.subarray(0, k), headLen)
        headLen += k
        off = k
        seen += k
        if (headLen === head.length) start(padlen, out)
      }
      if (started && off < x.length) {
        seen += x.length - off
        forward(x.subarray(off), out)
      }
      return concatSamples(out, (n) => new Float64Array(n))
    },
    finish() {
      const out: Float64Array[] = []
      const n = seen
      if (n === 0) return new Float64Array(0)
      finishBack(out)
      const pad = Math.min(padlen, n - 1)
      if (!started) start(pad, out)
      // Right edge: odd extension 2*x[N-1] - x[N-2-i], forward-filtered after the buffered outputs.
      const all = new Float64Array(ylen + pad)
      all.set(ybuf.subarray(0, ylen))
      for (let i = 0; i < pad; i++) all[ylen + i] = 2 * rawBack(0) - rawBack(i + 1)
      filter.run(fstate, all, all, ylen, ylen + pad, 1)
      if (all.length > 0) {
        filter.steady(bstate, all[all.length - 1])
        filter.run(bstate, all, all, all.length - 1, -1, -1)
      }
      out.push(all.slice(0, ylen))
      ylen = 0
      headLen = 0
      seen = 0
      started = false
      pending = false
      return concatSamples(out, (n) => new Float64Array(n))
    },
  }
}
