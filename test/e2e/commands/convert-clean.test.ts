// `pipeline convert --clean`: the written EDF+, read back through the read stage, holds the clean
// stage's output on the same input to within half a quantisation step of the output (plus float32
// rounding), NeuroKit2's ecg_clean (golden) to 0.005 mV away from the edges, and the input's
// annotations unchanged; the header says which filter ran.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import clean from '../../../src/stages/clean.ts'
import type { Item } from '../../../src/core/items.ts'
import { readEdfHeaderFromFile } from '../../../src/formats/edf-file.ts'
import type { EdfHeader } from '../../../src/formats/edf-header.ts'
import { annotationsOf, concatLead, readRecord, recordSpec, recordingOf, type ReadResult } from '../../helpers/read-record.ts'
import { runStage } from '../../helpers/stage-context.ts'
import { runCli, type Exit } from '../../helpers/child.ts'
import { describeShared, ROOT, sharedPath } from '../../helpers/shared.ts'
import { convert, maxDiff, noteKey } from '../../commands/convert-run.ts'
import { ecgLike, writeEdfFixture } from '../../commands/edf-fixture.ts'

const tmp = mkdtempSync(path.join(tmpdir(), 'convert-clean-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** The clean stage over the read stage's items of `input` (the reference the output must hold). */
async function cleanedByStage(input: string, powerlineHz = 50): Promise<{ source: ReadResult; cleaned: Item[] }> {
  const source = await readRecord(recordSpec(input))
  return { source, cleaned: (await runStage(clean, source.items, { options: { powerlineHz } })).items }
}

const stepOf = (h: EdfHeader, lead: number) => (h.signals[lead].physicalMax - h.signals[lead].physicalMin) / (h.signals[lead].digitalMax - h.signals[lead].digitalMin)

/**
 * Each lead within half a step of the stage's output (float32 on both sides: + 2e-6 mV), the
 * padded tail of the last data record equal to the last sample, annotations unchanged.
 * Returns the largest error per lead, in steps.
 */
function expectCleanedOutput(back: ReadResult, header: EdfHeader, ref: { source: ReadResult; cleaned: Item[] }): number[] {
  const total = recordingOf(ref.source.items).totalSamples
  const worst: number[] = []
  recordingOf(ref.source.items).labels.forEach((label, lead) => {
    const [got, want] = [concatLead(back.items, lead), concatLead(ref.cleaned, lead)]
    expect([want.length, got.length >= total, got.length - total < header.signals[lead].samplesPerRecord]).toEqual([total, true, true])
    const step = stepOf(header, lead)
    const err = maxDiff(got, want, 0, total)
    expect(err, label).toBeLessThanOrEqual(step / 2 + 2e-6)
    for (let i = total; i < got.length; i++) expect(got[i]).toBe(got[total - 1])
    worst.push(err / step)
  })
  expect(annotationsOf(back.items).map(noteKey)).toEqual(annotationsOf(ref.source.items).map(noteKey))
  return worst
}

describeShared('convert --clean: MIT-BIH 208 (WFDB), through the CLI', () => {
  const input = sharedPath('data/mitdb/208')
  const output = path.join(tmp, '208-clean.edf')
  let run: Exit
  let back: ReadResult
  let header: EdfHeader
  let ref: Awaited<ReturnType<typeof cleanedByStage>>
  beforeAll(async () => {
    ;[run, ref] = await Promise.all([runCli(['convert', input, output, '--clean']), cleanedByStage(input)])
    ;[back, { header }] = await Promise.all([readRecord(recordSpec(output)), readEdfHeaderFromFile(output)])
  })

  it('exits 0 without warnings and reports the filter and each lead\'s range and step', () => {
    expect(run.code).toBe(0)
    expect(run.stderr).not.toContain('warning')
    expect(run.stderr).toMatch(/^cleaned: HP:0\.5Hz BW5 zero-phase MA:50Hz; "MLII" \+-[\d.]+ mV in 16 bits, step 0\.\d+ uV, "V1" \+-[\d.]+ mV in 16 bits, step 0\.\d+ uV\n/)
    expect(run.stderr).toContain(`wrote ${output}: 1806 data records of 1 s, 2 signals + EDF Annotations`)
  })

  it('header: the leads in input order, marked as filtered, symmetric physical range over +-32767', () => {
    expect(header).toMatchObject({ format: 'EDF+C', recordCount: 1806, recordDurationSec: 1 })
    const data = header.signals.filter((s) => !s.isAnnotation)
    expect(data.map((s) => [s.label, s.physicalDimension, s.prefiltering, s.digitalMin, s.digitalMax, s.physicalMin + s.physicalMax])).toEqual([
      ['MLII', 'mV', 'HP:0.5Hz BW5 zero-phase MA:50Hz', -32767, 32767, 0],
      ['V1', 'mV', 'HP:0.5Hz BW5 zero-phase MA:50Hz', -32767, 32767, 0],
    ])
    // The range comes from the input's span (+-1.2 spans): wide enough, steps below 1 uV.
    for (const s of data) expect(s.physicalMax).toBeGreaterThan(3)
    for (const s of data) expect(s.physicalMax / 32767).toBeLessThan(0.001)
  })

  it('samples within half an output step of the clean stage; annotations identical (3040)', () => {
    const worst = expectCleanedOutput(back, header, ref)
    expect(worst.every((w) => w <= 0.51)).toBe(true)
    expect(annotationsOf(back.items)).toHaveLength(3040)
  })

  it('lead 0 within 0.005 mV of NeuroKit2 ecg_clean (golden) away from the first and last 10 s', () => {
    const b = readFileSync(sharedPath('golden/dsp/208_lead0_nk_clean.f32'))
    const golden = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length))
    expect(golden.length).toBe(650_000)
    const got = concatLead(back.items, 0)
    expect(maxDiff(got, golden, 3600, 650_000 - 3600)).toBeLessThanOrEqual(0.005)
    // Measured: the clean stage's float32 rounding plus half a step of the output.
    expect(maxDiff(got, golden, 0, 650_000)).toBeLessThanOrEqual(stepOf(header, 0) / 2 + 1e-5)
  })
})

describe('convert --clean --powerline 60: bundled samples/edf/mitdb102.edf (EDF+C)', () => {
  it('holds the clean stage\'s 60 Hz output within half a step, not the 50 Hz one; annotations identical (2192)', async () => {
    const input = path.join(ROOT, 'samples/edf/mitdb102.edf')
    const output = path.join(tmp, '102-clean.edf')
    const run = await convert(input, output, { clean: true, powerlineHz: 60 })
    expect(run.error).toBeNull()
    expect(run.stderr).not.toContain('warning')
    const [ref, ref50, back, { header }] = await Promise.all([cleanedByStage(input, 60), cleanedByStage(input, 50), readRecord(recordSpec(output)), readEdfHeaderFromFile(output)])
    expectCleanedOutput(back, header, ref)
    expect(annotationsOf(back.items)).toHaveLength(2192)
    expect(header.signals[0].prefiltering).toBe('HP:0.5Hz BW5 zero-phase MA:60Hz')
    expect(maxDiff(concatLead(back.items, 0), concatLead(ref50.cleaned, 0), 0, 650_160)).toBeGreaterThan(0.01)
  })
})

describe('convert --clean: synthetic BDF+C and errors', () => {
  const fs = 250
  const ecg = { label: 'ECG II', unit: 'uV', prefiltering: 'HP:0.05Hz LP:100Hz', physMin: -262144, physMax: 262143, digMin: -8388608, digMax: 8388607, spr: fs }
  const gain = (ecg.physMax - ecg.physMin) / (ecg.digMax - ecg.digMin)

  it('a BDF+C (24-bit) is cleaned and requantised to 16 bits; non-ECG signals are left out; TALs kept', async () => {
    const input = writeEdfFixture(path.join(tmp, 'b.bdf'), {
      kind: 'BDF+C', recordSec: 1, records: 60, annotationBytes: 60,
      signals: [
        { label: 'Resp', unit: 'uV', physMin: -1000, physMax: 1000, digMin: -8388608, digMax: 8388607, spr: 25, digital: () => 0 },
        { ...ecg, digital: (r, i) => Math.round((1000 * ecgLike(r + i / fs) - ecg.physMin) / gain) + ecg.digMin },
      ],
      tals: [{ 3: '+3.5\x14N\x14\x00', 59: '+59.99\x150.01\x14end\x14\x00' }],
    })
    const output = path.join(tmp, 'b-clean.edf')
    const run = await convert(input, output, { clean: true })
    expect(run.error).toBeNull()
    expect(run.stderr).not.toContain('warning')
    const [ref, back, { header }] = await Promise.all([cleanedByStage(input), readRecord(recordSpec(output)), readEdfHeaderFromFile(output)])
    expect(header.signals.map((s) => [s.label, s.physicalDimension, s.prefiltering])).toEqual([
      ['ECG II', 'mV', 'HP:0.05Hz LP:100Hz HP:0.5Hz BW5 zero-phase MA:50Hz'], ['EDF Annotations', '', ''],
    ])
    expectCleanedOutput(back, header, ref)
    expect(annotationsOf(back.items).map((a) => [a.timeMs, a.symbol, a.durationMs ?? null])).toEqual([[3500, 'N', null], [59990, 'end', 10]])
    // The baseline wander (0.8 mV at 0.15 Hz) is gone: the cleaned signal is centred near 0.
    const y = concatLead(back.items, 0).subarray(10 * fs, 50 * fs)
    expect(Math.abs(y.reduce((a, b) => a + b, 0) / y.length)).toBeLessThan(0.05)
  })

  it('refuses --powerline other than 50/60, and a file without ECG leads, naming the file and the fix', async () => {
    const eeg = writeEdfFixture(path.join(tmp, 'eeg.edf'), { kind: 'EDF+C', recordSec: 1, records: 3, signals: [{ label: 'EEG Fz', unit: 'uV', physMin: -500, physMax: 500, digMin: -32768, digMax: 32767, spr: 100, digital: () => 0 }] })
    const [pl, noEcg] = await Promise.all([
      convert(eeg, path.join(tmp, 'x.edf'), { clean: true, powerlineHz: 55 }),
      convert(eeg, path.join(tmp, 'y.edf'), { clean: true }),
    ])
    expect(pl.error?.code).toBe('E_USAGE')
    expect(pl.error?.message).toBe('--powerline: expected 50 or 60 (Hz, the mains frequency), found 55')
    expect(noEcg.error?.code).toBe('E_NO_ECG')
    expect(noEcg.error?.message).toBe(`${eeg}: convert --clean cleans the ECG leads (one sampling rate), found none; the signals are: 0 "EEG Fz" (100 Hz); relabel the ECG signals (ECG/EKG or a lead name such as II or V1), or convert without --clean to copy every signal unchanged`)
  })
})
