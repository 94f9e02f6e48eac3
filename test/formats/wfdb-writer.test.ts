// The WFDB writer against the reader: a record written from physical samples reads back through
// the read stage to the microvolt, NaN as NaN, out-of-range values clamped, and its header keeps
// WFDB's checksum and initial value (recomputed here from the .dat in a plain loop).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { parseWfdbHeader } from '../../src/formats/wfdb-header.ts'
import { digitalOf, writeWfdbRecord } from '../../src/formats/wfdb-writer.ts'
import { blocksOf, concatLead, readRecord, recordSpec, recordingOf } from '../helpers/read-record.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'hp-wfdb-write-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function written(name: string, fs: number, leads: { label: string; samples: Float32Array }[]): string {
  const rec = writeWfdbRecord(name, fs, leads)
  writeFileSync(path.join(dir, `${name}.hea`), rec.header)
  writeFileSync(path.join(dir, `${name}.dat`), rec.dat)
  return path.join(dir, name)
}

it('reads back every sample to the microvolt, two leads at 360 Hz', async () => {
  const n = 3600
  const a = new Float32Array(n).map((_, i) => 1.5 * Math.sin(i / 17) - 0.2)
  const b = new Float32Array(n).map((_, i) => ((i * 37) % 400) / 200 - 1) // MIT-BIH-like steps of 5 uV
  const base = written('r1', 360, [{ label: 'MLII', samples: a }, { label: 'V5', samples: b }])
  const { items } = await readRecord(recordSpec(`${base}.hea`, { annotator: false }))
  const rec = recordingOf(items)
  expect(rec.fs).toBe(360)
  expect(rec.totalSamples).toBe(n)
  expect(rec.labels).toEqual(['MLII', 'V5'])
  const ra = concatLead(items, 0)
  const rb = concatLead(items, 1)
  let worst = 0
  for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(ra[i] - a[i]))
  expect(worst).toBeLessThanOrEqual(0.0005 + 1e-6)
  for (let i = 0; i < n; i++) expect(Math.abs(rb[i] - b[i])).toBeLessThan(1e-6)
  expect(blocksOf(items).length).toBeGreaterThan(0)
})

it('writes NaN as the invalid value and clamps what 16 bits cannot hold', async () => {
  const s = new Float32Array([0.001, Number.NaN, 40, -40, -0.0004])
  expect([...s].map(digitalOf)).toEqual([1, -32768, 32767, -32767, -0])
  const base = written('r2', 250, [{ label: 'I', samples: s }])
  const lead = concatLead((await readRecord(recordSpec(`${base}.hea`, { annotator: false }))).items, 0)
  expect(Number.isNaN(lead[1])).toBe(true)
  expect(lead[0]).toBeCloseTo(0.001, 6)
  expect(lead[2]).toBeCloseTo(32.767, 4)
  expect(lead[3]).toBeCloseTo(-32.767, 4)
})

it('states the initial value and the 16-bit checksum WFDB keeps, and no comment lines', () => {
  const s = new Float32Array(1000).map((_, i) => 30 * Math.cos(i / 50)) // sums past 16 bits
  const base = written('r3', 500, [{ label: 'II', samples: s }])
  const text = readFileSync(`${base}.hea`, 'utf8')
  expect(text).not.toMatch(/^#/m)
  const h = parseWfdbHeader(text, 'r3.hea')
  const dat = readFileSync(`${base}.dat`)
  let sum = 0
  for (let i = 0; i < dat.length; i += 2) sum += dat.readInt16LE(i)
  const wrapped = ((sum % 65536) + 65536) % 65536
  expect(h.signals[0].checksum).toBe(wrapped >= 32768 ? wrapped - 65536 : wrapped)
  expect(h.signals[0].initialValue).toBe(dat.readInt16LE(0))
  expect(h.nsamples).toBe(1000)
  expect(h.fs).toBe(500)
})
