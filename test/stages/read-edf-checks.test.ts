// The read stage checks an EDF as `pipeline info` does, on small files written in a temp folder:
// a header whose samples per record do not match the data records fails with info's error even
// with annotations: false; a start date that is no date warns W_EDF_START_DATE; an ECG-labelled
// signal in a unit that is not a voltage is named, with its unit, in E_NO_ECG.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { describeEdf } from '../../src/commands/info-edf.ts'
import { readRecord, readUntilError, recordSpec, recordingOf } from '../helpers/read-record.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { pipelineRejection } from '../helpers/thrown.ts'
import { ecgLike, writeEdfFixture, type FixtureSignal } from '../commands/edf-fixture.ts'

const FS = 200
const ecg = (label = 'ECG I', unit = 'mV'): FixtureSignal => ({
  label, unit, physMin: -5, physMax: 5, digMin: -32768, digMax: 32767, spr: FS, digital: (r, i) => Math.round(ecgLike(r + i / FS) * 6553),
})

describe('read stage: EDF checks shared with pipeline info', () => {
  const dir = tmpDir('hp-edf-checks-')

  it('a header whose samples per record do not match the data fails as in info, with or without annotations', async () => {
    const file = writeEdfFixture(path.join(dir, 'layout.edf'), { kind: 'EDF+C', recordSec: 1, records: 20, signals: [ecg()] })
    // The ECG's samples per record field (signal 0 of 2) says 199 where the records hold 200.
    const bytes = readFileSync(file)
    bytes.write('199     ', 256 + 2 * (16 + 80 + 8 + 8 + 8 + 8 + 8 + 80), 'latin1')
    writeFileSync(file, bytes)
    const info = await pipelineRejection(describeEdf(file))
    expect(info).toMatchObject({ code: 'E_EDF_ANNOTATION' })
    for (const annotations of [false, true]) {
      const { items, error } = await readUntilError(recordSpec(file), { annotations })
      expect(error).toBeInstanceOf(PipelineError)
      expect(error).toMatchObject({ code: 'E_EDF_ANNOTATION', message: info.message, context: { file, dataRecord: 0 } })
      expect(items.filter((i) => i.kind === 'block')).toEqual([])
    }
  })

  it('a well-formed EDF+C reads with annotations: false and no warning', async () => {
    const file = writeEdfFixture(path.join(dir, 'good.edf'), { kind: 'EDF+C', recordSec: 1, records: 5, signals: [ecg()], tals: [{ 2: '+2.5\x14N\x14\x00' }] })
    const { items, warnings } = await readRecord(recordSpec(file), { annotations: false })
    expect(warnings).toEqual([])
    expect(recordingOf(items)).toMatchObject({ totalSamples: 5 * FS, startTime: '2020-05-17T08:30:00' })
    expect(items.filter((i) => i.kind === 'annotation' || i.kind === 'gap')).toEqual([])
  })

  it('a start date that is not a date warns W_EDF_START_DATE naming the file and the field, and keeps startTime null', async () => {
    for (const [startDate, said] of [['32.13.10', 'expected dd.mm.yy with a day and month of a calendar date, found day 32 of month 13 in 2010;'], ['1.2.2010', 'expected dd.mm.yy;']]) {
      const file = writeEdfFixture(path.join(dir, `date-${startDate}.edf`), { kind: 'EDF', recordSec: 1, records: 2, signals: [ecg()], startDate })
      const { items, warnings } = await readRecord(recordSpec(file))
      expect(recordingOf(items).startTime).toBeNull()
      expect(warnings).toEqual([{ code: 'W_EDF_START_DATE', message: expect.stringContaining(`${file}: start date (byte 168) "${startDate}": ${said}`) }])
      expect(warnings[0].message).toContain("the recording's start time is unknown (startTime null")
    }
  })

  it('an ECG-labelled signal in a unit that is not a voltage: E_NO_ECG names the signal, its unit and the accepted units', async () => {
    for (const unit of ['mmHg', '%']) {
      const eeg: FixtureSignal = { ...ecg('EEG Fp1', 'uV'), physMin: -500, physMax: 500 }
      const file = writeEdfFixture(path.join(dir, `unit-${unit === '%' ? 'pct' : unit}.edf`), { kind: 'EDF', recordSec: 1, records: 2, signals: [eeg, ecg('ECG', unit)] })
      const { items, error } = await readUntilError(recordSpec(file))
      expect(items).toEqual([])
      expect(error).toMatchObject({ code: 'E_NO_ECG', context: { file, field: 'leads' } })
      const message = (error as Error).message
      expect(message).toContain(`${file}: expected an ECG signal in a voltage unit (uV, mV, V, nV, \u00b5V), found signal 1 "ECG" in "${unit}"`)
      expect(message).toContain('fix its physical dimension in the header, or select it by index')
      expect(message).toMatch(/e\.g\. leads: \[1\]$/)
    }
  })
})
