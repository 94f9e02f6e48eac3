// Byte loops that turn WFDB .dat bytes into digital sample values (signal(5)). They decode a
// flat run of interleaved samples; splitting by signal is the caller's job. Plain byte loops
// with shifts beat DataView here, and they read any alignment, so chunks can start anywhere.

import type { WfdbFormat } from './wfdb-formats.ts'

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/**
 * Decodes `count` consecutive samples of `format` from `src` at byte `at` into `out` from
 * index `outAt`. For 212 an odd `count` reads the lone last sample from 2 bytes, the way WFDB
 * ends a file. The caller guarantees that `src` holds the bytes (see wfdbBytesForSamples).
 */
export function decodeWfdbSamples(
  format: WfdbFormat,
  src: Uint8Array,
  at: number,
  count: number,
  out: Int32Array,
  outAt: number,
): void {
  let p = at
  let o = outAt
  const end = outAt + count
  switch (format) {
    case 212: {
      const pairsEnd = outAt + (count & ~1)
      while (o < pairsEnd) {
        const b1 = src[p + 1]
        // 12-bit two's complement: shift the sign bit up to bit 31 and back.
        out[o] = ((((b1 & 0x0f) << 8) | src[p]) << 20) >> 20
        out[o + 1] = ((((b1 & 0xf0) << 4) | src[p + 2]) << 20) >> 20
        p += 3
        o += 2
      }
      if (o < end) out[o] = ((((src[p + 1] & 0x0f) << 8) | src[p]) << 20) >> 20
      return
    }
    case 16:
      if (LITTLE_ENDIAN && ((src.byteOffset + at) & 1) === 0) {
        // Aligned: the native int16 -> int32 conversion of TypedArray.set, several times faster
        // than the byte loop (format 16 is Icentia11k's: 21 M samples per 23 h record).
        out.set(new Int16Array(src.buffer, src.byteOffset + at, count), outAt)
        return
      }
      for (; o < end; o++, p += 2) out[o] = ((src[p] | (src[p + 1] << 8)) << 16) >> 16
      return
    case 61:
      for (; o < end; o++, p += 2) out[o] = (((src[p] << 8) | src[p + 1]) << 16) >> 16
      return
    case 80:
      for (; o < end; o++, p++) out[o] = src[p] - 128
      return
    case 160:
      for (; o < end; o++, p += 2) out[o] = (src[p] | (src[p + 1] << 8)) - 32768
      return
    case 24:
      for (; o < end; o++, p += 3) out[o] = ((src[p] | (src[p + 1] << 8) | (src[p + 2] << 16)) << 8) >> 8
      return
    case 32:
      for (; o < end; o++, p += 4) out[o] = src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24)
      return
  }
}

/**
 * Decodes `frames` whole frames of `outs.length` signals from `src` at byte `at` into `outs`
 * from frame `outFrame`. One signal decodes in place; 212 with two signals (MIT-BIH and most
 * Holter files) has its own loop; other layouts decode into `scratch` and are split from there.
 * Returns the scratch buffer to use next time (grown when it was too small).
 */
export function decodeWfdbFrames(
  format: WfdbFormat,
  src: Uint8Array,
  at: number,
  frames: number,
  outs: Int32Array[],
  outFrame: number,
  scratch: Int32Array,
): Int32Array {
  const nsig = outs.length
  if (nsig === 1) {
    decodeWfdbSamples(format, src, at, frames, outs[0], outFrame)
    return scratch
  }
  if (format === 212 && nsig === 2) {
    const a = outs[0]
    const b = outs[1]
    for (let f = outFrame, end = outFrame + frames, p = at; f < end; f++, p += 3) {
      const b1 = src[p + 1]
      a[f] = ((((b1 & 0x0f) << 8) | src[p]) << 20) >> 20
      b[f] = ((((b1 & 0xf0) << 4) | src[p + 2]) << 20) >> 20
    }
    return scratch
  }
  const flat = scratch.length >= frames * nsig ? scratch : new Int32Array(frames * nsig)
  decodeWfdbSamples(format, src, at, frames * nsig, flat, 0)
  for (let s = 0; s < nsig; s++) {
    const lead = outs[s]
    for (let f = 0, k = s; f < frames; f++, k += nsig) lead[outFrame + f] = flat[k]
  }
  return flat
}
