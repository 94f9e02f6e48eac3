// 16-bit EDF samples to mV through a WebAssembly kernel (scripts/wasm-edf-kernels.mjs, assembled
// into edf-decode.wasm.ts): the same bits as decodeEdfSignal, four samples per SIMD step. On the
// 24 h benchmark file decodeEdfSignal's loop was the read stage's largest cost (0.13-0.20 s of
// main-thread time per 31 M samples, read -> clean -> detect profiles). A decoder owns an
// instance whose memory holds one block's records and its output: the records are copied in,
// the samples copied out (both plain memory copies). BDF (24-bit) files, and engines without
// WebAssembly SIMD, take decodeEdfSignal itself.
import { lazyWasmModule } from '../dsp/wasm-module.ts'
import { decodeEdfSignal } from './edf-decode.ts'
import type { EdfHeader } from './edf-header.ts'
import { EDF_DECODE_WASM } from './edf-decode.wasm.ts'

interface EdfKernels {
  decode16(src: number, dst: number, records: number, stride: number, spr: number, gain: number, offset: number): void
}

const edfModule = lazyWasmModule(EDF_DECODE_WASM)
const PAGE = 65536

/** decodeEdfSignal's signature; results identical to it. */
export type EdfSignalDecoder = (records: Uint8Array, header: EdfHeader, signalIndex: number, nRecords: number) => Float32Array

/** A decoder for one reader (it keeps a kernel instance whose memory grows to the largest block). */
export function createEdfSignalDecoder(options: { wasm?: boolean } = {}): EdfSignalDecoder {
  const module = options.wasm === false ? null : edfModule()
  if (!module) return decodeEdfSignal
  const memory = new WebAssembly.Memory({ initial: 1 })
  const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as EdfKernels
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
    const need = dst + 4 * n
    if (memory.buffer.byteLength < need) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE))
    new Uint8Array(memory.buffer, 0, bytes).set(records.subarray(0, bytes))
    kernels.decode16(signal.byteOffsetInRecord, dst, nRecords, header.recordBytes, signal.samplesPerRecord, signal.gain * unit, signal.offset * unit)
    return new Float32Array(memory.buffer, dst, n).slice()
  }
}
