// Second-order sections over two streams at once in WebAssembly SIMD, for the zero-phase filter
// (zero-phase.ts): its backward pass over one window runs alongside the forward pass over the
// next samples, the two in the lanes of f64x2 registers (kernels: scripts/wasm-kernels.mjs).
// A 3-section pair step costs about what one JavaScript pass costs (bench/dsp-kernels.ts), so
// the backward pass becomes nearly free. Results are bit-identical to sos-filter.ts's run().
// The buffers and states live in the instance's own memory, exposed as Float64Array views that
// the caller fills and reads in place (and passes to the JavaScript kernels for the rest).
import type { Sos } from './butterworth.ts'
import { SOS_PAIR_WASM } from './sos-pair.wasm.ts'

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

type Kernel = (c: number, sf: number, sb: number, f: number, b: number, n: number) => void

let compiled: WebAssembly.Module | null | undefined

// Compiled once per thread on first use (2 KB, synchronous); null where WebAssembly SIMD is missing.
function sosPairModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(SOS_PAIR_WASM, 'base64')
    compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null
  }
  return compiled
}

/** A pair kernel for `sos` with buffers of `capacity` values; null where WebAssembly SIMD is unavailable. */
export function createSosPairKernel(sos: Sos, capacity: number): PairKernel | null {
  const module = sosPairModule()
  if (!module) return null
  const n = sos.length
  const c = 0
  const sf = 48 * n
  const sb = sf + 16 * n
  const f = sb + 16 * n
  const b = f + 8 * capacity
  const memory = new WebAssembly.Memory({ initial: Math.ceil((b + 8 * capacity) / 65536) || 1 })
  const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports as Record<string, Kernel>
  const groups = [kernels.pair1, kernels.pair2, kernels.pair3]
  const view = (at: number, length: number) => new Float64Array(memory.buffer, at, length)
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
