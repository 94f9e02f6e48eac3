// The WebAssembly filter kernels (scripts/wasm-kernels.mjs, assembled into filter-kernels.wasm.ts),
// instantiated per filter with a memory of its own that holds the filter's buffers, which the
// filter reads and fills through Float64Array views (wasm-module.ts). Where WebAssembly SIMD is
// missing there are no kernels and the filters run their JavaScript loops (the same bits).
import { FILTER_KERNELS_WASM } from './filter-kernels-wasm-bytes.ts'
import { instantiateWithMemory, lazyWasmModule } from './wasm-module.ts'

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

const filterKernelsModule = lazyWasmModule(FILTER_KERNELS_WASM)

/** An instance whose memory holds at least `bytes` bytes; null without WebAssembly SIMD. */
export function instantiateFilterKernels(bytes: number): KernelInstance | null {
  const module = filterKernelsModule()
  if (!module) return null
  const { exports: kernels, buffer } = instantiateWithMemory<FilterKernels>(module, bytes)
  return { kernels, view: (at, length) => new Float64Array(buffer, at, length) }
}
