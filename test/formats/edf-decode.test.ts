import { open } from 'node:fs/promises'
import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { decodeEdfDigital, decodeEdfSignal, signalBytes } from '../../src/formats/edf-decode.ts'
import { readEdfHeaderFromFile } from '../../src/formats/edf-file.ts'
import { parseEdfHeader, type EdfHeader } from '../../src/formats/edf-header.ts'
import { encodeEdfHeader } from '../../src/formats/edf-writer.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

/** Reads a file's data records in chunks of `chunk` records, like a streaming reader would. */
async function* recordChunks(path: string, h: EdfHeader, chunk: number): AsyncGenerator<{ bytes: Uint8Array; n: number }> {
  const handle = await open(path, 'r')
  try {
    for (let r = 0; r < h.recordCount; r += chunk) {
      const n = Math.min(chunk, h.recordCount - r)
      const bytes = new Uint8Array(n * h.recordBytes)
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, h.headerBytes + r * h.recordBytes)
      expect(bytesRead).toBe(bytes.length)
      yield { bytes, n }
    }
  } finally {
    await handle.close()
  }
}

/** All physical values (mV) of every data signal, decoded chunk by chunk. */
async function decodeAll(path: string, chunk: number): Promise<{ h: EdfHeader; signals: Float32Array[] }> {
  const { header: h } = await readEdfHeaderFromFile(path)
  const data = h.signals.filter((s) => !s.isAnnotation)
  const signals = data.map((s) => new Float32Array(s.samplesPerRecord * h.recordCount))
  const filled = data.map(() => 0)
  for await (const { bytes, n } of recordChunks(path, h, chunk)) {
    data.forEach((s, k) => {
      const part = decodeEdfSignal(bytes, h, s.index, n)
      expect(part.length).toBe(s.samplesPerRecord * n)
      signals[k].set(part, filled[k])
      filled[k] += part.length
    })
  }
  data.forEach((s, k) => expect(filled[k]).toBe(s.samplesPerRecord * h.recordCount))
  return { h, signals }
}

type EdfDecoderModule = {
  EdfDecoder: new () => {
    setInput(b: ArrayBuffer): void
    decode(): void
    getOutput(): { getPhysicalSignalConcatRecords(signal: number, start: number, n: number): Float32Array }
  }
}
const edfdecoder = createRequire(import.meta.url)('edfdecoder') as EdfDecoderModule

function referenceDecode(path: string) {
  const b = readFileSync(path)
  const d = new edfdecoder.EdfDecoder()
  d.setInput(b.buffer.slice(b.byteOffset, b.byteOffset + b.length))
  d.decode()
  return d.getOutput()
}

describeShared('EDF sample decoding of the shared recordings', () => {
  const dir = sharedPath('data/edf')

  it('decodes every data record of every file with the declared sample counts', async () => {
    const files = readdirSync(dir).filter((x) => x.endsWith('.edf'))
    expect(files.length).toBeGreaterThanOrEqual(7)
    for (const f of files) {
      const { h, signals } = await decodeAll(`${dir}/${f}`, 37)
      for (const s of signals) expect(s.every(Number.isFinite), f).toBe(true)
      expect(signals.length, f).toBe(h.signals.filter((s) => !s.isAnnotation).length)
    }
  })

  it.each(['mitbih100_30min.edf', 'Subject00_2.edf'])('matches edfdecoder on %s to float32 precision', async (f) => {
    const path = `${dir}/${f}`
    const { h, signals } = await decodeAll(path, 64)
    const ref = referenceDecode(path)
    h.signals.filter((s) => !s.isAnnotation).forEach((s, k) => {
      const expected = ref.getPhysicalSignalConcatRecords(s.index, 0, h.recordCount)
      const unit = s.toMv ?? 1
      const tol = Math.abs(s.physicalMax - s.physicalMin) * unit * 1e-6
      expect(expected.length).toBe(signals[k].length)
      let worst = 0
      for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(expected[i] * unit - signals[k][i]))
      expect(worst, s.label).toBeLessThanOrEqual(tol)
    })
  })

  it('decodes the eegmat ECG in mV and the EEG converted from uV', async () => {
    const { h, signals } = await decodeAll(`${dir}/Subject00_2.edf`, 10)
    const ecg = signals[20]
    expect(h.signals[20].label).toBe('ECG ECG')
    expect(ecg.length).toBe(62 * 500)
    expect(Math.max(...ecg)).toBeLessThanOrEqual(0.611228 + 1e-6)
    expect(Math.min(...ecg)).toBeGreaterThanOrEqual(-0.12418 - 1e-6)
    expect(Math.max(...signals[0].map(Math.abs))).toBeLessThan(0.1) // EEG Fp1: tens of uV = hundredths of mV
  })
})

describe('EDF/BDF sample decoding (synthetic)', () => {
  const spec = {
    start: { year: 2020, month: 5, day: 4, hour: 3, minute: 2, second: 1 },
    recordDurationSec: 0.5, recordCount: 2,
    signals: [
      { label: 'ECG I', physicalDimension: 'mV', physicalMin: -10, physicalMax: 10, digitalMin: -1000, digitalMax: 1000, samplesPerRecord: 3 },
      { label: 'ECG II', physicalDimension: 'V', physicalMin: -1, physicalMax: 1, digitalMin: -32768, digitalMax: 32767, samplesPerRecord: 2 },
    ],
    annotationBytesPerRecord: 4,
  }

  it('reads 16-bit little-endian samples at an odd byte offset', () => {
    const hdr = encodeEdfHeader(spec)
    const h = parseEdfHeader(hdr, 'x.edf', hdr.length + 2 * 14)
    const digital = [[-1000, 0, 1000, -32768, 32767], [1, -1, 500, 2, -2]]
    const buf = new Uint8Array(1 + 2 * h.recordBytes) // leading byte: the records start unaligned
    const view = new DataView(buf.buffer, 1)
    digital.forEach((rec, r) => rec.forEach((v, i) => view.setInt16(r * h.recordBytes + i * 2, v, true)))
    const records = buf.subarray(1)
    expect([...decodeEdfDigital(records, h, 0, 2)]).toEqual([-1000, 0, 1000, 1, -1, 500])
    expect([...decodeEdfDigital(records, h, 1, 2)]).toEqual([-32768, 32767, 2, -2])
    const mv = decodeEdfSignal(records, h, 0, 2)
    expect([...mv].map((x) => +x.toFixed(4))).toEqual([-10, 0, 10, 0.01, -0.01, 5])
    const v = decodeEdfSignal(records, h, 1, 2)
    expect(v[0]).toBeCloseTo(-1000, 3) // -1 V in mV
    expect(v[1]).toBeCloseTo(1000, 3)
    expect(h.signals[0].sampleRate).toBe(6)
    expect(signalBytes(records, h, 2, 1)).toHaveLength(4)
  })

  it('reads 24-bit BDF samples with sign extension', () => {
    const hdr = encodeEdfHeader({ ...spec, signals: [{ ...spec.signals[0], physicalMin: -8388608, physicalMax: 8388607, samplesPerRecord: 4 }] })
    // The EDF writer stops at 16 bits, so widen the digital range by hand (ns = 2: fields at 256 + 2 * start).
    hdr.set(new TextEncoder().encode('-8388608'), 256 + 2 * 120)
    hdr.set(new TextEncoder().encode('8388607 '), 256 + 2 * 128)
    hdr[0] = 0xff
    hdr.set(new TextEncoder().encode('BIOSEMI'), 1)
    const h = parseEdfHeader(hdr, 'x.bdf', hdr.length + 2 * (4 + 2) * 3)
    expect(h.bytesPerSample).toBe(3)
    const values = [-8388608, -1, 0, 8388607]
    const rec = new Uint8Array(h.recordBytes)
    values.forEach((v, i) => rec.set([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff], i * 3))
    expect([...decodeEdfDigital(rec, h, 0, 1)]).toEqual(values)
    expect([...decodeEdfSignal(rec, h, 0, 1)]).toEqual(values)
  })

  it('refuses a buffer that does not hold the requested whole records', () => {
    const hdr = encodeEdfHeader(spec)
    const h = parseEdfHeader(hdr, 'x.edf', hdr.length)
    expect(() => decodeEdfSignal(new Uint8Array(h.recordBytes), h, 0, 2)).toThrow(expect.objectContaining({ code: 'E_TRUNCATED' }))
  })
})
