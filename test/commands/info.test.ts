// `pipeline info` in process (infoCommand with a collecting stream): text and JSON on a WFDB
// record and on an EDF+ file, warnings for data cut short, and the errors of a record that cannot
// be described.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, expect, it } from 'vitest'
import { infoCommand, type RecordingInfo } from '../../src/commands/info.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const tmp = mkdtempSync(path.join(tmpdir(), 'info-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

async function info(file: string, opts: { json?: boolean; format?: 'edf' | 'wfdb' } = {}): Promise<{ code: number; out: string }> {
  let out = ''
  const sink = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk)
      done()
    },
  })
  const code = await infoCommand(file, { ...opts, out: sink })
  return { code, out }
}

const json = async (file: string) => JSON.parse((await info(file, { json: true })).out) as RecordingInfo

describeShared('pipeline info', () => {
  it('WFDB record 100 as text: format, start, duration, signals with ranges, annotation count', async () => {
    const hea = sharedPath('data/mitdb/100.hea')
    const { code, out } = await info(sharedPath('data/mitdb/100'))
    expect(code).toBe(0)
    const lines = out.trimEnd().split('\n')
    expect(lines.slice(0, 6)).toEqual([
      `file:        ${hea}`,
      'format:      WFDB',
      'start time:  not specified',
      'duration:    0:30:05.556 (650000 samples per signal)',
      'patient:     age 69, sex M',
      'record:      100',
    ])
    expect(out).toContain('signals:     2\n')
    expect(out).toMatch(/^ {3}0 {2}"MLII" +360 Hz, physical -5\.12 \.\. 5\.115 mV, digital 0 \.\. 2047, file 100\.dat, format 212, gain 200 adu\/mV, baseline 1024/m)
    expect(out).toMatch(/^ {3}1 {2}"V5" +360 Hz, physical -5\.12 \.\. 5\.115 mV, digital 0 \.\. 2047/m)
    expect(out).toContain(`annotations: 2274 (2273 beats) in ${sharedPath('data/mitdb/100.atr')}\n`)
    expect(out).toContain('# 69 M 1085 1629 x1\n')
    expect(out).not.toContain('warning:')
  })

  it('WFDB record 208 as JSON', async () => {
    const j = await json(sharedPath('data/mitdb/208.hea'))
    expect(j).toMatchObject({
      format: 'WFDB', startTime: null, samples: 650_000, patient: { age: 23, sex: 'F' }, warnings: [],
      annotations: { file: sharedPath('data/mitdb/208.atr'), count: 3040, beats: 2955, byType: { N: 1586, V: 992, F: 373, '+(N': 27, '+(T': 26 } },
    })
    expect(j.durationSec).toBeCloseTo(650_000 / 360, 9)
    expect(j.signals.map((s) => [s.label, s.fs, s.units, s.physicalMin, s.physicalMax, s.digitalMin, s.digitalMax])).toEqual([
      ['MLII', 360, 'mV', -5.12, 5.115, 0, 2047],
      ['V1', 360, 'mV', -5.12, 5.115, 0, 2047],
    ])
  })

  it('Icentia11k s00: no patient line when age and sex are unknown; aux strings count apart', async () => {
    const { out } = await info(sharedPath('data/icentia11k/p00000_s00'))
    expect(out).not.toContain('patient:')
    expect(out).toMatch(/^ {3}0 {2}"ecg" +250 Hz, physical -440\.625 \.\. 440\.625 mV, digital -32767 \.\. 32767, file p00000_s00\.dat, format 16/m)
    expect(out).toContain('annotations: 6923 (6885 beats)')
  })

  it('EDF+ file as text and JSON', async () => {
    const file = sharedPath('data/edf/mitbih100_30min.edf')
    const { code, out } = await info(file)
    expect(code).toBe(0)
    expect(out).toContain('format:      EDF+C\n')
    expect(out).toContain('start time:  2000-01-01T00:00:00\n')
    expect(out).toContain('duration:    0:30:00.000 (648000 samples per signal)\n')
    expect(out).toContain('data records: 1800 x 1 s\n')
    expect(out).toMatch(/^ {3}0 {2}"ECG MLII" +360 Hz, physical -5\.12 \.\. 5\.115 mV, digital -1024 \.\. 1023, prefiltering HP:0\.1Hz LP:100Hz$/m)
    expect(out).toContain(`annotations: 2266 in ${file}\n`)
    expect(out).toContain('N 2231, A 33, +(N 1, V 1')
    const j = await json(file)
    expect(j).toMatchObject({ file, format: 'EDF+C', startTime: '2000-01-01T00:00:00', durationSec: 1800, samples: 648_000, annotations: { count: 2266 }, warnings: [] })
    // Annotation signals are not listed as signals.
    expect(j.signals.map((s) => [s.index, s.label, s.fs, s.units, s.physicalMin, s.physicalMax, s.digitalMin, s.digitalMax])).toEqual([
      [0, 'ECG MLII', 360, 'mV', -5.12, 5.115, -1024, 1023],
      [1, 'ECG V5', 360, 'mV', -5.12, 5.115, -1024, 1023],
    ])
  })

  it('eegmat EDF: all 21 data signals with their own units and ranges', async () => {
    const j = await json(sharedPath('data/edf/Subject00_1.edf'))
    expect(j.signals).toHaveLength(21)
    expect(j.signals[0]).toMatchObject({ label: 'EEG Fp1', fs: 500, units: 'uV', physicalMin: -45.1698, digitalMin: -32768, digitalMax: 32767 })
    expect(j.signals[20]).toMatchObject({ label: 'ECG ECG', fs: 500, units: 'mV', physicalMin: -0.20503, physicalMax: 0.654943 })
    expect(j.durationSec).toBe(182)
  })

  it('a truncated EDF prints a warning with the complete and missing record counts', async () => {
    const file = path.join(tmp, 'cut.edf')
    writeFileSync(file, readFileSync(sharedPath('data/edf/mitbih100_30min.edf')).subarray(0, 1024 + 100 * 1480 + 700))
    const { code, out } = await info(file)
    expect(code).toBe(0)
    expect(out).toContain('duration:    0:01:40.000 (36000 samples per signal)')
    expect(out).toContain('warning: file is truncated: it holds 100 complete data records (100.0 s) of the 1800 declared; 1700 data records (1700.0 s) are missing; it ends 700 bytes into data record 100 (of 1480 bytes)\n')
    expect((await json(file)).warnings).toEqual([expect.stringContaining('holds 100 complete data records')])
  })

  it('a truncated .dat prints a warning; a missing .dat fails with E_WFDB_DAT_MISSING', async () => {
    const dir = mkdtempSync(path.join(tmp, 'wfdb-'))
    copyFileSync(sharedPath('data/mitdb/100.hea'), path.join(dir, '100.hea'))
    await expect(info(path.join(dir, '100'))).rejects.toMatchObject({
      code: 'E_WFDB_DAT_MISSING', context: { file: path.join(dir, '100.hea'), field: 'fileName' },
      message: expect.stringContaining(`names signal file 100.dat, which is missing at ${path.join(dir, '100.dat')}`),
    })
    copyFileSync(sharedPath('data/mitdb/100.dat'), path.join(dir, '100.dat'))
    truncateSync(path.join(dir, '100.dat'), 300_000)
    const { code, out } = await info(path.join(dir, '100'))
    expect(code).toBe(0)
    expect(out).toContain(`warning: ${path.join(dir, '100.dat')} is truncated: 100000 of 650000 samples per signal present (1527.8 s missing)`)
    // Duration and sample count are those of the samples present, as the reader reads them.
    expect(out).toContain('duration:    0:04:37.778 (100000 samples per signal)')
    expect(out).toContain('annotations: none')
  })
})
