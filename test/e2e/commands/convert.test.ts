// `pipeline convert` (WFDB -> EDF+C) round trip: the EDF written by the CLI, read back through the
// read stage, holds the WFDB record's physical values to within one quantisation step of the EDF
// signal (padding only at the end of the last data record) and every annotation unchanged.
import { copyFileSync, mkdtempSync, rmSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readEdfHeaderFromFile } from '../../../src/formats/edf-file.ts'
import { annotationsOf, blocksOf, concatLead, readRecord, recordSpec, recordingOf } from '../../helpers/read-record.ts'
import { runCli, type Exit as CliResult } from '../../helpers/child.ts'
import { describeShared, sharedPath } from '../../helpers/shared.ts'

const tmp = mkdtempSync(path.join(tmpdir(), 'convert-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describeShared('pipeline convert: WFDB -> EDF+ -> read stage', () => {
  const cases = [
    { name: 'MIT-BIH 208 (format 212, 2 leads)', input: 'data/mitdb/208', out: '208.edf', fs: 360, samples: 650_000, leads: 2, notes: 3040 },
    { name: 'Icentia11k s00 (format 16, gain 74.36...)', input: 'data/icentia11k/p00000_s00', out: 's00.edf', fs: 250, samples: 1_048_577, leads: 1, notes: 6923 },
  ]
  // Both conversions run at once (two child processes); the tests then read their outputs.
  const runs = new Map<string, CliResult>()
  beforeAll(async () => {
    const done = await Promise.all(cases.map((c) => runCli(['convert', sharedPath(c.input), path.join(tmp, c.out)])))
    cases.forEach((c, i) => runs.set(c.out, done[i]))
  })
  for (const c of cases) {
    it(`${c.name}: samples within one step, padding only at the end, annotations equal`, async () => {
      const output = path.join(tmp, c.out)
      const run = runs.get(c.out)!
      expect(run.stderr).toContain(`wrote ${output}: ${Math.ceil(c.samples / c.fs)} data records of 1 s, ${c.leads === 1 ? '1 signal' : `${c.leads} signals`} + EDF Annotations`)
      expect(run.code).toBe(0)
      const { header } = await readEdfHeaderFromFile(output)
      expect(header).toMatchObject({ format: 'EDF+C', recordDurationSec: 1, recordCount: Math.ceil(c.samples / c.fs), truncated: false, trailingBytes: 0 })
      const [back, wfdb] = await Promise.all([readRecord(recordSpec(output)), readRecord(recordSpec(sharedPath(c.input)))])
      expect(back.warnings).toEqual([])
      const padded = header.recordCount * c.fs
      expect(recordingOf(back.items)).toMatchObject({ fs: c.fs, totalSamples: padded, labels: recordingOf(wfdb.items).labels })
      expect(padded - c.samples).toBeGreaterThan(0)
      expect(padded - c.samples).toBeLessThan(c.fs)
      for (let lead = 0; lead < c.leads; lead++) {
        const s = header.signals[lead]
        const step = (s.physicalMax - s.physicalMin) / (s.digitalMax - s.digitalMin)
        const a = concatLead(back.items, lead)
        const b = concatLead(wfdb.items, lead)
        expect([a.length, b.length]).toEqual([padded, c.samples])
        let worst = 0
        for (let i = 0; i < c.samples; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]))
        expect(worst).toBeLessThanOrEqual(step)
        // The last data record is padded with the last sample value, after the signal only.
        for (let i = c.samples; i < padded; i++) expect(a[i]).toBe(a[c.samples - 1])
      }
      const key = (a: { sample: number; symbol: string; aux: string }) => [a.sample, a.symbol, a.aux]
      const got = annotationsOf(back.items)
      expect(got.length).toBe(c.notes)
      expect(got.map(key)).toEqual(annotationsOf(wfdb.items).map(key))
      // Read back, annotations still come before the block holding their sample.
      for (const a of got) {
        const next = blocksOf(back.items.slice(back.items.indexOf(a)))[0]
        expect(a.sample - next.startSample).toBeGreaterThanOrEqual(0)
        expect(a.sample - next.startSample).toBeLessThan(next.leads[0].length)
      }
    })
  }

  it('pipeline info on the converted 208 reports 3040 annotations (text and --json)', async () => {
    const output = path.join(tmp, '208.edf')
    expect(runs.get('208.edf')!.code).toBe(0)
    const [text, json] = await Promise.all([runCli(['info', output]), runCli(['info', output, '--json'])])
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(`annotations: 3040 in ${output}`)
    expect(text.stdout).toMatch(/N 1586, V 992, F 373, \+\(N 27, \+\(T 26/)
    expect(JSON.parse(json.stdout)).toMatchObject({ format: 'EDF+C', samples: 1806 * 360, annotations: { count: 3040 }, signals: [{ label: 'MLII', fs: 360, units: 'mV' }, { label: 'V1', fs: 360, units: 'mV' }] })
  })

  it('a truncated .dat: warns, writes the samples present and leaves out the annotations past them', async () => {
    const dir = mkdtempSync(path.join(tmp, 'cut-'))
    for (const ext of ['hea', 'dat', 'atr']) copyFileSync(sharedPath(`data/mitdb/100.${ext}`), path.join(dir, `100.${ext}`))
    truncateSync(path.join(dir, '100.dat'), 1_000_001) // 333,333 whole frames of 3 bytes
    const output = path.join(dir, '100.edf')
    const run = await runCli(['convert', path.join(dir, '100'), output])
    expect(run.code).toBe(0)
    expect(run.stderr).toContain(`warning: E_TRUNCATED: ${path.join(dir, '100.dat')}: .dat is truncated: the header declares 650000 samples per signal, the file holds 333333`)
    expect(run.stderr).toContain('warning: W_ANNOTATIONS_DROPPED: 1100 annotations at or after sample 333333')
    expect(run.stderr).toContain(`wrote ${output}: 926 data records of 1 s`)
    const [back, wfdb] = await Promise.all([readRecord(recordSpec(output)), readRecord(recordSpec(path.join(dir, '100')))])
    expect(recordingOf(back.items).totalSamples).toBe(926 * 360)
    const key = (a: { sample: number; symbol: string; aux: string }) => [a.sample, a.symbol, a.aux]
    expect(annotationsOf(back.items).map(key)).toEqual(annotationsOf(wfdb.items).map(key))
    expect(annotationsOf(back.items)).toHaveLength(2274 - 1100)
  })

  it('refuses a .dat named as the record and a non-.edf output with E_USAGE, saying what to name instead', async () => {
    const [datIn, badOut] = await Promise.all([
      runCli(['convert', sharedPath('data/mitdb/100.dat'), path.join(tmp, 'x.edf')]),
      runCli(['convert', sharedPath('data/mitdb/100'), path.join(tmp, 'x.txt')]),
    ])
    expect(datIn.code).toBe(2)
    expect(datIn.stderr).toContain(`error: E_USAGE: ${sharedPath('data/mitdb/100.dat')}: a WFDB record is named by its header or base path, found a ".dat" file; use ${sharedPath('data/mitdb/100')}.hea or ${sharedPath('data/mitdb/100')}`)
    expect(badOut.code).toBe(2)
    expect(badOut.stderr).toContain('the output file must end in .edf, found "x.txt"')
  })
})
