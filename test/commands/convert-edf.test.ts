// `pipeline convert` with EDF input (no --clean): every data signal is copied with its digital
// values and header fields unchanged, the TALs of every annotation signal are kept (read back:
// same sample, time, text and duration), EDF+D without gaps becomes EDF+C, and what cannot be
// written as EDF+C (gaps, 24-bit BDF, annotation-only files) is refused before any output exists.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readEdfHeaderFromFile } from '../../src/formats/edf-file.ts'
import { decodeEdfDigital } from '../../src/formats/edf-decode.ts'
import { annotationsOf, concatLead, gapsOf, readRecord, recordSpec, recordingOf } from '../helpers/read-record.ts'
import { describeShared, ROOT, sharedPath } from '../helpers/shared.ts'
import { convert, maxDiff, noteKey } from './convert-run.ts'
import { writeEdfFixture, type FixtureSignal } from './edf-fixture.ts'

const tmp = mkdtempSync(path.join(tmpdir(), 'convert-edf-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Reads input and output through the read stage: same leads, samples, gaps and annotations. */
async function expectSameRecording(input: string, output: string, notes: number): Promise<void> {
  const [a, b] = await Promise.all([readRecord(recordSpec(input)), readRecord(recordSpec(output))])
  expect(b.warnings).toEqual([])
  const ra = recordingOf(a.items)
  expect(recordingOf(b.items)).toMatchObject({ format: 'EDF+C', fs: ra.fs, totalSamples: ra.totalSamples, labels: ra.labels, startTime: ra.startTime })
  for (let lead = 0; lead < ra.labels.length; lead++) {
    const [x, y] = [concatLead(a.items, lead), concatLead(b.items, lead)]
    expect(y.length).toBe(x.length)
    // Digital values and scaling fields are copied, so the decoded values are identical.
    expect(maxDiff(x, y)).toBe(0)
  }
  expect(gapsOf(b.items)).toEqual(gapsOf(a.items))
  expect(annotationsOf(b.items).map(noteKey)).toEqual(annotationsOf(a.items).map(noteKey))
  expect(annotationsOf(b.items)).toHaveLength(notes)
}

describeShared('convert EDF+C -> EDF+C: shared recordings', () => {
  it('mitbih100_30min.edf: samples identical, 2266 annotations identical, header fields kept', async () => {
    const input = sharedPath('data/edf/mitbih100_30min.edf')
    const output = path.join(tmp, 'm100.edf')
    const run = await convert(input, output)
    expect(run.error).toBeNull()
    expect(run.stderr).toBe(`wrote ${output}: 1800 data records of 1 s, 2 signals + EDF Annotations, 2.7 MB\n`)
    await expectSameRecording(input, output, 2266)
    const [{ header: i }, { header: o }] = await Promise.all([readEdfHeaderFromFile(input), readEdfHeaderFromFile(output)])
    expect(o.patientFields).toEqual(i.patientFields)
    expect(o.recordingFields).toEqual(i.recordingFields)
    const fields = (s: (typeof i.signals)[number]) => [s.label, s.physicalDimension, s.physicalMin, s.physicalMax, s.digitalMin, s.digitalMax, s.prefiltering, s.samplesPerRecord]
    const data = (h: typeof i) => h.signals.filter((s) => !s.isAnnotation).map(fields)
    expect(data(o)).toEqual(data(i))
    expect(data(o)).toHaveLength(2)
  })

  it('test_generator_2.edf: all 11 signals (not only the ECG), digital values equal; units in ASCII', async () => {
    const input = sharedPath('data/edf/test_generator_2.edf')
    const output = path.join(tmp, 'tg.edf')
    expect((await convert(input, output)).error).toBeNull()
    const [{ header: i }, { header: o }] = await Promise.all([readEdfHeaderFromFile(input), readEdfHeaderFromFile(output)])
    expect(o.signals.filter((s) => !s.isAnnotation).map((s) => s.label)).toEqual(i.signals.filter((s) => !s.isAnnotation).map((s) => s.label))
    expect(o.signals.map((s) => s.physicalDimension)).toEqual(i.signals.map((s) => s.physicalDimension.replace('\u00b0', 'deg')))
    // Tests only: both files whole in memory (2.7 MB).
    const [a, b] = [readFileSync(input), readFileSync(output)]
    for (const s of i.signals.filter((x) => !x.isAnnotation)) {
      const want = decodeEdfDigital(a.subarray(i.headerBytes), i, s.index, i.recordCount)
      const got = decodeEdfDigital(b.subarray(o.headerBytes), o, s.index, o.recordCount)
      expect([got.length, maxDiff(got, want)]).toEqual([120_000, 0])
    }
  })
})

describe('convert EDF+C -> EDF+C: bundled samples/edf/mitdb102.edf', () => {
  it('samples identical, 2192 annotations identical', async () => {
    const input = path.join(ROOT, 'samples/edf/mitdb102.edf')
    const output = path.join(tmp, '102.edf')
    expect((await convert(input, output)).error).toBeNull()
    await expectSameRecording(input, output, 2192)
  })
})

describe('convert EDF -> EDF+C: synthetic files', () => {
  const ramp = (label: string, spr = 100): FixtureSignal => ({ label, unit: 'uV', physMin: -3276.8, physMax: 3276.7, digMin: -32768, digMax: 32767, spr, digital: (r, i) => ((r * spr + i) % 2000) - 1000 })

  it('plain EDF (no annotation signal) gains an empty EDF Annotations signal; patient text kept', async () => {
    const input = writeEdfFixture(path.join(tmp, 'plain.edf'), { kind: 'EDF', recordSec: 1, records: 5, signals: [ramp('ECG I'), ramp('ECG II')] })
    const output = path.join(tmp, 'plain-out.edf')
    expect((await convert(input, output)).error).toBeNull()
    await expectSameRecording(input, output, 0)
    const { header } = await readEdfHeaderFromFile(output)
    expect(header.signals.map((s) => s.label)).toEqual(['ECG I', 'ECG II', 'EDF Annotations'])
    expect(header.patient).toBe('X X X X free text patient')
  })

  it('EDF+C with two annotation signals, durations, multi-text TALs, a TAL stored after its onset and a first record at +0.25 s', async () => {
    const input = writeEdfFixture(path.join(tmp, 'tals.edf'), {
      kind: 'EDF+C', recordSec: 2, records: 4, signals: [ramp('ECG', 200)], onsets: [0.25, 2.25, 4.25, 6.25],
      tals: [
        { 0: '+0.5\x14N\x14\x00', 1: '+2.75\x150.5\x14V\x14note two\x14\x00', 3: '+1.3\x14late\x14\x00+6.3\x14N\x14\x00' },
        { 2: '+4.4\x1510\x14Sleep stage W\x14\x00' },
      ],
    })
    const output = path.join(tmp, 'tals-out.edf')
    expect((await convert(input, output)).error).toBeNull()
    await expectSameRecording(input, output, 6)
    const back = annotationsOf((await readRecord(recordSpec(output))).items)
    expect(back.map((a) => [a.timeMs, a.symbol, a.durationMs ?? null])).toEqual([
      [500, 'N', null], [1300, 'late', null], [2750, 'V', 500], [2750, 'note two', 500], [4400, 'Sleep stage W', 10000], [6300, 'N', null],
    ])
  })

  it('EDF+D whose records are contiguous is written as EDF+C', async () => {
    const input = writeEdfFixture(path.join(tmp, 'd-contiguous.edf'), { kind: 'EDF+D', recordSec: 1, records: 4, signals: [ramp('ECG')], tals: [{ 2: '+2.5\x14N\x14\x00' }] })
    const output = path.join(tmp, 'd-contiguous-out.edf')
    expect((await convert(input, output)).error).toBeNull()
    await expectSameRecording(input, output, 1)
  })

  it('EDF+D with a gap is refused, naming the file, the record and the fix; no output is left', async () => {
    const input = writeEdfFixture(path.join(tmp, 'd-gap.edf'), { kind: 'EDF+D', recordSec: 1, records: 4, signals: [ramp('ECG')], onsets: [0, 1, 5, 6] })
    for (const clean of [false, true]) {
      const output = path.join(tmp, `d-gap-out-${clean}.edf`)
      const { error } = await convert(input, output, { clean })
      expect(error?.code).toBe('E_USAGE')
      expect(error?.message).toBe(`${input} is EDF+D with a gap: data record 2 starts at 5 s, 3 s after the previous record ends (2 s); convert writes EDF+C, which cannot hold gaps: split the file at its gaps into EDF+C parts (e.g. EDFbrowser: Tools > Convert EDF+D to EDF+C) and convert each part`)
      expect(error?.context).toMatchObject({ file: input, dataRecord: 2 })
      expect(existsSync(output)).toBe(false)
    }
  })

  it('BDF without --clean is refused (24-bit samples), pointing to --clean', async () => {
    const input = writeEdfFixture(path.join(tmp, 'b.bdf'), { kind: 'BDF', recordSec: 1, records: 2, signals: [{ ...ramp('ECG'), digMin: -8388608, digMax: 8388607 }] })
    const { error } = await convert(input, path.join(tmp, 'b.edf'))
    expect(error?.code).toBe('E_USAGE')
    expect(error?.message).toContain(`${input}: BDF stores 24-bit samples and EDF 16-bit ones, so they cannot be copied unchanged; use convert --clean`)
  })

  it('makes the missing folders of the output (E_IO when a file is in the way); one signal is "1 signal"', async () => {
    const input = writeEdfFixture(path.join(tmp, 'one.edf'), { kind: 'EDF', recordSec: 1, records: 3, signals: [ramp('ECG I')] })
    const output = path.join(tmp, 'made', 'deeper', 'one-out.edf')
    const run = await convert(input, output)
    expect(run.error).toBeNull()
    expect(run.stderr).toMatch(new RegExp(`^wrote ${output.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 3 data records of 1 s, 1 signal \\+ EDF Annotations, `))
    await expectSameRecording(input, output, 0)
    const blocked = await convert(input, path.join(tmp, 'one.edf', 'x', 'out.edf'))
    expect(blocked.error?.code).toBe('E_IO')
    expect(blocked.error?.message).toBe(`cannot create the folder of the output ${path.join(tmp, 'one.edf', 'x')}: ${path.join(tmp, 'one.edf')} is a file, not a folder; choose another path`)
  })

  it('refuses an annotation-only file, a missing file and output = input, each naming the file', async () => {
    const annOnly = writeEdfFixture(path.join(tmp, 'ann-only.edf'), { kind: 'EDF+C', recordSec: 0, records: 1, signals: [], tals: [{ 0: '+1\x14Lights off\x14\x00' }] })
    const cases = await Promise.all([
      convert(annOnly, path.join(tmp, 'x1.edf')),
      convert(path.join(tmp, 'missing.edf'), path.join(tmp, 'x2.edf')),
      convert(annOnly, annOnly),
    ])
    expect(cases.map((c) => c.error?.code)).toEqual(['E_USAGE', 'E_FILE_MISSING', 'E_USAGE'])
    expect(cases[0].error?.message).toBe(`${annOnly}: expected data signals, found only annotation signals (an annotations-only EDF+ file); there is no signal to convert`)
    expect(cases[1].error?.message).toContain(`file not found: ${path.join(tmp, 'missing.edf')}`)
    expect(cases[2].error?.message).toBe(`the output ${annOnly} is the input file; name another output file`)
  })
})
