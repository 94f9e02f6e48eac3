import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readEdfHeaderFromFile } from '../../src/formats/edf-file.ts'
import { parseEdfHeader } from '../../src/formats/edf-header.ts'
import { selectEcgSignals } from '../../src/formats/edf-select.ts'
import { encodeEdfHeader, type EdfWriteSignal } from '../../src/formats/edf-writer.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

function headerWith(signals: Array<Partial<EdfWriteSignal> & { label: string }>, recordDurationSec = 1) {
  const full = signals.map((s) => ({
    physicalDimension: 'mV', physicalMin: -5, physicalMax: 5, digitalMin: -2048, digitalMax: 2047, samplesPerRecord: 250, ...s,
  }))
  const buf = encodeEdfHeader({ start: { year: 2024, month: 2, day: 29, hour: 8, minute: 0, second: 0 }, recordDurationSec, recordCount: 1, signals: full })
  return parseEdfHeader(buf, 'syn.edf', buf.length)
}

describe('selectEcgSignals', () => {
  it.each([
    [['ECG MLII', 'ECG V5'], [0, 1]],
    [['EEG Fp1', 'EKG', 'Resp'], [1]],
    [['MLII', 'V1', 'aVR', 'II', 'Lead III', 'EEG C3'], [0, 1, 2, 3, 4]],
    [['ecg1', 'EMG chin'], [0]],
  ])('finds the ECG signals among %j', (labels, expected) => {
    expect(selectEcgSignals(headerWith(labels.map((label) => ({ label }))), 'syn.edf')).toEqual(expected)
  })

  it('takes ECG from the transducer but skips non-voltage ECG-derived channels', () => {
    const h = headerWith([
      { label: 'Chan 1', transducer: 'ECG electrode' },
      { label: 'ECG HR', physicalDimension: 'bpm' },
      { label: 'ECG raw', physicalDimension: '' },
    ])
    expect(selectEcgSignals(h, 'syn.edf')).toEqual([0, 2])
  })

  it('honours a selector of labels (trimmed, any case) and indices, without duplicates', () => {
    const h = headerWith([{ label: 'EEG Fp1' }, { label: 'ECG V5' }, { label: 'ECG MLII' }])
    expect(selectEcgSignals(h, 'syn.edf', [' ecg mlii ', 0, 2])).toEqual([2, 0])
  })

  it('reports a missing selected lead with E_NO_ECG and the labels present', () => {
    const h = headerWith([{ label: 'EEG Fp1' }, { label: 'ECG V5' }])
    expect(() => selectEcgSignals(h, 'syn.edf', ['V7'])).toThrow(expect.objectContaining({
      code: 'E_NO_ECG', message: expect.stringMatching(/syn\.edf: .*"V7".*0 "EEG Fp1", 1 "ECG V5".*leads: \[/),
    }))
    expect(() => selectEcgSignals(h, 'syn.edf', [2])).toThrow(expect.objectContaining({ code: 'E_NO_ECG' })) // the annotation signal
  })

  it('fails with E_NO_ECG listing the labels when nothing looks like ECG', () => {
    const h = headerWith([{ label: 'EEG Fp1', physicalDimension: 'uV' }, { label: 'Resp' }])
    expect(() => selectEcgSignals(h, 'syn.edf')).toThrow(expect.objectContaining({
      code: 'E_NO_ECG', context: { file: 'syn.edf', field: 'leads' },
      message: expect.stringContaining('0 "EEG Fp1", 1 "Resp"'),
    }))
  })

  it('fails with E_LEAD_SELECT when the leads have different sample rates', () => {
    const h = headerWith([{ label: 'ECG I', samplesPerRecord: 250 }, { label: 'ECG II', samplesPerRecord: 500 }])
    expect(() => selectEcgSignals(h, 'syn.edf')).toThrow(expect.objectContaining({
      code: 'E_LEAD_SELECT', message: expect.stringContaining('"ECG I" at 250 Hz, "ECG II" at 500 Hz'),
    }))
    expect(selectEcgSignals(h, 'syn.edf', ['ECG II'])).toEqual([1])
  })
})

describeShared('ECG selection in the shared recordings', () => {
  it('finds "ECG ECG" among the 22 signals of every eegmat file, at 500 Hz in mV', async () => {
    const files = readdirSync(sharedPath('data/edf')).filter((f) => /^Subject.*\.edf$/.test(f))
    expect(files.length).toBe(4)
    for (const f of files) {
      const { header: h } = await readEdfHeaderFromFile(sharedPath(`data/edf/${f}`))
      expect(h.nSignals).toBe(22)
      expect(h.signals.filter((s) => s.isAnnotation)).toHaveLength(1)
      const picked = selectEcgSignals(h, f)
      expect(picked).toEqual([20])
      expect(h.signals[20]).toMatchObject({ label: 'ECG ECG', sampleRate: 500, physicalDimension: 'mV', toMv: 1 })
    }
  })

  it('finds both leads of mitbih100_30min.edf', async () => {
    const { header: h } = await readEdfHeaderFromFile(sharedPath('data/edf/mitbih100_30min.edf'))
    expect(selectEcgSignals(h, 'mitbih100_30min.edf')).toEqual([0, 1])
  })
})
