// 16-bit EDF samples to mV through a WebAssembly kernel (sample-kernels.ts): the same bits as
// decodeEdfSignal, four samples per SIMD step. On the 24 h benchmark file decodeEdfSignal's loop
// was the read stage's largest cost (0.13-0.20 s of main-thread time per 31 M samples, read ->
// clean -> detect profiles). The block's records are copied into the kernel's memory and the
// samples copied out. BDF (24-bit) files, and engines without WebAssembly SIMD, take
// decodeEdfSignal itself.
import { decodeEdfSignal } from './edf-decode.ts'
import type { EdfHeader } from './edf-header.ts'
import { instantiateSampleKernels } from './sample-kernels.ts'

/** decodeEdfSignal's signature; results identical to it. */
export type EdfSignalDecoder = (records: Uint8Array, header: EdfHeader, signalIndex: number, nRecords: number) => Float32Array

/** A decoder for one reader (it keeps a kernel instance whose memory grows to the largest block). */
export function createEdfSignalDecoder(options: { wasm?: boolean } = {}): EdfSignalDecoder {
  const instance = instantiateSampleKernels(options)
  if (!instance) return decodeEdfSignal
  return (records, header, signalIndex, nRecords) => {
    const signal = header.signals[signalIndex]
    const bytes = nRecords * header.recordBytes
    // Out-of-range requests, and 24-bit samples, get decodeEdfSignal's checks and errors.
    if (header.bytesPerSample !== 2 || !signal || !Number.isInteger(nRecords) || nRecords < 0 || records.byteLength < bytes) {
      return decodeEdfSignal(records, header, signalIndex, nRecords)
    }
    const unit = signal.toMv ?? 1
    const n = signal.samplesPerRecord * nRecords
    const dst = (bytes + 15) & ~15
    const memory = instance.reserve(dst + 4 * n)
    new Uint8Array(memory, 0, bytes).set(records.subarray(0, bytes))
    instance.kernels.decode16(signal.byteOffsetInRecord, dst, nRecords, header.recordBytes, signal.samplesPerRecord, signal.gain * unit, signal.offset * unit)
    return new Float32Array(memory, dst, n).slice()
  }
}
