import { open } from 'node:fs/promises'
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeEdfSignal } from '../../src/formats/edf-decode.ts'
import { createEdfSignalDecoder } from '../../src/formats/edf-decode-wasm.ts'
import { EDF_DECODE_WASM } from '../../src/formats/edf-decode.wasm.ts'
import { readEdfHeaderFromFile } from '../../src/formats/edf-file.ts'
import { parseEdfHeader } from '../../src/formats/edf-header.ts'
import { encodeEdfHeader } from '../../src/formats/edf-writer.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
// @ts-expect-error: a plain .mjs script without types
import { edfKernelsSource } from '../../scripts/wasm-edf-kernels.mjs'

const bitsEqual = (a: Float32Array, b: Float32Array) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))

describe('EDF decoding through WebAssembly', () => {
  it('the committed bytes are what scripts/wasm-edf-kernels.mjs assembles from its WAT text', async () => {
    const source: string = await edfKernelsSource()
    expect(source).toContain(`'${EDF_DECODE_WASM}'`)
  })

  it('runs on this Node (WebAssembly SIMD), so the reader takes the kernel', () => {
    expect(createEdfSignalDecoder()).not.toBe(decodeEdfSignal)
    expect(createEdfSignalDecoder({ wasm: false })).toBe(decodeEdfSignal)
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
    const decode = createEdfSignalDecoder()
    for (const n of [1, 40, 3, 17]) {
      for (const s of [0, 1]) expect(bitsEqual(decode(records, h, s, n), decodeEdfSignal(records, h, s, n)), `signal ${s}, ${n} records`).toBe(true)
    }
  })

  it('refuses what decodeEdfSignal refuses', () => {
    const spec = {
      start: { year: 2020, month: 5, day: 4, hour: 3, minute: 2, second: 1 }, recordDurationSec: 1, recordCount: 2,
      signals: [{ label: 'ECG I', physicalDimension: 'mV', physicalMin: -10, physicalMax: 10, digitalMin: -1000, digitalMax: 1000, samplesPerRecord: 3 }],
    }
    const hdr = encodeEdfHeader(spec)
    const h = parseEdfHeader(hdr, 'x.edf', hdr.length)
    const decode = createEdfSignalDecoder()
    expect(() => decode(new Uint8Array(h.recordBytes), h, 0, 2)).toThrow(expect.objectContaining({ code: 'E_TRUNCATED' }))
    expect(() => decode(new Uint8Array(2 * h.recordBytes), h, 3, 2)).toThrow(expect.objectContaining({ code: 'E_INTERNAL' }))
  })
})

describeShared('EDF decoding through WebAssembly, shared recordings', () => {
  it('gives the bits of decodeEdfSignal for every signal of every file, 37 records at a time', async () => {
    const dir = sharedPath('data/edf')
    const files = readdirSync(dir).filter((x) => x.endsWith('.edf'))
    expect(files.length).toBeGreaterThanOrEqual(7)
    const decode = createEdfSignalDecoder()
    for (const f of files) {
      const { header: h } = await readEdfHeaderFromFile(`${dir}/${f}`)
      const handle = await open(`${dir}/${f}`, 'r')
      try {
        for (let r = 0; r < h.recordCount; r += 37) {
          const n = Math.min(37, h.recordCount - r)
          const bytes = new Uint8Array(n * h.recordBytes)
          await handle.read(bytes, 0, bytes.length, h.headerBytes + r * h.recordBytes)
          for (const s of h.signals.filter((x) => !x.isAnnotation)) {
            if (!bitsEqual(decode(bytes, h, s.index, n), decodeEdfSignal(bytes, h, s.index, n))) throw new Error(`${f}: signal ${s.index}, records ${r}..${r + n - 1} differ`)
          }
        }
      } finally {
        await handle.close()
      }
    }
  })
})
