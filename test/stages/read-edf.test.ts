// The read stage on EDF/EDF+ files: parity of the EDF+ copy of MIT-BIH 100 with the WFDB record
// and with its annotation CSV, every EDF of ../shared/data/edf read whole (values checked against
// edfdecoder, an independent decoder), ECG selection among EEG signals, and E_NO_ECG.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
// @ts-expect-error edfdecoder ships no type declarations (used only as an independent check)
import edfdecoder from 'edfdecoder'
import { afterAll, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { readEdfHeaderFromFile } from '../../src/formats/edf-file.ts'
import { annotationsOf, blocksOf, concatLead, readRecord, readUntilError, recordSpec, recordingOf } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const EDF_DIR = 'data/edf'
const edf = (name: string) => sharedPath(`${EDF_DIR}/${name}`)

/** Physical values of one signal over all records, decoded by edfdecoder (whole file in memory). */
function edfdecoderSignal(file: string, index: number): Float32Array {
  const b = readFileSync(file)
  const decoder = new (edfdecoder as { EdfDecoder: new () => any }).EdfDecoder()
  decoder.setInput(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))
  decoder.decode()
  return decoder.getOutput().getPhysicalSignalConcatRecords(index) as Float32Array
}

/** Largest |a[i] - b[i]| (lengths must match). */
function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length)
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]))
  return m
}

describeShared('read stage: mitbih100_30min.edf against WFDB record 100 and its annotation CSV', () => {
  it('both leads equal the WFDB record to within one EDF quantisation step, 648,000 samples', async () => {
    const file = edf('mitbih100_30min.edf')
    const [fromEdf, fromWfdb, { header }] = await Promise.all([
      readRecord(recordSpec(file)),
      readRecord(recordSpec(sharedPath('data/mitdb/100'))),
      readEdfHeaderFromFile(file),
    ])
    expect(fromEdf.warnings).toEqual([])
    expect(fromEdf.items[0]).toMatchObject({ kind: 'recording', format: 'EDF+C', fs: 360, totalSamples: 648_000, durationSec: 1800, labels: ['ECG MLII', 'ECG V5'], startTime: '2000-01-01T00:00:00' })
    for (const lead of [0, 1]) {
      const s = header.signals[lead]
      const step = (s.physicalMax - s.physicalMin) / (s.digitalMax - s.digitalMin)
      expect(step).toBeCloseTo(0.005, 9)
      const a = concatLead(fromEdf.items, lead)
      const b = concatLead(fromWfdb.items, lead).subarray(0, 648_000)
      expect(a.length).toBe(648_000)
      expect(maxAbsDiff(a, b)).toBeLessThanOrEqual(step * (1 + 1e-6))
    }
  })

  it('annotations equal the CSV (sample, time_ms, symbol, aux) and the WFDB annotations of the first 1800 s', async () => {
    const { items } = await readRecord(recordSpec(edf('mitbih100_30min.edf')))
    const rows = readFileSync(edf('mitbih100_30min.annotations.csv'), 'utf8').trim().split(/\r?\n/)
    expect(rows[0]).toBe('sample,time_ms,symbol,aux,is_beat')
    const expected = rows.slice(1).map((line) => {
      const [sample, timeMs, symbol, aux] = line.split(',')
      return { sample: Number(sample), timeMs: Number(timeMs), symbol, aux }
    })
    const got = annotationsOf(items)
    expect(got.length).toBe(2266)
    expect(got.map((a) => ({ sample: a.sample, timeMs: a.timeMs, symbol: a.symbol, aux: a.aux }))).toEqual(expected)
    // The EDF text "+(N" is split into the MIT symbol and its aux string.
    expect(got[0]).toMatchObject({ sample: 18, timeMs: 50, symbol: '+', aux: '(N', source: 'reference', recordId: 'rec' })
    const wfdb = annotationsOf((await readRecord(recordSpec(sharedPath('data/mitdb/100')))).items).filter((a) => a.sample < 648_000)
    expect(got.map((a) => [a.sample, a.symbol, a.aux])).toEqual(wfdb.map((a) => [a.sample, a.symbol, a.aux]))
  })
})

describeShared('read stage: every EDF in ../shared/data/edf', () => {
  // name, signal the reader must pick, its rate, the unit factor to mV of edfdecoder's values
  const files: [string, string, number, number][] = [
    ['Subject00_1.edf', 'ECG ECG', 500, 1],
    ['Subject00_2.edf', 'ECG ECG', 500, 1],
    ['Subject04_1.edf', 'ECG ECG', 500, 1],
    ['Subject31_1.edf', 'ECG ECG', 500, 1],
    ['mitbih100_30min.edf', 'ECG MLII', 360, 1],
    ['test_generator_2.edf', 'ECG', 200, 0.001],
  ]
  for (const [name, label, fs, toMv] of files) {
    it(`${name}: reads all records x samplesPerRecord of "${label}", values as edfdecoder's`, async () => {
      const file = edf(name)
      const { header } = await readEdfHeaderFromFile(file)
      const sig = header.signals.find((s) => s.label === label)!
      const total = header.recordCount * sig.samplesPerRecord
      const { items, warnings } = await readRecord(recordSpec(file))
      expect(warnings).toEqual([])
      const rec = recordingOf(items)
      expect(rec.labels[0]).toBe(label)
      expect(rec).toMatchObject({ fs, totalSamples: total, durationSec: header.recordCount * header.recordDurationSec })
      let next = 0
      for (const b of blocksOf(items)) {
        expect(b.startSample).toBe(next)
        expect(b.leads[0].length % sig.samplesPerRecord).toBe(0)
        next += b.leads[0].length
      }
      expect(next).toBe(total)
      const reference = edfdecoderSignal(file, sig.index).map((v) => v * toMv)
      const step = (sig.physicalMax - sig.physicalMin) / (sig.digitalMax - sig.digitalMin) * toMv
      expect(maxAbsDiff(concatLead(items, 0), reference)).toBeLessThan(step * 1e-3)
    })
  }

  it('EDF+ texts that are not MIT "symbol aux" pairs are kept whole as the symbol', async () => {
    const texts = async (name: string) => annotationsOf((await readRecord(recordSpec(edf(name)))).items).map((a) => [a.timeMs, a.symbol, a.aux])
    expect(await texts('test_generator_2.edf')).toEqual([[0, 'RECORD START', ''], [600_000, 'REC STOP', '']])
    expect(await texts('Subject00_1.edf')).toEqual([[0, '[Total time]+182.000', '']])
  })

  it('test_edfann.edf (annotations only, no data signal) fails with E_NO_ECG', async () => {
    const { items, error } = await readUntilError(recordSpec(edf('test_edfann.edf')))
    expect(items).toEqual([])
    expect(error).toMatchObject({ code: 'E_NO_ECG', context: { file: edf('test_edfann.edf'), field: 'leads' } })
    expect((error as Error).message).toContain('the signals are: (none)')
  })

  it('eegmat: "ECG ECG" is chosen among 22 signals; leads by label and by index select the same values', async () => {
    const file = edf('Subject00_1.edf')
    const { header } = await readEdfHeaderFromFile(file)
    expect(header.nSignals).toBe(22)
    expect(header.signals[20]).toMatchObject({ label: 'ECG ECG', sampleRate: 500, physicalDimension: 'mV' })
    const byDefault = await readRecord(recordSpec(file))
    const byLabel = await readRecord(recordSpec(file, { leads: ['ecg ecg'] }))
    const byIndex = await readRecord(recordSpec(file, { leads: [20] }))
    for (const r of [byDefault, byLabel, byIndex]) expect(recordingOf(r.items).labels).toEqual(['ECG ECG'])
    expect(maxAbsDiff(concatLead(byLabel.items, 0), concatLead(byDefault.items, 0))).toBe(0)
    expect(maxAbsDiff(concatLead(byIndex.items, 0), concatLead(byDefault.items, 0))).toBe(0)
    // Mixed selectors keep the order given; EEG in uV comes out in mV.
    const mixed = await readRecord(recordSpec(file, { leads: ['EEG Cz', 20, 'ECG ECG'] }))
    expect(recordingOf(mixed.items).labels).toEqual(['EEG Cz', 'ECG ECG'])
    const cz = edfdecoderSignal(file, 17).map((v) => v / 1000)
    expect(maxAbsDiff(concatLead(mixed.items, 0), cz)).toBeLessThan(1e-6)
    expect(maxAbsDiff(concatLead(mixed.items, 1), concatLead(byDefault.items, 0))).toBe(0)
  })

  it('a lead that does not exist fails with E_NO_ECG listing the signals', async () => {
    const file = edf('Subject00_1.edf')
    for (const leads of [['V1'], [21], [99]]) {
      const { items, error } = await readUntilError(recordSpec(file, { leads }))
      expect(items).toEqual([])
      expect(error).toMatchObject({ code: 'E_NO_ECG' })
      expect((error as Error).message).toContain(`found none; the signals are: 0 "EEG Fp1", 1 "EEG Fp2"`)
      expect((error as Error).message).toContain('20 "ECG ECG"')
    }
  })
})

describeShared('read stage: an EDF with only EEG signals', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'read-edf-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it('fails with E_NO_ECG naming the file and listing every label, before any item', async () => {
    const bytes = Uint8Array.from(readFileSync(edf('Subject00_2.edf')))
    // Signal 20's label ("ECG ECG") sits at 256 + 20 * 16.
    bytes.set(new TextEncoder().encode('EEG X1          '), 256 + 20 * 16)
    const file = path.join(tmp, 'eeg-only.edf')
    writeFileSync(file, bytes)
    const { items, error } = await readUntilError(recordSpec(file))
    expect(items).toEqual([])
    expect(error).toBeInstanceOf(PipelineError)
    expect(error).toMatchObject({ code: 'E_NO_ECG', context: { file, field: 'leads' } })
    const message = (error as Error).message
    expect(message.startsWith(`${file}: expected a signal labelled ECG/EKG`)).toBe(true)
    const labels = ['EEG Fp1', 'EEG Fp2', 'EEG F3', 'EEG F4', 'EEG F7', 'EEG F8', 'EEG T3', 'EEG T4', 'EEG C3', 'EEG C4', 'EEG T5', 'EEG T6', 'EEG P3', 'EEG P4', 'EEG O1', 'EEG O2', 'EEG Fz', 'EEG Cz', 'EEG Pz', 'EEG A2-A1', 'EEG X1']
    expect(message).toContain(`the signals are: ${labels.map((l, i) => `${i} ${JSON.stringify(l)}`).join(', ')};`)
    expect(message).not.toContain('EDF Annotations')
    // Naming the lead explicitly reads it.
    const { items: chosen } = await readRecord(recordSpec(file, { leads: ['EEG X1'] }))
    expect(recordingOf(chosen).totalSamples).toBe(62 * 500)
  })
})
