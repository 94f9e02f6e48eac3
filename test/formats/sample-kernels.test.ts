import { open } from 'node:fs/promises'
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeEdfSignal } from '../../src/formats/edf-decode.ts'
import { createEdfLeadsDecoder } from '../../src/formats/edf-decode-wasm.ts'
import { SAMPLE_KERNELS_WASM } from '../../src/formats/sample-kernels-wasm-bytes.ts'
import { createWfdbPhysical } from '../../src/formats/wfdb-physical-wasm.ts'
import { toPhysicalMv } from '../../src/formats/wfdb-signal.ts'
import { WFDB_INVALID_SAMPLE, type WfdbFormat } from '../../src/formats/wfdb-formats.ts'
import type { WfdbSignal } from '../../src/formats/wfdb-header.ts'
import { readEdfHeaderFromFile } from '../../src/formats/edf-file.ts'
import { parseEdfHeader } from '../../src/formats/edf-header.ts'
import { encodeEdfHeader } from '../../src/formats/edf-writer.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
// @ts-expect-error: a plain .mjs script without types
import { sampleKernelsSource } from '../../scripts/wasm-sample-kernels.mjs'

const bitsEqual = (a: Float32Array, b: Float32Array) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))

describe('EDF decoding through WebAssembly', () => {
  it('the committed bytes are what scripts/wasm-sample-kernels.mjs assembles from its WAT text', async () => {
    const source: string = await sampleKernelsSource()
    expect(source).toContain(`'${SAMPLE_KERNELS_WASM}'`)
  })

  it('runs on this Node (WebAssembly SIMD), so the reader takes the kernel', () => {
    expect(createEdfLeadsDecoder().wasm).toBe(true)
    expect(createEdfLeadsDecoder({ wasm: false }).wasm).toBe(false)
  })

  // Every remainder of samples per record modulo 4, extreme digital values, scales that are not
  // exact in binary and a unit conversion, from records at an odd byte offset, in blocks that
  // grow the kernel's memory and shrink again.
  it.each([1, 2, 3, 4, 5, 7, 360, 1001])('gives the bits of decodeEdfSignal with %i samples per record', (spr) => {
    const spec = {
      start: { year: 2020, month: 5, day: 4, hour: 3, minute: 2, second: 1 },
      recordDurationSec: 1, recordCount: 40,
      signals: [
        { label: 'ECG I', physicalDimension: 'mV', physicalMin: -10.37, physicalMax: 10.13, digitalMin: -32768, digitalMax: 32767, samplesPerRecord: spr },
        { label: 'ECG II', physicalDimension: 'uV', physicalMin: -3277, physicalMax: 3276.7, digitalMin: -2048, digitalMax: 2047, samplesPerRecord: spr + 1 },
      ],
    }
    const hdr = encodeEdfHeader(spec)
    const h = parseEdfHeader(hdr, 'x.edf', hdr.length + 40 * (2 * spr + 1) * 2)
    const buf = new Uint8Array(1 + 40 * h.recordBytes)
    const view = new DataView(buf.buffer, 1)
    for (let i = 0; i < 40 * h.recordBytes / 2; i++) view.setInt16(2 * i, i % 97 === 0 ? -32768 : i % 89 === 0 ? 32767 : ((i * 7919) % 65536) - 32768, true)
    const records = buf.subarray(1)
    const decode = createEdfLeadsDecoder()
    for (const n of [1, 40, 3, 17, 0]) {
      // Each signal alone, both in one call (one copy of the records in), and in reverse order.
      for (const ask of [[0], [1], [0, 1], [1, 0]]) {
        const got = decode(records, h, ask, n)
        ask.forEach((s, k) => expect(bitsEqual(got[k], decodeEdfSignal(records, h, s, n)), `signal ${s} of [${ask}], ${n} records`).toBe(true))
      }
    }
  })

  it('hands what it cannot decode to decodeEdfSignal, whose errors it keeps', () => {
    const spec = {
      start: { year: 2020, month: 5, day: 4, hour: 3, minute: 2, second: 1 }, recordDurationSec: 1, recordCount: 2,
      signals: [{ label: 'ECG I', physicalDimension: 'mV', physicalMin: -10, physicalMax: 10, digitalMin: -1000, digitalMax: 1000, samplesPerRecord: 3 }],
    }
    const hdr = encodeEdfHeader(spec)
    const h = parseEdfHeader(hdr, 'x.edf', hdr.length)
    const decode = createEdfLeadsDecoder()
    expect(() => decode(new Uint8Array(h.recordBytes), h, [0], 2)).toThrow(expect.objectContaining({ code: 'E_TRUNCATED' }))
    expect(() => decode(new Uint8Array(2 * h.recordBytes), h, [0, 3], 2)).toThrow(expect.objectContaining({ code: 'E_INTERNAL' }))
  })
})

describeShared('EDF decoding through WebAssembly, shared recordings', () => {
  it('gives the bits of decodeEdfSignal for every signal of every file, 37 records at a time', async () => {
    const dir = sharedPath('data/edf')
    const files = readdirSync(dir).filter((x) => x.endsWith('.edf'))
    expect(files.length).toBeGreaterThanOrEqual(7)
    const decode = createEdfLeadsDecoder()
    for (const f of files) {
      const { header: h } = await readEdfHeaderFromFile(`${dir}/${f}`)
      const handle = await open(`${dir}/${f}`, 'r')
      try {
        for (let r = 0; r < h.recordCount; r += 37) {
          const n = Math.min(37, h.recordCount - r)
          const bytes = new Uint8Array(n * h.recordBytes)
          await handle.read(bytes, 0, bytes.length, h.headerBytes + r * h.recordBytes)
          const signals = h.signals.filter((x) => !x.isAnnotation).map((x) => x.index)
          const got = decode(bytes, h, signals, n)
          signals.forEach((s, k) => {
            if (!bitsEqual(got[k], decodeEdfSignal(bytes, h, s, n))) throw new Error(`${f}: signal ${s}, records ${r}..${r + n - 1} differ`)
          })
        }
      } finally {
        await handle.close()
      }
    }
  })
})

describe('WFDB digital values to mV through WebAssembly', () => {
  it('runs on this Node (WebAssembly SIMD)', () => {
    expect(createWfdbPhysical()).not.toBe(toPhysicalMv)
    expect(createWfdbPhysical({ wasm: false })).toBe(toPhysicalMv)
  })

  // Every format's invalid value (NaN, written as a Float32Array store writes it), gains and
  // baselines that are not exact in binary, mV and uV units, and lengths of every remainder mod 4.
  it.each([[212, 200, 1024, 1], [16, 74.36482269503546, 0, 1], [16, 400, -12, 0.001], [61, 200, -3, 1], [24, 3.3, 7, 1000], [32, 1e6, -5, 1], [80, 1.7, 5, 1], [160, 200, 32768, 1]] as [WfdbFormat, number, number, number][])(
    'format %i, gain %d, baseline %d, x%d: the bits of toPhysicalMv', (format, gain, baseline, toMv) => {
      const signal = { format, gain, baseline, toMv } as WfdbSignal
      const physical = createWfdbPhysical()
      const bad = WFDB_INVALID_SAMPLE[format]
      for (const n of [0, 1, 2, 3, 4, 5, 7, 2500, 9001]) {
        // Format 32 also gets values near +-2^31 (exact in the kernel's f64, as in JavaScript).
        const wide = (i: number) => (format === 32 ? (i % 2 ? 2 ** 31 - 1 - i : -(2 ** 31) + 1 + i) : format === 24 ? i * 1000 : 0)
        const digital = Int32Array.from({ length: n }, (_, i) => (i % 13 === 5 ? bad : ((i * 7919) % 4001) - 2000 + wide(i)))
        const a = physical(digital, signal)
        const b = toPhysicalMv(digital, signal)
        expect(bitsEqual(a, b), `${n} values`).toBe(true)
        if (n > 5) expect(Number.isNaN(a[5])).toBe(true)
      }
    })
})
