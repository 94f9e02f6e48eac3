// Second-order sections over two streams at once in WebAssembly SIMD, for the zero-phase filter
// (zero-phase.ts): its backward pass over one window runs alongside the forward pass over the
// next samples, the two in the lanes of f64x2 registers (filter-kernels.ts).
// A pair step over both streams costs about what one JavaScript pass over one stream does, so the
// backward pass becomes nearly free (bench/dsp-kernels.ts, bench/results/dsp-kernels.md).
// Results are bit-identical to sos-filter.ts's run().
// The buffers and states live in the instance's own memory, exposed as Float64Array views that
// the caller fills and reads in place (and passes to the JavaScript kernels for the rest).
import type { Sos } from './butterworth.ts'
import { instantiateFilterKernels } from './filter-kernels.ts'

export interface PairKernel {
  /** The forward stream's buffer (capacity values), filtered in place. */
  readonly forward: Float64Array
  /** The backward stream's buffer (capacity values), filtered in place. */
  readonly backward: Float64Array
  /** States in sos-filter.ts's layout ([z0, z1] per section), for run() and steady() too. */
  readonly forwardState: Float64Array
  readonly backwardState: Float64Array
  /** Filters forward[fromF .. fromF+count) upwards and backward[fromB .. fromB-count) downwards. */
  pair(fromF: number, fromB: number, count: number): void
}

/** A pair kernel for `sos` with buffers of `capacity` values; null where WebAssembly SIMD is unavailable. */
export function createSosPairKernel(sos: Sos, capacity: number): PairKernel | null {
  const n = sos.length
  const c = 0
  const sf = 48 * n
  const sb = sf + 16 * n
  const f = sb + 16 * n
  const b = f + 8 * capacity
  const instance = instantiateFilterKernels(b + 8 * capacity)
  if (!instance) return null
  const { kernels, view } = instance
  const groups = [kernels.pair1, kernels.pair2, kernels.pair3]
  view(c, 6 * n).set(sos.flat())
  return {
    forward: view(f, capacity),
    backward: view(b, capacity),
    forwardState: view(sf, 2 * n),
    backwardState: view(sb, 2 * n),
    pair(fromF, fromB, count) {
      if (count <= 0) return
      // Groups of up to three sections, each over the whole range (in place, so the next reads its output).
      for (let s = 0; s < n; s += 3) groups[Math.min(3, n - s) - 1](c + 48 * s, sf + 16 * s, sb + 16 * s, f + 8 * fromF, b + 8 * fromB, count)
    },
  }
}
