// 16-bit EDF samples to mV through a WebAssembly kernel (sample-kernels.ts): the same bits as
// decodeEdfSignal, four samples per SIMD step: that loop is the read stage's largest cost, as it
// touches every sample. The block's records are copied into the kernel's memory and the
// samples copied out. BDF (24-bit) files, and engines without WebAssembly SIMD, take
// decodeEdfSignal itself.
import { decodeEdfSignal } from './edf-decode.ts'
import type { EdfHeader } from './edf-header.ts'
import { instantiateSampleKernels } from './sample-kernels.ts'

/** Decodes signals `signalIndices` of `nRecords` records; each result identical to decodeEdfSignal's. */
export interface EdfLeadsDecoder {
  (records: Uint8Array, header: EdfHeader, signalIndices: readonly number[], nRecords: number): Float32Array[]
  /** Whether the WebAssembly kernel decodes (false: decodeEdfSignal, per signal). */
  readonly wasm: boolean
}

/**
 * A decoder for one reader (it keeps a kernel instance whose memory grows to the largest block).
 * The block's records go into the kernel's memory once for all the leads asked for (once per
 * lead before: every record of the 24 h file was copied in twice for its two leads).
 */
export function createEdfLeadsDecoder(options: { wasm?: boolean } = {}): EdfLeadsDecoder {
  const instance = instantiateSampleKernels(options)
  if (!instance) return Object.assign((records: Uint8Array, header: EdfHeader, indices: readonly number[], n: number) => indices.map((i) => decodeEdfSignal(records, header, i, n)), { wasm: false })
  const decode = (records: Uint8Array, header: EdfHeader, indices: readonly number[], nRecords: number): Float32Array[] => {
    const bytes = nRecords * header.recordBytes
    // Out-of-range requests, and 24-bit samples, get decodeEdfSignal's checks and errors.
    if (header.bytesPerSample !== 2 || !indices.every((i) => header.signals[i]) || !Number.isInteger(nRecords) || nRecords < 0 || records.byteLength < bytes) {
      return indices.map((i) => decodeEdfSignal(records, header, i, nRecords))
    }
    const counts = indices.map((i) => header.signals[i].samplesPerRecord * nRecords)
    const dst = (bytes + 15) & ~15
    const memory = instance.reserve(dst + 4 * counts.reduce((a, b) => a + b, 0))
    new Uint8Array(memory, 0, bytes).set(records.subarray(0, bytes))
    let at = dst
    const where = indices.map((i, k) => {
      const signal = header.signals[i]
      const unit = signal.toMv ?? 1
      instance.kernels.decode16(signal.byteOffsetInRecord, at, nRecords, header.recordBytes, signal.samplesPerRecord, signal.gain * unit, signal.offset * unit)
      const from = at
      at += 4 * counts[k]
      return from
    })
    return where.map((from, k) => new Float32Array(memory, from, counts[k]).slice())
  }
  return Object.assign(decode, { wasm: true })
}
