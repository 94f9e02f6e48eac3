// Second-order-section IIR filtering in transposed direct form II, like scipy's `sosfilt`, with
// the state kept in a Float64Array the caller owns so it can be carried across blocks, reset to
// the steady state of a constant input (scipy's `sosfilt_zi(sos) * x0`) or run backwards for
// zero-phase filtering (see zero-phase.ts).
import type { Sos } from './butterworth.ts'
import { createSosPairKernel, type PairKernel } from './sos-pair.ts'

/** A linear filter whose state the caller owns: what zero-phase.ts needs from a filter. */
export interface LinearFilter {
  /** Number of Float64 state values. */
  stateSize: number
  /** Sets `state` to what an infinitely long constant input `v` leaves behind (scipy's zi * v). */
  steady(state: Float64Array, v: number): void
  /** Filters x[i] into y[i] for i = from, from+step, ... while i != to (step +1 forward, -1 backward). */
  run(state: Float64Array, x: Float64Array, y: Float64Array, from: number, to: number, step: 1 | -1): void
  /**
   * Optional: a kernel that filters a forward and a backward stream together (sos-pair.ts), with
   * buffers of `capacity` values; null where it cannot run. zero-phase.ts uses it when present.
   */
  pairKernel?(capacity: number): PairKernel | null
}

/** Wraps second-order sections as a LinearFilter (2 state values per section). */
export function createSosFilter(sos: Sos): LinearFilter {
  const n = sos.length
  const c = Float64Array.from(sos.flat())
  function run(state: Float64Array, x: Float64Array, y: Float64Array, from: number, to: number, step: 1 | -1): void {
    // Up to three sections per pass over the data: each section's recurrence is a chain of
    // dependent multiply-adds, so one pass per section waits on that chain, while the chains
    // of three sections in one loop overlap in the CPU.
    let src = x
    let s = 0
    for (; n - s >= 3; s += 3, src = y) runSections3(c, 6 * s, state, 2 * s, src, y, from, to, step)
    if (n - s === 2) runSections2(c, 6 * s, state, 2 * s, src, y, from, to, step)
    else if (n - s === 1) runSection(c, 6 * s, state, 2 * s, src, y, from, to, step)
    else if (n === 0) for (let i = from; i !== to; i += step) y[i] = x[i]
  }
  return {
    stateSize: 2 * n,
    steady(state, v) {
      // Per section, constant input u gives output g*u (g = DC gain); then z1 = (b2 - a2 g) u and
      // z0 = (b1 - a1 g) u + z1. The next section sees g*u. Same as scipy's sosfilt_zi.
      let u = v
      for (let s = 0; s < n; s++) {
        const o = 6 * s
        const g = (c[o] + c[o + 1] + c[o + 2]) / (1 + c[o + 4] + c[o + 5])
        const z1 = (c[o + 2] - c[o + 5] * g) * u
        state[2 * s] = (c[o + 1] - c[o + 4] * g) * u + z1
        state[2 * s + 1] = z1
        u *= g
      }
    },
    run,
    pairKernel: (capacity) => createSosPairKernel(sos, capacity),
  }
}

/** A causal streaming filter: Float32 blocks in and out, Float64 state carried across blocks. */
export interface CausalFilter {
  apply(x: Float32Array): Float32Array
  /** Forget the past: the next sample starts the filter afresh (after a gap or invalid samples). */
  reset(): void
}

/**
 * Causal SOS filtering for live use. The state starts at the steady state of the first sample,
 * as scipy's lfilter_zi idiom does, so a DC offset does not ring for seconds at the start.
 */
export function createCausalSos(sos: Sos): CausalFilter {
  return createCausal(createSosFilter(sos))
}

/** Adapts any LinearFilter to a causal block filter (same start-up rule as createCausalSos). */
export function createCausal(filter: LinearFilter): CausalFilter {
  const state = new Float64Array(filter.stateSize)
  let started = false
  return {
    apply(x) {
      const buf = Float64Array.from(x)
      if (!started && buf.length > 0) {
        filter.steady(state, buf[0])
        started = true
      }
      filter.run(state, buf, buf, 0, buf.length, 1)
      return Float32Array.from(buf)
    },
    reset() {
      started = false
    },
  }
}

// The kernels below run sections o/6, o/6+1, ... of the coefficients c ([b0, b1, b2, 1, a1, a2]
// each) over x[i] -> y[i], i = from, from+step, ... != to, with state (z0, z1 per section) from
// state[so...] and written back. Per sample and section they do exactly the operations of
// sample-by-sample cascading, in the same order, so results are identical whatever the grouping;
// coefficients and state are locals so V8 keeps them in registers.

function runSection(c: Float64Array, o: number, state: Float64Array, so: number, x: Float64Array, y: Float64Array, from: number, to: number, step: number): void {
  const b0 = c[o], b1 = c[o + 1], b2 = c[o + 2], a1 = c[o + 4], a2 = c[o + 5]
  let z0 = state[so], z1 = state[so + 1]
  for (let i = from; i !== to; i += step) {
    const v = x[i]
    const u = b0 * v + z0
    z0 = b1 * v - a1 * u + z1
    z1 = b2 * v - a2 * u
    y[i] = u
  }
  state[so] = z0
  state[so + 1] = z1
}

function runSections2(c: Float64Array, o: number, state: Float64Array, so: number, x: Float64Array, y: Float64Array, from: number, to: number, step: number): void {
  const p0 = c[o], p1 = c[o + 1], p2 = c[o + 2], pa1 = c[o + 4], pa2 = c[o + 5]
  const q0 = c[o + 6], q1 = c[o + 7], q2 = c[o + 8], qa1 = c[o + 10], qa2 = c[o + 11]
  let pz0 = state[so], pz1 = state[so + 1], qz0 = state[so + 2], qz1 = state[so + 3]
  for (let i = from; i !== to; i += step) {
    const v = x[i]
    const u = p0 * v + pz0
    pz0 = p1 * v - pa1 * u + pz1
    pz1 = p2 * v - pa2 * u
    const w = q0 * u + qz0
    qz0 = q1 * u - qa1 * w + qz1
    qz1 = q2 * u - qa2 * w
    y[i] = w
  }
  state[so] = pz0
  state[so + 1] = pz1
  state[so + 2] = qz0
  state[so + 3] = qz1
}

function runSections3(c: Float64Array, o: number, state: Float64Array, so: number, x: Float64Array, y: Float64Array, from: number, to: number, step: number): void {
  const p0 = c[o], p1 = c[o + 1], p2 = c[o + 2], pa1 = c[o + 4], pa2 = c[o + 5]
  const q0 = c[o + 6], q1 = c[o + 7], q2 = c[o + 8], qa1 = c[o + 10], qa2 = c[o + 11]
  const r0 = c[o + 12], r1 = c[o + 13], r2 = c[o + 14], ra1 = c[o + 16], ra2 = c[o + 17]
  let pz0 = state[so], pz1 = state[so + 1], qz0 = state[so + 2], qz1 = state[so + 3], rz0 = state[so + 4], rz1 = state[so + 5]
  for (let i = from; i !== to; i += step) {
    const v = x[i]
    const u = p0 * v + pz0
    pz0 = p1 * v - pa1 * u + pz1
    pz1 = p2 * v - pa2 * u
    const w = q0 * u + qz0
    qz0 = q1 * u - qa1 * w + qz1
    qz1 = q2 * u - qa2 * w
    const r = r0 * w + rz0
    rz0 = r1 * w - ra1 * r + rz1
    rz1 = r2 * w - ra2 * r
    y[i] = r
  }
  state[so] = pz0
  state[so + 1] = pz1
  state[so + 2] = qz0
  state[so + 3] = qz1
  state[so + 4] = rz0
  state[so + 5] = rz1
}

