// The WebAssembly kernels that turn stored samples into mV (scripts/wasm-sample-kernels.mjs,
// assembled into sample-kernels.wasm.ts), for the readers: EDF's 16-bit samples
// (edf-decode-wasm.ts) and WFDB's digital values (wfdb-physical-wasm.ts), each with the same
// bits as its JavaScript loop, four values per SIMD step. A reader owns an instance whose
// memory grows to its largest block; values are copied in and out (plain memory copies).
// Engines without WebAssembly SIMD get null, and the readers keep their JavaScript loops.
import { instantiateGrowable, lazyWasmModule } from '../dsp/wasm-module.ts'
import { SAMPLE_KERNELS_WASM } from './sample-kernels-wasm-bytes.ts'

export interface SampleKernels {
  decode16(src: number, dst: number, records: number, stride: number, spr: number, gain: number, offset: number): void
  physical(src: number, dst: number, n: number, baseline: number, gain: number, toMv: number, invalid: number): void
}

export interface SampleKernelInstance {
  kernels: SampleKernels
  /** The instance's memory, at least `bytes` long (grown when needed, so take views after calling). */
  reserve(bytes: number): ArrayBuffer
}

const sampleModule = lazyWasmModule(SAMPLE_KERNELS_WASM)

/** An instance for one reader; null without WebAssembly SIMD or with `wasm: false`. */
export function instantiateSampleKernels(options: { wasm?: boolean } = {}): SampleKernelInstance | null {
  const module = options.wasm === false ? null : sampleModule()
  if (!module) return null
  const { exports: kernels, reserve } = instantiateGrowable<SampleKernels>(module)
  return { kernels, reserve }
}
