// The WebAssembly filter kernels (scripts/wasm-kernels.mjs, assembled into filter-kernels.wasm.ts):
// compiled once per thread on first use (a 2 KB module, synchronously), then instantiated per
// filter with a memory of its own that holds the filter's buffers, which the filter reads and
// fills through Float64Array views. Where WebAssembly SIMD is missing, there are no kernels and
// the filters run their JavaScript loops (same results, bit for bit).
import { FILTER_KERNELS_WASM } from './filter-kernels.wasm.ts'

export interface FilterKernels {
  /** Second-order sections, 1-3 per call, over a forward and a backward stream (see the script). */
  pair1(c: number, sf: number, sb: number, f: number, b: number, n: number): void
  pair2(c: number, sf: number, sb: number, f: number, b: number, n: number): void
  pair3(c: number, sf: number, sb: number, f: number, b: number, n: number): void
  /** One stretch of the moving average's one-pass filtfilt; 1 when its sums end finite. */
  maStretch(x: number, u: number, z: number, m: number, n: number, inv: number, s: number): number
}

export interface KernelInstance {
  kernels: FilterKernels
  /** A view of `length` f64 values at byte address `at` of the instance's memory. */
  view(at: number, length: number): Float64Array
}

let compiled: WebAssembly.Module | null | undefined

function filterKernelsModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(FILTER_KERNELS_WASM, 'base64')
    compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null
  }
  return compiled
}

/** An instance whose memory holds at least `bytes` bytes (never grown, so views stay valid); null without WebAssembly SIMD. */
export function instantiateFilterKernels(bytes: number): KernelInstance | null {
  const module = filterKernelsModule()
  if (!module) return null
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) })
  const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as FilterKernels
  return { kernels, view: (at, length) => new Float64Array(memory.buffer, at, length) }
}
