import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { parseWfdbHeader } from '../../src/formats/wfdb-header.ts'
import type { WfdbSignal } from '../../src/formats/wfdb-header.ts'
import { createWfdbDecoder, datByteOffset, datFilesOf, toPhysicalMv } from '../../src/formats/wfdb-signal.ts'
import type { WfdbFormat } from '../../src/formats/wfdb-formats.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

/** Feeds `bytes` in chunks of `size` and joins the frames of every push and of end(). */
function decodeAll(signals: WfdbSignal[], bytes: Uint8Array, size: number) {
  const dec = createWfdbDecoder(signals, 'test.dat')
  const parts: Int32Array[][] = []
  for (let at = 0; at < bytes.length; at += size) parts.push(dec.push(bytes.subarray(at, at + size)))
  const { leftoverBytes, tail } = dec.end()
  parts.push(tail)
  const leads = signals.map((_, s) => {
    const out = new Int32Array(parts.reduce((n, p) => n + p[s].length, 0))
    let o = 0
    for (const p of parts) {
      out.set(p[s], o)
      o += p[s].length
    }
    return out
  })
  return { leads, leftoverBytes }
}

/** Index of the first differing element (-1 when equal); faster than toEqual on long arrays. */
function firstDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length)
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i
  return -1
}

function signalsOf(format: string, nsig: number, units = ''): WfdbSignal[] {
  const lines = Array.from({ length: nsig }, () => `t.dat ${format} 200(0)${units} 12 0`)
  return parseWfdbHeader(`t ${nsig} 360\n${lines.join('\n')}\n`, 't.hea').signals
}

/** Writes interleaved samples the way WFDB does (212: lone last sample in 2 bytes). */
function encode(format: WfdbFormat, flat: number[]): Uint8Array {
  const b: number[] = []
  if (format === 212) {
    for (let i = 0; i < flat.length; i += 2) {
      const a = flat[i] & 0xfff
      if (i + 1 === flat.length) {
        b.push(a & 0xff, a >> 8)
        break
      }
      const c = flat[i + 1] & 0xfff
      b.push(a & 0xff, (a >> 8) | ((c >> 8) << 4), c & 0xff)
    }
    return Uint8Array.from(b)
  }
  for (const v of flat) {
    if (format === 16) b.push(v & 0xff, (v >> 8) & 0xff)
    else if (format === 61) b.push((v >> 8) & 0xff, v & 0xff)
    else if (format === 80) b.push(v + 128)
    else if (format === 160) b.push((v + 32768) & 0xff, (v + 32768) >> 8)
    else if (format === 24) b.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff)
    else b.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff)
  }
  return Uint8Array.from(b)
}

const RANGE: Record<WfdbFormat, [number, number]> = {
  212: [-2048, 2047], 16: [-32768, 32767], 61: [-32768, 32767], 80: [-128, 127],
  160: [-32768, 32767], 24: [-8388608, 8388607], 32: [-2147483648, 2147483647],
}

describe('createWfdbDecoder round trips', () => {
  const formats: WfdbFormat[] = [212, 16, 61, 80, 160, 24, 32]
  const cases = formats.flatMap((f) => [1, 2, 3].map((nsig) => [f, nsig] as const))
  it.each(cases)('format %i with %i signal(s), chunk sizes 1, 5 and whole', (format, nsig) => {
    const [lo, hi] = RANGE[format]
    const frames = 11 // odd, so 212 with an odd signal count ends in a half group
    const flat = Array.from({ length: frames * nsig }, (_, i) => (i % 5 === 0 ? lo : i % 5 === 1 ? hi : ((i * 7919) % (hi - lo + 1)) + lo))
    const bytes = encode(format, flat)
    const expected = Array.from({ length: nsig }, (_, s) => Int32Array.from(flat.filter((_, i) => i % nsig === s)))
    for (const size of [1, 5, bytes.length]) {
      const { leads, leftoverBytes } = decodeAll(signalsOf(String(format), nsig), bytes, size)
      expect(leads).toEqual(expected)
      expect(leftoverBytes).toBe(0)
    }
  })

  it('decodes format 212 with 3 signals in 2-frame units and reports a torn last frame', () => {
    const signals = signalsOf('212', 3)
    const dec = createWfdbDecoder(signals, 't.dat')
    expect(dec.bytesPerFrame).toBe(4.5)
    const bytes = encode(212, [1, -2, 3, 4, -5, 6, 7, 8, 9, 10, 11, 12])
    expect(dec.push(bytes.subarray(0, 8))).toEqual([0, 0, 0].map(() => new Int32Array(0)))
    expect(dec.push(bytes.subarray(8, 17))).toEqual([Int32Array.of(1, 4), Int32Array.of(-2, -5), Int32Array.of(3, 6)])
    expect(dec.end()).toEqual({ leftoverBytes: 3, tail: [Int32Array.of(7), Int32Array.of(8), Int32Array.of(9)] })
  })

  it('refuses signals of different files or formats', () => {
    const [a] = signalsOf('16', 1)
    const b = { ...a, index: 1, fileName: 'other.dat' }
    expect(() => createWfdbDecoder([a, b], 't.dat')).toThrow(PipelineError)
  })
})

describe('toPhysicalMv', () => {
  it('maps (d - baseline) / gain, scales by units and turns the invalid value into NaN', () => {
    const [mv] = signalsOf('212', 1)
    expect(Array.from(toPhysicalMv(Int32Array.of(200, -2048, 0, -100), mv))).toEqual([1, NaN, 0, -0.5])
    const [uv] = signalsOf('16', 1, '/uV')
    expect(Array.from(toPhysicalMv(Int32Array.of(400, -32768), uv))).toEqual([Math.fround(0.002), NaN])
    const [b80] = signalsOf('80', 1)
    expect(Number.isNaN(toPhysicalMv(Int32Array.of(-128), b80)[0])).toBe(true)
  })
})

describe('datFilesOf and datByteOffset', () => {
  it('groups signals by .dat in header order, with format and byte offset', () => {
    const h = parseWfdbHeader('r 3\na.dat 16+24\na.dat 16+24\nb.dat 212\n', 'r.hea')
    expect(datFilesOf(h)).toEqual([
      { fileName: 'a.dat', signals: [0, 1], format: 16, byteOffset: 24 },
      { fileName: 'b.dat', signals: [2], format: 212, byteOffset: 0 },
    ])
    expect(datByteOffset(h.signals[0])).toBe(24)
  })
})

describeShared('decoding real records', () => {
  const header = (rel: string) => parseWfdbHeader(readFileSync(sharedPath(rel), 'utf8'), rel)

  it.each(['100', '208'])('record %s lead 0 equals wfdb-python physical values, whatever the chunking', (rec) => {
    const h = header(`data/mitdb/${rec}.hea`)
    const bytes = new Uint8Array(readFileSync(sharedPath(`data/mitdb/${rec}.dat`)))
    const golden = new Uint8Array(readFileSync(sharedPath(`golden/dsp/${rec}_lead0_raw_mV.f32`)))
    const whole = decodeAll(h.signals, bytes, 65537)
    expect(whole.leads[0].length).toBe(650000)
    expect(whole.leftoverBytes).toBe(0)
    const mv = toPhysicalMv(whole.leads[0], h.signals[0])
    expect(firstDiff(new Uint8Array(mv.buffer), golden)).toBe(-1)
    for (const size of [7, 1]) {
      // 1-byte chunks over the first 64 KiB keep the test quick and still cross every boundary kind.
      const part = size === 1 ? bytes.subarray(0, 65536) : bytes
      const { leads } = decodeAll(h.signals, part, size)
      for (let s = 0; s < 2; s++) expect(firstDiff(leads[s], whole.leads[s].subarray(0, leads[s].length))).toBe(-1)
      expect(leads[0].length).toBe(size === 1 ? Math.floor(65536 / 3) : 650000)
    }
  })

  it('decodes all 1,048,577 samples of Icentia11k p00000_s00 (format 16)', () => {
    const h = header('data/icentia11k/p00000_s00.hea')
    const bytes = new Uint8Array(readFileSync(sharedPath('data/icentia11k/p00000_s00.dat')))
    const { leads, leftoverBytes } = decodeAll(h.signals, bytes, 65537)
    expect(leads[0].length).toBe(1048577)
    expect(leftoverBytes).toBe(0)
    expect(leads[0][0]).toBe(h.signals[0].initialValue)
    let sum = 0
    for (const v of leads[0]) sum = (sum + v) | 0
    expect((sum << 16) >> 16).toBe(h.signals[0].checksum) // WFDB's 16-bit checksum
  })
})
