// The read stage on WFDB records: values against wfdb-python's golden physical signal, block
// layout, annotations streamed before the block holding their sample, and a .dat cut short.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import type { Item } from '../../src/core/items.ts'
import { annotationsOf, blocksOf, concatLead, readRecord, readUntilError, recordSpec, recordingOf } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

function goldenLead0(rec: string): Float32Array {
  const b = readFileSync(sharedPath(`golden/dsp/${rec}_lead0_raw_mV.f32`))
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))
}

/** Count of positions where two signals differ (float32 exact, NaN equal to NaN). */
function mismatches(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length)
  let n = 0
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) n++
  return n
}

/** Blocks start where the previous one ended; every annotation comes right before the block holding its sample. */
function expectStreamLayout(items: Item[], total: number): void {
  let next = 0
  let pending: number[] = []
  for (const item of items) {
    if (item.kind === 'annotation') pending.push((item as { sample: number }).sample)
    if (item.kind !== 'block') continue
    const b = blocksOf([item])[0]
    expect(b.startSample).toBe(next)
    const end = b.startSample + b.leads[0].length
    for (const s of pending) expect(s >= b.startSample && s < end, `annotation at ${s} before block ${b.startSample}..${end}`).toBe(true)
    pending = []
    next = end
  }
  expect(next).toBe(total)
  expect(pending, 'annotations after the last block').toEqual([])
}

describeShared('read stage: WFDB (MIT-BIH 100, 208; Icentia11k s00)', () => {
  for (const [rec, count] of [['100', 2274], ['208', 3040]] as const) {
    it(`record ${rec}: lead 0 equals wfdb-python's physical signal, ${count} annotations in place`, async () => {
      const { items, warnings } = await readRecord(recordSpec(sharedPath(`data/mitdb/${rec}`)))
      expect(warnings).toEqual([])
      expect(items[0]).toMatchObject({ kind: 'recording', format: 'WFDB', fs: 360, totalSamples: 650_000, units: 'mV' })
      expect(recordingOf(items).labels).toEqual(rec === '100' ? ['MLII', 'V5'] : ['MLII', 'V1'])
      const golden = goldenLead0(rec)
      expect(golden.length).toBe(650_000)
      const lead0 = concatLead(items, 0)
      expect(lead0.length).toBe(650_000)
      // float32 exact: same rounding as wfdb-python's float64 physical values cast to float32.
      expect(mismatches(lead0, golden)).toBe(0)
      expect(concatLead(items, 1).length).toBe(650_000)
      for (const b of blocksOf(items)) {
        expect(b.leads.map((l) => l.length)).toEqual([b.leads[0].length, b.leads[0].length])
        expect(b).toMatchObject({ recordId: 'rec', fs: 360 })
      }
      const notes = annotationsOf(items)
      expect(notes.length).toBe(count)
      expect(notes.map((a) => a.sample)).toEqual(notes.map((a) => a.sample).sort((x, y) => x - y))
      expect(notes.every((a) => a.timeMs === Math.round((a.sample / 360) * 1e6) / 1e3)).toBe(true)
      expectStreamLayout(items, 650_000)
    })
  }

  it('record 208 annotations: beat classes and rhythm changes with their aux text', async () => {
    const notes = annotationsOf((await readRecord(recordSpec(sharedPath('data/mitdb/208')))).items)
    const by = (s: string) => notes.filter((a) => a.symbol === s).length
    // 208 has 992 PVCs and 373 fusion beats (shared/data/README.md).
    expect([by('V'), by('F'), by('N')]).toEqual([992, 373, 1586])
    const rhythms = notes.filter((a) => a.symbol === '+')
    expect(new Set(rhythms.map((a) => a.aux))).toEqual(new Set(['(N', '(T']))
    expect(notes.filter((a) => a.symbol !== '+').every((a) => a.aux === '')).toBe(true)
  })

  it('block size follows blockSeconds (even frame counts) and leads by label/index', async () => {
    const { items } = await readRecord(recordSpec(sharedPath('data/mitdb/100'), { leads: ['v5', 0] }), { blockSeconds: 2.5 })
    expect(recordingOf(items).labels).toEqual(['V5', 'MLII'])
    const blocks = blocksOf(items)
    expect(blocks[0].leads[0].length).toBe(900)
    expect(blocks.length).toBe(Math.ceil(650_000 / 900))
    expect(mismatches(concatLead(items, 1), goldenLead0('100'))).toBe(0)
    expectStreamLayout(items, 650_000)
  })

  it('annotations: false reads no annotations; a missing explicit annotator warns', async () => {
    const off = await readRecord(recordSpec(sharedPath('data/mitdb/100')), { annotations: false })
    expect(annotationsOf(off.items)).toEqual([])
    const missing = await readRecord(recordSpec(sharedPath('data/mitdb/100'), { annotator: 'qrs', annotatorExplicit: true }))
    expect(annotationsOf(missing.items)).toEqual([])
    expect(missing.warnings).toEqual([{ code: 'W_NO_ANNOTATIONS', message: expect.stringContaining(`${sharedPath('data/mitdb/100.qrs')} not found`) }])
  })

  it('Icentia11k s00 (format 16, 250 Hz, gain 74.36...): 1,048,577 samples equal to digital / gain', async () => {
    const { items, warnings } = await readRecord(recordSpec(sharedPath('data/icentia11k/p00000_s00')))
    expect(warnings).toEqual([])
    expect(items[0]).toMatchObject({ kind: 'recording', fs: 250, totalSamples: 1_048_577, labels: ['ecg'] })
    const x = concatLead(items, 0)
    expect(x.length).toBe(1_048_577)
    // Independent decoding: format 16 is int16 little-endian; header gain 74.36482269503546, baseline 0.
    const dat = readFileSync(sharedPath('data/icentia11k/p00000_s00.dat'))
    expect(dat.length).toBe(2 * 1_048_577)
    let bad = 0
    for (let i = 0; i < x.length; i++) if (x[i] !== Math.fround(dat.readInt16LE(2 * i) / 74.36482269503546)) bad++
    expect(bad).toBe(0)
    const notes = annotationsOf(items)
    expect(notes.length).toBe(6923)
    expect(notes.filter((a) => a.symbol === 'N').length).toBe(6641)
    expect(notes.find((a) => a.symbol === '+')).toMatchObject({ sample: 28, aux: '(N', timeMs: 112 })
    expectStreamLayout(items, 1_048_577)
  })
})

describeShared('read stage: WFDB .dat cut short', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'read-wfdb-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))
  // 212 with 2 signals: 3 bytes per frame. 1,000,001 bytes = 333,333 whole frames + 2 bytes.
  const frames = 333_333
  let base: string
  beforeAll(() => {
    for (const ext of ['hea', 'dat', 'atr']) copyFileSync(sharedPath(`data/mitdb/100.${ext}`), path.join(tmp, `100.${ext}`))
    truncateSync(path.join(tmp, '100.dat'), 1_000_001)
    base = path.join(tmp, '100')
  })

  it('default: warns E_TRUNCATED with the counts and yields the complete samples', async () => {
    const { items, warnings } = await readRecord(recordSpec(base))
    const truncation = warnings.filter((w) => w.code === 'E_TRUNCATED')
    expect(truncation).toHaveLength(1)
    expect(truncation[0].message).toContain(path.join(tmp, '100.dat'))
    expect(truncation[0].message).toContain(`the header declares 650000 samples per signal, the file holds ${frames}`)
    expect(truncation[0].message).toContain(`${((650_000 - frames) / 360).toFixed(1)} s missing`)
    expect(recordingOf(items)).toMatchObject({ totalSamples: frames, durationSec: frames / 360 })
    const x = concatLead(items, 0)
    expect(x.length).toBe(frames)
    expect(mismatches(x, goldenLead0('100').subarray(0, frames))).toBe(0)
    expect(concatLead(items, 1).length).toBe(frames)
    // Annotations of the missing part are dropped with a warning, not emitted past the last block.
    const all = annotationsOf((await readRecord(recordSpec(sharedPath('data/mitdb/100')))).items)
    const kept = all.filter((a) => a.sample < frames)
    expect(annotationsOf(items)).toEqual(kept)
    expect(warnings.find((w) => w.code === 'W_ANNOTATIONS_DROPPED')?.message).toContain(`${all.length - kept.length} reference annotations at or after sample ${frames}`)
    expectStreamLayout(items, frames)
  })

  it("onTruncated: 'fail' fails with E_TRUNCATED before any item", async () => {
    const { items, error } = await readUntilError(recordSpec(base), { onTruncated: 'fail' })
    expect(items).toEqual([])
    expect(error).toBeInstanceOf(PipelineError)
    expect(error).toMatchObject({ code: 'E_TRUNCATED', context: { file: path.join(tmp, '100.dat') } })
    expect((error as Error).message).toContain(`the file holds ${frames}`)
    expect((error as Error).message).toContain("onTruncated is 'fail'")
  })

  it('an annotation file cut inside an annotation fails the record with E_WFDB_ANNOTATION naming it', async () => {
    const dir = mkdtempSync(path.join(tmp, 'atr-'))
    for (const ext of ['hea', 'dat', 'atr']) copyFileSync(sharedPath(`data/mitdb/208.${ext}`), path.join(dir, `208.${ext}`))
    truncateSync(path.join(dir, '208.atr'), 8577)
    const { items, error } = await readUntilError(recordSpec(path.join(dir, '208')))
    expect(error).toBeInstanceOf(PipelineError)
    expect(error).toMatchObject({ code: 'E_WFDB_ANNOTATION' })
    expect((error as Error).message).toContain(path.join(dir, '208.atr'))
    expect(items[0].kind).toBe('recording')
  })

  it('a .dat named by the header but missing fails with E_WFDB_DAT_MISSING', async () => {
    const dir = mkdtempSync(path.join(tmp, 'nodat-'))
    copyFileSync(sharedPath('data/mitdb/100.hea'), path.join(dir, '100.hea'))
    const { items, error } = await readUntilError(recordSpec(path.join(dir, '100.hea')))
    expect(items).toEqual([])
    expect(error).toMatchObject({ code: 'E_WFDB_DAT_MISSING', context: { file: path.join(dir, '100.hea'), field: 'fileName' } })
    expect((error as Error).message).toContain(`missing at ${path.join(dir, '100.dat')}`)
  })
})

describeShared('read stage: WFDB annotations out of sample order', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'read-wfdb-order-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  // An MIT annotation file of normal beats (code 1) at `samples`, in this order: a step back is a
  // negative SKIP, as WFDB writes for a null annotation.
  function atr(samples: number[]): Uint8Array {
    const b: number[] = []
    const word = (code: number, data: number) => b.push(data & 0xff, ((code << 2) | (data >> 8)) & 0xff)
    let at = 0
    for (const s of samples) {
      const d = s - at
      if (d < 0 || d > 1023) {
        const v = d >>> 0
        word(59, 0)
        b.push((v >>> 16) & 0xff, (v >>> 24) & 0xff, v & 0xff, (v >>> 8) & 0xff)
        word(1, 0)
      } else word(1, d)
      at = s
    }
    word(0, 0)
    return Uint8Array.from(b)
  }

  it('hands out annotations in file order, each with the first block past it and past every one before it in the file, whatever the file\'s size', async () => {
    for (const ext of ['hea', 'dat']) copyFileSync(sharedPath(`data/mitdb/100.${ext}`), path.join(tmp, `100.${ext}`))
    // A long file (over one 8 KB read) in order, with steps back in it and one across reads.
    const long = Array.from({ length: 6000 }, (_, i) => 100 + i * 100)
    long.splice(4500, 0, 500, 400_000)
    const cases = [
      [100, 3000, 5000, 9000, 20_000, 600_000],
      [100, 5000, 3000, 9000, 8000, 20_000, 19_999, 600_000], // steps back inside and across 10 s blocks
      long,
    ]
    for (const samples of cases) {
      writeFileSync(path.join(tmp, '100.atr'), atr(samples))
      const { items, warnings } = await readRecord(recordSpec(path.join(tmp, '100')))
      // A step back across blocks puts an annotation behind the watermark of the block before: said once.
      expect(warnings.map((w) => w.code)).toEqual(samples === cases[0] ? [] : ['W_LATE_ANNOTATION'])
      expect(annotationsOf(items).map((a) => a.sample)).toEqual(samples)
      // Where each one comes out: before the first block that ends past its sample and past
      // every annotation before it in the file (blocks of 10 s: 3600 samples).
      const blocks = blocksOf(items)
      expect(blocks.map((b) => b.startSample)).toEqual(blocks.map((_, j) => 3600 * j))
      let latest = 0
      const expectedBlock = samples.map((s) => (latest = Math.max(latest, Math.floor(s / 3600))))
      const blockAfter = items.flatMap((it, i) => (it.kind === 'annotation' ? [blocks.indexOf(items.slice(i).find((b) => b.kind === 'block') as (typeof blocks)[number])] : []))
      expect(blockAfter).toEqual(expectedBlock)
    }
  })
})
