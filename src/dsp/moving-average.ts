// NeuroKit2's "powerline" step (0.2.9, signal_filter(method="powerline")): a boxcar of
// int(fs / powerline) ones (2 when fs < 100) with a = [len(b)], i.e. a moving average, applied
// with scipy `filtfilt(b, a, x, method="pad")` (odd padding of 3*len(b) samples, initial state
// lfilter_zi * edge value). Run forward and backward it is a triangular kernel of 2n-1 samples.
// Note NeuroKit2 truncates fs/powerline (int()), it does not round: 128 Hz gives 2, not 3.
// This file gives the width, the causal filter (a LinearFilter, for live use and for
// zero-phase.ts) and a one-pass streaming filtfilt of it (what `clean` runs).
import type { LinearFilter } from './sos-filter.ts'
import type { ZeroPhaseStream } from './zero-phase.ts'
import { instantiateFilterKernels } from './filter-kernels.ts'

/** Boxcar width NeuroKit2 uses for the powerline step at sampling rate `fs`. */
export function powerlineWidth(fs: number, powerlineHz: number): number {
  return fs >= 100 ? Math.max(1, Math.floor(fs / powerlineHz)) : 2
}

/** scipy filtfilt's default pad length for an FIR of `width` taps and a = [width]: 3 * max(len(a), len(b)). */
export function movingAveragePadlen(width: number): number {
  return 3 * width
}

// Running sums are re-summed from the stored inputs this often (and whenever they are not
// finite), which bounds rounding drift to a few ulps of the window sum.
const RESUM_EVERY = 4096

/**
 * A causal moving average of `width` samples as a LinearFilter. The state holds the last width-1
 * inputs in a ring, their running sum, the samples since it was last re-summed and the ring
 * position. A running sum costs two additions per sample whatever the width (summing the window
 * afresh cost 23 ns/sample at width 7); it is re-summed from the ring every RESUM_EVERY samples
 * counted from steady() (so where a run starts or stops never changes the output) and whenever
 * it is not finite, so a NaN input still leaves the state after width-1 samples.
 */
export function createMovingAverage(width: number): LinearFilter {
  if (!Number.isInteger(width) || width < 1) throw new RangeError(`moving-average width must be a positive integer, found ${width}`)
  const m = width - 1
  const inv = 1 / width
  // state[0..m): ring of inputs; state[m]: their sum; state[m + 1]: samples since re-summed; state[m + 2]: ring position.
  const SUM = m, SINCE = m + 1, POS = m + 2
  const resum = (state: Float64Array) => {
    let sum = 0
    for (let j = 0; j < m; j++) sum += state[j]
    return sum
  }
  return {
    stateSize: m + 3,
    steady(state, v) {
      state.fill(v, 0, m)
      state[SUM] = resum(state)
      state[SINCE] = 0
      state[POS] = 0
    },
    run(state, x, y, from, to, step) {
      if (m === 0) {
        for (let i = from; i !== to; i += step) y[i] = x[i]
        return
      }
      let sum = state[SUM]
      let since = state[SINCE] | 0
      let p = state[POS] | 0
      for (let i = from; i !== to; i += step) {
        const v = x[i]
        y[i] = (v + sum) * inv
        const old = state[p]
        state[p] = v
        if (++p === m) p = 0
        sum += v - old
        if (++since === RESUM_EVERY || sum - sum !== 0) {
          sum = resum(state)
          since = 0
        }
      }
      state[SUM] = sum
      state[SINCE] = since
      state[POS] = p
    },
  }
}

// Values per pass of the one-pass filtfilt's inner loop (its work buffers hold width-1 + this).
const BLOCK = 4096

/**
 * scipy `filtfilt` of the moving average over a stream, in one pass instead of zero-phase.ts's
 * forward pass plus backward windows (half the time; equal to createZeroPhase with
 * createMovingAverage to rounding). Both passes of an FIR are running sums: the forward one
 * u[k] = mean(ext[k-m..k]) of the odd-extended input, the backward one z[i] = mean(u[i..i+m]),
 * known as soon as u[i+m] is, so every input sample completes the output m = width-1 samples
 * before it. Edges as scipy ("pad", lfilter_zi): the input is taken as constant before the left
 * extension and u as constant after the right one (the backward pass starts from steady(u_last));
 * with padlen = 3*width > m only segments of at most m samples ever need the latter. Running sums
 * are re-summed every RESUM_EVERY values from the segment start and when not finite, so the
 * output does not depend on how the input is blocked. `wasm: false` keeps to the JavaScript loop
 * (the WebAssembly kernel gives the same bits; tests compare the two).
 */
export function createZeroPhaseMovingAverage(width: number, options?: { wasm?: boolean; float32?: false }): ZeroPhaseStream
/**
 * The same with `float32: true`: outputs in Float32Array, the sample type of blocks, rounded
 * from the same doubles (the clean stage then hands them on without another copy).
 */
export function createZeroPhaseMovingAverage(width: number, options: { wasm?: boolean; float32: true }): ZeroPhaseStream<Float32Array>
export function createZeroPhaseMovingAverage(width: number, options: { wasm?: boolean; float32?: boolean } = {}): ZeroPhaseStream<Float64Array | Float32Array> {
  if (!Number.isInteger(width) || width < 1) throw new RangeError(`moving-average width must be a positive integer, found ${width}`)
  const m = width - 1
  const inv = 1 / width
  const padlen = movingAveragePadlen(width)
  const head = new Float64Array(padlen + 1) // the segment's first samples, for the left extension
  const tail = new Float64Array(padlen + 1) // ring of the last padlen+1 inputs, for the right one
  // Work buffers: [0, m) the m values before the block (oldest first), then the block; with the
  // WebAssembly kernel (filter-kernels.ts), in its memory. The whole filter ran at 5.2-9.3
  // ns/sample with the kernel and 15.6-17.9 with the checked JavaScript loop alone (width 7,
  // side by side); the JavaScript is only the fallback where WebAssembly SIMD is missing.
  const X = 0, U = 8 * (m + BLOCK), Z = 2 * U, S = Z + 8 * BLOCK
  const wasm = options.wasm === false ? null : instantiateFilterKernels(S + 24)
  const buffer = (at: number, length: number) => wasm?.view(at, length) ?? new Float64Array(length)
  const xs = buffer(X, m + BLOCK)
  const us = buffer(U, m + BLOCK)
  const zs = buffer(Z, BLOCK) // the block's outputs, before those still to drop are dropped
  // The sums of the m values before the current one in xs and us, and the values fed since they
  // were last re-summed. In a Float64Array, not closure variables, so that feed()'s loop keeps
  // them unboxed (as closure variables they cost two heap numbers per sample).
  const sums = buffer(S, 3)
  const XSUM = 0, USUM = 1, SINCE = 2
  let skip = 0 // outputs still to drop: those of the left extension and of the first m values
  let headLen = 0, seen = 0, emitted = 0
  let started = false
  const make = (n: number) => (options.float32 ? new Float32Array(n) : new Float64Array(n))

  const sum = (a: Float64Array, from: number) => {
    let t = 0
    for (let j = from; j < from + m; j++) t += a[j]
    return t
  }

  // Feeds values src[from..to) of the extended input; writes finished outputs to out from o; returns the new o.
  // Each block runs in stretches that end where the sums are re-summed. With the WebAssembly
  // kernel, a stretch first runs without per-sample finiteness checks; a sum still finite at its
  // end was finite throughout (a non-finite sum never turns finite again by addition), so the
  // checks would not have fired and the result is the checked loop's. Otherwise, or without the
  // kernel, the stretch runs (again) in the checked loop from the saved sums (clean never feeds
  // a NaN: it ends the segment there).
  function feed(src: Float64Array | Float32Array, from: number, to: number, out: Float64Array | Float32Array, o: number): number {
    for (let at = from; at < to; ) {
      const n = Math.min(BLOCK, to - at)
      xs.set(src.subarray(at, at + n), m)
      const drop = Math.min(skip, n)
      for (let k = 0; k < n; ) {
        const end = Math.min(n, k + RESUM_EVERY - sums[SINCE])
        if (!unchecked(k, end)) checked(k, end)
        k = end
      }
      if (n > drop) out.set(zs.subarray(drop, n), o)
      xs.copyWithin(0, n, n + m)
      us.copyWithin(0, n, n + m)
      o += n - drop
      skip -= drop
      at += n
    }
    return o
  }

  // Values k0..k1 of the block in xs (no re-sum due before k1) in the kernel, outputs to zs; true
  // when the sums stayed finite (state advanced, re-summed if due at k1), false otherwise (sums
  // as before) or without the kernel.
  function unchecked(k0: number, k1: number): boolean {
    if (!wasm || !wasm.kernels.maStretch(X + 8 * k0, U + 8 * k0, Z + 8 * k0, m, k1 - k0, inv, S)) return false
    const since = sums[SINCE] + (k1 - k0)
    if (since === RESUM_EVERY) {
      sums[XSUM] = sum(xs, k1)
      sums[USUM] = sum(us, k1)
      sums[SINCE] = 0
    } else sums[SINCE] = since
    return true
  }

  // A stretch with a re-sum after any value whose sums are not finite (so a NaN leaves the state
  // m values later), outputs to zs.
  function checked(k0: number, k1: number): void {
    let xa = sums[XSUM], ua = sums[USUM], t = sums[SINCE]
    for (let k = k0; k < k1; k++) {
      const v = xs[k + m]
      const u = (v + xa) * inv
      us[k + m] = u
      zs[k] = (u + ua) * inv
      xa += v - xs[k]
      ua += u - us[k]
      if (++t === RESUM_EVERY || xa - xa !== 0 || ua - ua !== 0) {
        xa = sum(xs, k + 1)
        ua = sum(us, k + 1)
        t = 0
      }
    }
    sums[XSUM] = xa
    sums[USUM] = ua
    sums[SINCE] = t
  }

  // Left edge: the odd extension 2*x[0] - x[pad..1], from the steady state of its first value.
  function start(pad: number, out: Float64Array | Float32Array, o: number): number {
    const ext = new Float64Array(pad)
    for (let i = 0; i < pad; i++) ext[i] = 2 * head[0] - head[pad - i]
    xs.fill(pad > 0 ? ext[0] : head[0], 0, m)
    us.fill(0, 0, m)
    sums[XSUM] = sum(xs, 0)
    sums[USUM] = 0
    sums[SINCE] = 0
    skip = pad + m
    started = true
    o = feed(ext, 0, pad, out, o)
    const n = headLen
    headLen = 0
    return feed(head, 0, n, out, o)
  }

  const rawBack = (j: number) => tail[(seen - 1 - j) % tail.length] // x[N-1-j]

  return {
    maxHeld: padlen + 1,
    held: () => (started ? seen - emitted : headLen),
    push(x) {
      for (let i = Math.max(0, x.length - tail.length); i < x.length; i++) tail[(seen + i) % tail.length] = x[i]
      let off = 0
      if (!started) {
        off = Math.min(x.length, head.length - headLen)
        head.set(x.subarray(0, off), headLen)
        headLen += off
      }
      seen += x.length
      if (!started && headLen < head.length) return make(0)
      const out = make(seen - m - emitted) // all but the last m are final once started
      let o = started ? 0 : start(padlen, out, 0)
      o = feed(x, off, x.length, out, o)
      emitted += o
      return out
    },
    finish() {
      const n = seen
      const out = make(n - emitted)
      if (n > 0) {
        const pad = Math.min(padlen, n - 1)
        let o = started ? 0 : start(pad, out, 0)
        // Right edge: 2*x[N-1] - x[N-2-i]; only the first m matter, and past the extension u stays at its last value.
        const right = new Float64Array(Math.min(pad, m))
        for (let i = 0; i < right.length; i++) right[i] = 2 * rawBack(0) - rawBack(i + 1)
        o = feed(right, 0, right.length, out, o)
        // Short segments: the backward pass runs on past the extension with u at its last value.
        for (let k = 0, ua = sums[USUM]; k < m - right.length; k++) {
          const uLast = us[m - 1]
          if (skip > 0) skip--
          else out[o++] = (uLast + ua) * inv
          ua += uLast - us[k]
        }
        if (o !== out.length) throw new Error(`zero-phase moving average: ${o} outputs at the end of a segment of ${n}, expected ${out.length}`)
      }
      headLen = seen = emitted = 0
      started = false
      return out
    },
  }
}
