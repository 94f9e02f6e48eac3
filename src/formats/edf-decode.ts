// Sample decoding for whole EDF/BDF data records. A data record holds each signal's samples in a
// row (signal 0's samplesPerRecord samples, then signal 1's, ...), little-endian two's complement:
// 16-bit for EDF, 24-bit for BDF. A DataView reads at any alignment (chunks read from a file
// start wherever the previous one ended) and V8 compiles its getters to plain loads, so there is
// no copy and no per-sample allocation.
import { PipelineError } from '../core/errors.ts'
import type { EdfHeader } from './edf-header.ts'

function checkRange(records: Uint8Array, header: EdfHeader, signalIndex: number, nRecords: number): void {
  const signal = header.signals[signalIndex]
  if (!signal) {
    throw new PipelineError(
      'E_INTERNAL',
      `${header.file}: signal index ${signalIndex} does not exist (the file has signals 0..${header.nSignals - 1})`,
      { file: header.file, field: 'signalIndex' },
    )
  }
  const need = nRecords * header.recordBytes
  if (!Number.isInteger(nRecords) || nRecords < 0 || records.byteLength < need) {
    throw new PipelineError(
      'E_TRUNCATED',
      `${header.file}: expected ${nRecords} data records (${need} bytes) to decode signal ${show(signal.label)}, found ${records.byteLength} bytes; pass whole records only`,
      { file: header.file, field: 'dataRecords' },
    )
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

function show(s: string): string {
  return JSON.stringify(s)
}

/** Digital sample values of one signal over `nRecords` whole data records starting at byte 0. */
export function decodeEdfDigital(records: Uint8Array, header: EdfHeader, signalIndex: number, nRecords: number): Int32Array {
  checkRange(records, header, signalIndex, nRecords)
  const spr = header.signals[signalIndex].samplesPerRecord
  const out = new Int32Array(spr * nRecords)
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength)
  let k = 0
  for (let r = 0; r < nRecords; r++) {
    let p = r * header.recordBytes + header.signals[signalIndex].byteOffsetInRecord
    if (header.bytesPerSample === 2) {
      for (let i = 0; i < spr; i++, p += 2) out[k++] = view.getInt16(p, true)
    } else {
      // 24-bit: assemble the unsigned value, then shift up and back to sign-extend bit 23.
      for (let i = 0; i < spr; i++, p += 3) {
        out[k++] = ((records[p] | (records[p + 1] << 8) | (records[p + 2] << 16)) << 8) >> 8
      }
    }
  }
  return out
}

/**
 * Physical values of one signal in mV (or in the file's unit when `toMv` is null) over `nRecords`
 * whole data records starting at byte 0: (digital * gain + offset) * toMv, folded into one
 * multiply-add per sample.
 */
export function decodeEdfSignal(records: Uint8Array, header: EdfHeader, signalIndex: number, nRecords: number): Float32Array {
  checkRange(records, header, signalIndex, nRecords)
  const signal = header.signals[signalIndex]
  const unit = signal.toMv ?? 1
  const gain = signal.gain * unit
  const offset = signal.offset * unit
  const spr = signal.samplesPerRecord
  const out = new Float32Array(spr * nRecords)
  if (header.bytesPerSample === 2 && LITTLE_ENDIAN && (records.byteOffset & 1) === 0) {
    // EDF samples are little-endian int16 at even offsets: TypedArray.set converts a record's
    // int16 run to float32 natively, then one multiply-add in place: no per-sample DataView
    // read, with identical values (the int16 is exact in float32).
    const words = new Int16Array(records.buffer, records.byteOffset, records.byteLength >> 1)
    const stride = header.recordBytes >> 1
    for (let r = 0; r < nRecords; r++) {
      const w = r * stride + (signal.byteOffsetInRecord >> 1)
      const dst = out.subarray(r * spr, r * spr + spr)
      dst.set(words.subarray(w, w + spr))
      for (let i = 0; i < spr; i++) dst[i] = dst[i] * gain + offset
    }
    return out
  }
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength)
  let k = 0
  for (let r = 0; r < nRecords; r++) {
    let p = r * header.recordBytes + signal.byteOffsetInRecord
    if (header.bytesPerSample === 2) {
      for (let i = 0; i < spr; i++, p += 2) out[k++] = view.getInt16(p, true) * gain + offset
    } else {
      for (let i = 0; i < spr; i++, p += 3) {
        out[k++] = (((records[p] | (records[p + 1] << 8) | (records[p + 2] << 16)) << 8) >> 8) * gain + offset
      }
    }
  }
  return out
}

/** The bytes of one signal inside data record `recordIndex` of `records` (a view, no copy); used for TALs. */
export function signalBytes(records: Uint8Array, header: EdfHeader, signalIndex: number, recordIndex: number): Uint8Array {
  const signal = header.signals[signalIndex]
  const start = recordIndex * header.recordBytes + signal.byteOffsetInRecord
  return records.subarray(start, start + signal.samplesPerRecord * header.bytesPerSample)
}
