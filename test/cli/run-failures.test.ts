// `pipeline run` with bad recordings (child processes): a record that fails is reported (stderr,
// progress.ndjson) and the run exits with E_RECORDS_FAILED, while the other records' outputs are
// exactly those of a run without the bad one; a truncated file warns by default and fails the
// record with `onTruncated: fail`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../src/core/errors.ts'
import { runCli, type Exit as CliResult } from '../helpers/child.ts'
import { ROOT, describeShared, sharedPath } from '../helpers/shared.ts'

const tmp = mkdtempSync(path.join(tmpdir(), 'cli-run-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
const at = (name: string) => path.join(tmp, name)

// mitbih100_30min.edf: 1024 header bytes, data records of 1480 bytes whose last 40 bytes are the TAL.
const HEADER = 1024
const RECORD = 1480

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean)
const ofRecord = (file: string, id: string) => lines(file).filter((l) => JSON.parse(l).recordId === id)
const progress = (runDir: string) => lines(path.join(runDir, 'progress.ndjson')).map((l) => JSON.parse(l) as Record<string, unknown>)

function writeDataset(name: string, records: string[], readOptions = ''): string {
  const file = at(name)
  writeFileSync(file, `records:\n${records.map((r) => `  - ${r}\n`).join('')}stages:\n  - use: read${readOptions ? `\n    options: ${readOptions}` : ''}\n  - segment\n`)
  return file
}

describeShared('pipeline run: one bad recording among good ones', () => {
  const good100 = `path: ${path.join(ROOT, 'samples/mitdb/100')}`
  const good208 = `path: ${path.join(ROOT, 'samples/mitdb/208')}`
  let mixed: CliResult
  let alone: CliResult
  beforeAll(async () => {
    // The bad record fails in the middle of its stream: a TAL byte of data record 300 is broken,
    // after 300 s of blocks (and 30 windows) went down the pipeline.
    const edf = Uint8Array.from(readFileSync(sharedPath('data/edf/mitbih100_30min.edf')).subarray(0, HEADER + 600 * RECORD))
    edf[HEADER + 300 * RECORD + RECORD - 40] = 'X'.charCodeAt(0)
    writeFileSync(at('broken.edf'), edf)
    const both = writeDataset('mixed.yaml', [good100, `id: bad\n    path: broken.edf`, good208])
    const goodOnly = writeDataset('good.yaml', [good100, good208])
    ;[mixed, alone] = await Promise.all([runCli(['run', both, '--out', at('run-mixed')]), runCli(['run', goodOnly, '--out', at('run-good')])])
  })

  it('exits with E_RECORDS_FAILED and names the failed record and its error in the summary', () => {
    expect(alone.code).toBe(0)
    expect(mixed.code).toBe(ERROR_CODES.E_RECORDS_FAILED)
    expect(mixed.stderr).toContain('run mixed failed: 2 records done, 1 failed')
    const failed = mixed.stderr.split('\n').filter((l) => l.startsWith('  failed '))
    expect(failed).toHaveLength(1)
    const offset = HEADER + 300 * RECORD + RECORD - 40
    expect(failed[0]).toContain(`failed bad: E_EDF_ANNOTATION: record bad: stage read: ${at('broken.edf')}: data record 300, byte 0 of the annotation signal: expected '+' or '-' starting a TAL onset, found byte 0x58 'X'`)
    expect(failed[0]).toMatch(new RegExp(`\\(at byte ${offset}\\)$`))
    expect(mixed.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/)
  })

  it('progress.ndjson has a record-failed line for the bad record only', () => {
    const events = progress(at('run-mixed'))
    expect(events.filter((e) => e.t === 'record-failed')).toEqual([expect.objectContaining({ recordId: 'bad', code: 'E_EDF_ANNOTATION' })])
    expect(events.filter((e) => e.t === 'record-done').map((e) => e.recordId).sort()).toEqual(['100', '208'])
    expect(events.at(-1)).toMatchObject({ t: 'run-end', status: 'failed', done: 2, failed: 1 })
  })

  it("the good records' outputs equal those of a run without the bad one; nothing of the bad one is kept", () => {
    for (const kind of ['window', 'annotation', 'recording']) {
      const a = path.join(at('run-mixed'), `${kind}.ndjson`)
      const b = path.join(at('run-good'), `${kind}.ndjson`)
      for (const id of ['100', '208']) {
        const got = ofRecord(a, id)
        expect(got.length).toBeGreaterThan(0)
        expect(got).toEqual(ofRecord(b, id))
      }
      expect(ofRecord(a, 'bad')).toEqual([])
      expect(lines(a)).toEqual(lines(b))
    }
    expect(ofRecord(path.join(at('run-good'), 'window.ndjson'), '100')).toHaveLength(180)
    expect(ofRecord(path.join(at('run-good'), 'annotation.ndjson'), '208')).toHaveLength(3040)
  })
})

describeShared('pipeline run: recordings that fail the read stage', () => {
  beforeAll(() => {
    const real = readFileSync(sharedPath('data/edf/mitbih100_30min.edf'))
    writeFileSync(at('cut.edf'), real.subarray(0, HEADER + 100 * RECORD + 700))
    const eeg = Uint8Array.from(readFileSync(sharedPath('data/edf/Subject00_2.edf')))
    eeg.set(new TextEncoder().encode('EEG X1          '), 256 + 20 * 16)
    writeFileSync(at('eeg-only.edf'), eeg)
  })

  describe.concurrent('', () => {
    it('truncated EDF, default: exit 0, a warning with complete/missing counts, the complete records written', async () => {
      const file = writeDataset('cut-warn.yaml', ['path: cut.edf'])
      const r = await runCli(['run', file, '--out', at('run-cut-warn')])
      expect(r.code).toBe(0)
      expect(r.stderr).toContain('warning cut: file is truncated: it holds 100 complete data records (100.0 s) of the 1800 declared; 1700 data records (1700.0 s) are missing; it ends 700 bytes into data record 100 (of 1480 bytes); the complete records were read')
      expect(progress(at('run-cut-warn')).filter((e) => e.t === 'warning')).toEqual([expect.objectContaining({ recordId: 'cut', code: 'E_TRUNCATED' })])
      expect(lines(path.join(at('run-cut-warn'), 'window.ndjson'))).toHaveLength(10)
    })

    it("truncated EDF with onTruncated: fail: the record fails with E_TRUNCATED naming file and offset", async () => {
      const file = writeDataset('cut-fail.yaml', ['path: cut.edf'], '{onTruncated: fail}')
      const r = await runCli(['run', file, '--out', at('run-cut-fail')])
      expect(r.code).toBe(ERROR_CODES.E_RECORDS_FAILED)
      expect(r.stderr).toContain(`failed cut: E_TRUNCATED: record cut: stage read: ${at('cut.edf')}: byte ${HEADER + 100 * RECORD}: file is truncated: it holds 100 complete data records`)
      expect(r.stderr).toContain("(read: onTruncated is 'fail'; use 'warn' to read the complete records)")
      expect(progress(at('run-cut-fail')).filter((e) => e.t === 'record-failed')).toEqual([expect.objectContaining({ recordId: 'cut', code: 'E_TRUNCATED' })])
    })

    it('EDF without an ECG signal: the record fails with E_NO_ECG listing the labels', async () => {
      const file = writeDataset('eeg.yaml', ['path: eeg-only.edf'])
      const r = await runCli(['run', file, '--out', at('run-eeg')])
      expect(r.code).toBe(ERROR_CODES.E_RECORDS_FAILED)
      const failed = r.stderr.split('\n').filter((l) => l.startsWith('  failed '))
      expect(failed).toHaveLength(1)
      expect(failed[0]).toContain(`failed eeg-only: E_NO_ECG: record eeg-only: stage read: ${at('eeg-only.edf')}: expected a signal labelled ECG/EKG or with a lead name (MLII, V1...), found none; the signals are: 0 "EEG Fp1", 1 "EEG Fp2"`)
      expect(failed[0]).toContain('19 "EEG A2-A1", 20 "EEG X1"; choose the ECG leads')
    })

    it('WFDB header naming a missing .dat: the record fails with E_WFDB_DAT_MISSING', async () => {
      writeFileSync(at('lonely.hea'), readFileSync(sharedPath('data/mitdb/100.hea')))
      const file = writeDataset('nodat.yaml', ['path: lonely.hea'])
      const r = await runCli(['run', file, '--out', at('run-nodat')])
      expect(r.code).toBe(ERROR_CODES.E_RECORDS_FAILED)
      expect(r.stderr).toContain(`failed lonely: E_WFDB_DAT_MISSING: record lonely: stage read: ${at('lonely.hea')}: the header names signal file 100.dat, which is missing at ${at('100.dat')}`)
    })
  })
})
