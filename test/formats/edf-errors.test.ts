import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readEdfHeaderFromFile } from '../../src/formats/edf-file.ts'
import { parseEdfFixedHeader, parseEdfHeader } from '../../src/formats/edf-header.ts'
import { selectEcgSignals } from '../../src/formats/edf-select.ts'
import { encodeEdfHeader } from '../../src/formats/edf-writer.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const tmp = mkdtempSync(path.join(tmpdir(), 'edf-errors-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Writes `bytes` with ASCII patches applied ({offset: text}) to a temp file and returns its path. */
function writePatched(name: string, bytes: Uint8Array, patches: Record<number, string> = {}): string {
  const out = Uint8Array.from(bytes)
  for (const [offset, text] of Object.entries(patches)) out.set(new TextEncoder().encode(text), Number(offset))
  const file = path.join(tmp, name)
  writeFileSync(file, out)
  return file
}

async function rejection(file: string): Promise<{ code: string; message: string; context: Record<string, unknown> }> {
  try {
    await readEdfHeaderFromFile(file)
  } catch (err) {
    return err as { code: string; message: string; context: Record<string, unknown> }
  }
  throw new Error(`${file} was accepted`)
}

describeShared('EDF header errors on patched copies of mitbih100_30min.edf', () => {
  // Header 1024 bytes (3 signals), records of 1480 bytes; keep 3 records. Read in beforeAll:
  // a skipped describe still runs its body to collect the tests.
  let real: Uint8Array
  beforeAll(() => {
    real = readFileSync(sharedPath('data/edf/mitbih100_30min.edf')).subarray(0, 1024 + 3 * 1480)
  })
  const ns = 3
  const signalField = (start: number, width: number, i: number) => 256 + ns * start + i * width

  it('rejects a file that is not EDF (text, PNG, empty)', async () => {
    const csv = sharedPath('data/edf/subject-info.csv')
    const e = await rejection(csv)
    expect(e).toMatchObject({ code: 'E_NOT_EDF', context: { file: csv, field: 'version', offset: 0 } })
    expect(e.message).toContain(`${csv}: expected an EDF/BDF file (version field '0'`)
    expect(e.message).toContain('found "Subject,"')
    const png = writePatched('image.png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(300)]))
    expect(await rejection(png)).toMatchObject({ code: 'E_NOT_EDF', message: expect.stringContaining('PNG') })
    expect(await rejection(writePatched('empty.edf', new Uint8Array(0)))).toMatchObject({ code: 'E_NOT_EDF', message: expect.stringContaining('empty file') })
  })

  it('rejects a header shorter than it claims, naming the offset and sizes', async () => {
    const file = writePatched('short.edf', real.subarray(0, 1000))
    const e = await rejection(file)
    expect(e).toMatchObject({ code: 'E_EDF_HEADER_SHORT', context: { file, offset: 1000 } })
    expect(e.message).toContain(`${file}: header ends at byte 1000: expected 1024 header bytes`)
    expect(e.message).toContain('found 1000')
    const tiny = writePatched('tiny.edf', real.subarray(0, 100))
    expect(await rejection(tiny)).toMatchObject({ code: 'E_EDF_HEADER_SHORT', message: expect.stringContaining('expected at least 256 bytes') })
  })

  it('rejects a non-numeric samples per record, naming signal, field, offset and text', async () => {
    const offset = signalField(216, 8, 1)
    const file = writePatched('spr.edf', real, { [offset]: 'abc     ' })
    const e = await rejection(file)
    expect(e).toMatchObject({ code: 'E_EDF_HEADER_FIELD', context: { file, field: 'samplesPerRecord', offset, signal: 1, label: 'ECG V5' } })
    expect(e.message).toContain(`${file}: signal 1 "ECG V5": samples per record (byte ${offset}): expected an integer, found "abc"`)
  })

  it.each([
    ['physical minimum', 104, '1.2.3   ', 'E_EDF_HEADER_FIELD', 'expected a number, found "1.2.3"'],
    ['samples per record', 216, '0       ', 'E_EDF_HEADER_FIELD', 'expected an integer >= 1, found 0'],
    ['digital maximum', 128, '-1024   ', 'E_EDF_DIGITAL_RANGE', 'expected digital maximum > digital minimum'],
    ['physical maximum', 112, '-5.12   ', 'E_EDF_DIGITAL_RANGE', 'expected physical maximum != physical minimum'],
    ['digital minimum', 120, '-40000  ', 'E_EDF_DIGITAL_RANGE', 'expected a value in -32768..32767'],
    ['digital minimum', 120, '        ', 'E_EDF_HEADER_FIELD', 'expected an integer, found ""'],
  ])('rejects a bad %s (%j)', async (name, start, text, code, expected) => {
    const offset = signalField(start, 8, 0)
    const e = await rejection(writePatched(`bad-${start}.edf`, real, { [offset]: text }))
    expect(e).toMatchObject({ code, context: { offset, signal: 0, label: 'ECG MLII' } })
    expect(e.message).toContain(`signal 0 "ECG MLII": ${name} (byte ${offset}): ${expected}`)
  })

  it.each([
    [184, '1000    ', 'E_EDF_HEADER_FIELD', 'number of header bytes (byte 184): expected 1024 (256 * (3 signals + 1)), found "1000"'],
    [252, 'x   ', 'E_EDF_HEADER_FIELD', 'number of signals (byte 252): expected an integer >= 1, found "x"'],
    [236, '-2      ', 'E_EDF_HEADER_FIELD', 'number of data records (byte 236)'],
    [244, '0       ', 'E_EDF_RECORD_DURATION', 'duration of a data record (byte 244): expected a number of seconds > 0, found "0"'],
    [244, '-1      ', 'E_EDF_RECORD_DURATION', 'duration of a data record (byte 244): expected a number of seconds > 0, found "-1"'],
    [244, 'one     ', 'E_EDF_HEADER_FIELD', 'duration of a data record (byte 244): expected a number of seconds, found "one"'],
  ])('rejects fixed field at byte %i = %j', async (offset, text, code, expected) => {
    const file = writePatched(`fixed-${offset}-${text.trim()}.edf`, real, { [offset]: text })
    const e = await rejection(file)
    expect(e).toMatchObject({ code, context: { file, offset } })
    expect(e.message).toContain(`${file}: ${expected}`)
  })

  it('derives the record count from the file size when the header says -1', async () => {
    const { header } = await readEdfHeaderFromFile(writePatched('unknown.edf', real, { 236: '-1      ' }))
    expect(header).toMatchObject({ recordCountDeclared: -1, recordCount: 3, recordsOnDisk: 3, trailingBytes: 0, truncated: false })
  })

  it('reports a truncated file (more records declared than on disk) without failing', async () => {
    const { header, fileSize } = await readEdfHeaderFromFile(writePatched('cut.edf', real.subarray(0, 1024 + 2 * 1480 + 700)))
    expect(fileSize).toBe(1024 + 2 * 1480 + 700)
    expect(header).toMatchObject({ recordCountDeclared: 1800, recordCount: 1800, recordsOnDisk: 2, trailingBytes: 700, truncated: true })
  })

  it('fails with E_NO_ECG listing the labels when no signal is ECG', async () => {
    const file = writePatched('eeg.edf', real, { 256: 'EEG Fp1         EEG Fp2         ' })
    const { header } = await readEdfHeaderFromFile(file)
    expect(() => selectEcgSignals(header, file)).toThrow(expect.objectContaining({
      code: 'E_NO_ECG', message: expect.stringContaining('0 "EEG Fp1", 1 "EEG Fp2"; choose the ECG leads by label or 0-based index (`leads: [...]` in a dataset file, --lead for pipeline beats)'),
    }))
  })
})

describe('EDF file access errors', () => {
  it('reports a missing file with E_FILE_MISSING', async () => {
    const file = path.join(tmp, 'nope.edf')
    const e = await rejection(file)
    expect(e).toMatchObject({ code: 'E_FILE_MISSING', context: { file } })
    expect(e.message).toContain(`file not found: ${file}`)
  })

  it('reports a directory clearly', async () => {
    expect(await rejection(tmp)).toMatchObject({ code: 'E_IO', message: expect.stringContaining('found a directory') })
  })

  it('accepts BDF and rejects a broken BIOSEMI version', () => {
    const spec = {
      start: { year: 2000, month: 1, day: 1, hour: 0, minute: 0, second: 0 }, recordDurationSec: 1, recordCount: 0,
      signals: [{ label: 'ECG', physicalDimension: 'mV', physicalMin: -1, physicalMax: 1, digitalMin: -1, digitalMax: 1, samplesPerRecord: 1 }],
    }
    const buf = encodeEdfHeader(spec)
    buf[0] = 0xff
    buf.set(new TextEncoder().encode('BIOSEMI'), 1)
    expect(parseEdfFixedHeader(buf, 'x.bdf')).toEqual({ headerBytes: 768, nSignals: 2 })
    buf.set(new TextEncoder().encode('BIOSEMX'), 1)
    expect(() => parseEdfHeader(buf, 'x.bdf', buf.length)).toThrow(expect.objectContaining({ code: 'E_NOT_EDF' }))
  })
})
