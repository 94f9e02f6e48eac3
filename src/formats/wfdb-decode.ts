// Byte loops that turn WFDB .dat bytes into digital sample values (signal(5)). They decode a
// flat run of interleaved samples; splitting by signal is the caller's job. Plain byte loops
// with shifts beat DataView here, and they read any alignment, so chunks can start anywhere.

import type { WfdbFormat } from './wfdb-formats.ts'

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

/** Splits interleaved samples (frame by frame) into one array per signal. */
export function deinterleave(flat: Int32Array, nsig: number): Int32Array[] {
  if (nsig === 1) return [flat]
  const frames = Math.floor(flat.length / nsig)
  const out: Int32Array[] = []
  for (let s = 0; s < nsig; s++) {
    const lead = new Int32Array(frames)
    for (let f = 0, k = s; f < frames; f++, k += nsig) lead[f] = flat[k]
    out.push(lead)
  }
  return out
}
