// WFDB digital values to mV through a WebAssembly kernel (sample-kernels.ts): the same bits as
// toPhysicalMv (NaN for the format's invalid value included), four values per SIMD step. On the
// 23 h Icentia11k record toPhysicalMv's loop was one of the read stage's two largest costs
// (0.15-0.3 s of main-thread time per 21 M samples, read -> clean -> detect profiles).
import { toPhysicalMv } from './wfdb-signal.ts'
import { WFDB_INVALID_SAMPLE } from './wfdb-formats.ts'
import type { WfdbSignal } from './wfdb-header.ts'
import { instantiateSampleKernels } from './sample-kernels.ts'

/** toPhysicalMv's signature; results identical to it. */
export type WfdbPhysical = (digital: Int32Array, signal: WfdbSignal) => Float32Array

/** A converter for one reader (it keeps a kernel instance whose memory grows to the largest block). */
export function createWfdbPhysical(options: { wasm?: boolean } = {}): WfdbPhysical {
  const instance = instantiateSampleKernels(options)
  if (!instance) return toPhysicalMv
  return (digital, signal) => {
    const n = digital.length
    const memory = instance.reserve(8 * n)
    new Int32Array(memory, 0, n).set(digital)
    instance.kernels.physical(0, 4 * n, n, signal.baseline, signal.gain, signal.toMv, WFDB_INVALID_SAMPLE[signal.format])
    return new Float32Array(memory, 4 * n, n).slice()
  }
}
