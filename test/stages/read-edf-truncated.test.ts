// The read stage on an EDF cut in the middle of a data record (a copy of mitbih100_30min.edf made
// in the temp folder): 'warn' (default) reads the complete records and says how many are
// complete and missing; 'fail' fails the record with E_TRUNCATED before emitting anything.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { annotationsOf, blocksOf, concatLead, readRecord, readUntilError, recordSpec, recordingOf } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

// mitbih100_30min.edf: 1024 header bytes, 1800 data records of 1480 bytes (2 x 360 samples + 40 TAL bytes).
const HEADER = 1024
const RECORD = 1480
const KEEP = 100

describeShared('read stage: EDF truncated inside a data record', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'read-edf-trunc-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))
  const file = path.join(tmp, 'cut.edf')
  beforeAll(() => {
    writeFileSync(file, readFileSync(sharedPath('data/edf/mitbih100_30min.edf')).subarray(0, HEADER + KEEP * RECORD + 700))
  })

  it('default: warns E_TRUNCATED (complete and missing record counts) and yields the complete records', async () => {
    const { items, warnings } = await readRecord(recordSpec(file))
    expect(warnings).toHaveLength(1)
    expect(warnings[0].code).toBe('E_TRUNCATED')
    expect(warnings[0].message).toContain('holds 100 complete data records (100.0 s) of the 1800 declared')
    expect(warnings[0].message).toContain('1700 data records (1700.0 s) are missing')
    expect(warnings[0].message).toContain('ends 700 bytes into data record 100 (of 1480 bytes)')
    expect(recordingOf(items)).toMatchObject({ totalSamples: KEEP * 360, durationSec: KEEP })
    const full = await readRecord(recordSpec(sharedPath('data/edf/mitbih100_30min.edf')))
    for (const lead of [0, 1]) {
      const got = concatLead(items, lead)
      expect(got.length).toBe(KEEP * 360)
      expect(Buffer.from(got.buffer).equals(Buffer.from(concatLead(full.items, lead).subarray(0, KEEP * 360).slice().buffer))).toBe(true)
    }
    expect(blocksOf(items).at(-1)!.startSample + blocksOf(items).at(-1)!.leads[0].length).toBe(KEEP * 360)
    expect(annotationsOf(items)).toEqual(annotationsOf(full.items).filter((a) => a.sample < KEEP * 360))
  })

  it("onTruncated: 'fail' fails with E_TRUNCATED naming the file and offset, before any item", async () => {
    const { items, error } = await readUntilError(recordSpec(file), { onTruncated: 'fail' })
    expect(items).toEqual([])
    expect(error).toBeInstanceOf(PipelineError)
    expect(error).toMatchObject({ code: 'E_TRUNCATED', context: { file, offset: HEADER + KEEP * RECORD } })
    expect((error as Error).message).toContain('1700 data records (1700.0 s) are missing')
    expect((error as Error).message).toContain("onTruncated is 'fail'")
  })

  it('a broken TAL fails the record at its file offset, after the blocks before it, with annotations: false too', async () => {
    const broken = path.join(tmp, 'broken.edf')
    const bytes = Uint8Array.from(readFileSync(file).subarray(0, HEADER + 50 * RECORD))
    const offset = HEADER + 30 * RECORD + RECORD - 40 // first TAL byte of data record 30
    bytes[offset] = 'X'.charCodeAt(0)
    writeFileSync(broken, bytes)
    const { items, error } = await readUntilError(recordSpec(broken))
    expect(error).toBeInstanceOf(PipelineError)
    expect(error).toMatchObject({ code: 'E_EDF_ANNOTATION', context: { file: broken, offset, dataRecord: 30, field: 'EDF Annotations' } })
    expect((error as Error).message).toContain(`${broken}: data record 30, byte 0 of the annotation signal: expected '+' or '-' starting a TAL onset, found byte 0x58 'X'`)
    // The original error (offset inside the annotation signal) is the cause.
    expect((error as PipelineError).cause).toMatchObject({ code: 'E_EDF_ANNOTATION', context: { offset: 0 } })
    // Blocks of the 3 whole chunks (10 records each) before record 30 went out.
    expect(blocksOf(items).map((b) => b.startSample)).toEqual([0, 3600, 7200])
    // The TALs are what shows the data records match the header (pipeline info parses them too),
    // so reading without annotations fails the same way.
    const plain = await readUntilError(recordSpec(broken), { annotations: false, onTruncated: 'warn' })
    expect(plain.error).toMatchObject({ code: 'E_EDF_ANNOTATION', message: (error as Error).message, context: { offset } })
    expect(annotationsOf(plain.items)).toEqual([])
    expect(blocksOf(plain.items).map((b) => b.startSample)).toEqual([0, 3600, 7200])
  })

  it('a file cut exactly after a record still reports the missing records', async () => {
    const exact = path.join(tmp, 'exact.edf')
    writeFileSync(exact, readFileSync(file).subarray(0, HEADER + 3 * RECORD))
    const { items, warnings } = await readRecord(recordSpec(exact))
    expect(warnings.map((w) => w.code)).toEqual(['E_TRUNCATED'])
    expect(warnings[0].message).toContain('holds 3 complete data records (3.0 s) of the 1800 declared; 1797 data records')
    expect(warnings[0].message).not.toContain('bytes into')
    expect(recordingOf(items).totalSamples).toBe(3 * 360)
  })
})
