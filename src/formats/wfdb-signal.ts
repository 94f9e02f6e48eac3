// Streaming decoder for WFDB .dat files (signal(5)): bytes arrive in chunks of any size, whole
// frames come out as one Int32Array of digital values per signal. Bytes that do not yet make a
// whole decoding unit (one frame, or two for 212 with an odd signal count) wait for the next
// push; that carry is smaller than one unit, so memory stays bounded whatever the chunking.
// The caller skips `datByteOffset` bytes first and applies skew if it needs it.

import { PipelineError } from '../core/errors.ts'
import { decodeWfdbFrames } from './wfdb-decode.ts'
import { WFDB_INVALID_SAMPLE, wfdbBytesForSamples, wfdbBytesPerFrame, wfdbFrameUnit } from './wfdb-formats.ts'
import type { WfdbFormat } from './wfdb-formats.ts'
import type { WfdbHeader, WfdbSignal } from './wfdb-header.ts'

/** A live decoder for the signals stored in one .dat file. */
export interface WfdbDecoder {
  /** Bytes per frame (fractional for format 212 with an odd number of signals). */
  readonly bytesPerFrame: number
  /** Decodes every whole frame available so far; one array per signal, equal lengths (maybe 0). */
  push(chunk: Uint8Array): Int32Array[]
  /**
   * Finishes the stream: `tail` holds frames that only the end of the file makes whole (212
   * ends a lone last sample in 2 bytes), `leftoverBytes` counts bytes that make no whole frame.
   */
  end(): { leftoverBytes: number; tail: Int32Array[] }
}

/** A .dat file and the record's signals stored in it. */
export interface WfdbDatFile {
  fileName: string
  /** Indices into `header.signals`, in file order. */
  signals: number[]
  format: WfdbFormat
  /** Bytes to skip before the first frame. */
  byteOffset: number
}

/** Groups a record's signals by .dat file, in header order (the parser checked that groups are consistent). */
export function datFilesOf(header: WfdbHeader): WfdbDatFile[] {
  const files: WfdbDatFile[] = []
  for (const s of header.signals) {
    const f = files.find((x) => x.fileName === s.fileName)
    if (f) f.signals.push(s.index)
    else files.push({ fileName: s.fileName, signals: [s.index], format: s.format, byteOffset: s.byteOffset })
  }
  return files
}

/** Bytes before the first sample in the signal's .dat (WFDB uses the first signal of a file's offset). */
export function datByteOffset(signal: WfdbSignal): number {
  return signal.byteOffset
}

/** Creates a decoder for `signals` (all signals of one .dat, in file order); `file` names it in errors. */
export function createWfdbDecoder(signals: readonly WfdbSignal[], file: string): WfdbDecoder {
  if (signals.length === 0) {
    throw new PipelineError('E_INTERNAL', `${file}: a WFDB decoder needs at least one signal, found none; pass the signals of this .dat file`, { file })
  }
  const format = signals[0].format
  const odd = signals.find((s) => s.format !== format || s.fileName !== signals[0].fileName)
  if (odd) {
    throw new PipelineError(
      'E_WFDB_FORMAT',
      `${file}: signal ${odd.index} (${odd.fileName}, format ${odd.format}) cannot be decoded with signal ${signals[0].index} (${signals[0].fileName}, format ${format}); expected the signals of one .dat file, which share one format; group them with datFilesOf`,
      { file, field: 'format', signal: odd.index },
    )
  }
  const nsig = signals.length
  const unit = wfdbFrameUnit(format, nsig)
  const carry = new Uint8Array(unit.bytes)
  let carried = 0
  let scratch: Int32Array = new Int32Array(0) // reused across pushes to split interleaved samples

  return {
    bytesPerFrame: wfdbBytesPerFrame(signals),
    push(chunk) {
      const units = Math.floor((carried + chunk.length) / unit.bytes)
      if (units === 0) {
        carry.set(chunk, carried)
        carried += chunk.length
        return framesOf(0)
      }
      const outs = framesOf(units * unit.frames)
      let at = 0
      let done = 0
      if (carried > 0) {
        // Complete the carried unit with the head of this chunk, decode it from the carry.
        at = unit.bytes - carried
        carry.set(chunk.subarray(0, at), carried)
        scratch = decodeWfdbFrames(format, carry, 0, unit.frames, outs, 0, scratch)
        carried = 0
        done = 1
      }
      scratch = decodeWfdbFrames(format, chunk, at, (units - done) * unit.frames, outs, done * unit.frames, scratch)
      at += (units - done) * unit.bytes
      carry.set(chunk.subarray(at), 0)
      carried = chunk.length - at
      return outs
    },
    end() {
      if (carried === 0) return { leftoverBytes: 0, tail: framesOf(0) }
      // Only 212 can hold a whole frame in less than a unit (the first frame of a 2-frame unit).
      let frames = 0
      if (format === 212) {
        while (wfdbBytesForSamples(format, (frames + 1) * nsig) <= carried) frames++
      }
      const tail = framesOf(frames)
      if (frames > 0) decodeWfdbFrames(format, carry, 0, frames, tail, 0, scratch)
      const leftoverBytes = carried - wfdbBytesForSamples(format, frames * nsig)
      carried = 0
      return { leftoverBytes, tail }
    },
  }

  function framesOf(frames: number): Int32Array[] {
    return signals.map(() => new Int32Array(frames))
  }
}

/**
 * Physical values in mV, `(d - baseline) / gain` scaled by the units; the format's invalid
 * value becomes NaN. Computed in float64 and rounded once to float32, dividing rather than
 * multiplying by 1/gain, so values equal wfdb-python's physical signal cast to float32.
 */
export function toPhysicalMv(digital: Int32Array, signal: WfdbSignal): Float32Array {
  const out = new Float32Array(digital.length)
  const invalid = WFDB_INVALID_SAMPLE[signal.format]
  const { baseline, gain, toMv } = signal
  // Two loops so the common mV case carries no multiplication.
  if (toMv === 1) {
    for (let i = 0; i < digital.length; i++) {
      const d = digital[i]
      out[i] = d === invalid ? NaN : (d - baseline) / gain
    }
  } else {
    for (let i = 0; i < digital.length; i++) {
      const d = digital[i]
      out[i] = d === invalid ? NaN : ((d - baseline) / gain) * toMv
    }
  }
  return out
}
