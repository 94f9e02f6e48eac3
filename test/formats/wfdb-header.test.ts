import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { parseWfdbHeader, wfdbBytesPerFrame, wfdbStartTime } from '../../src/formats/wfdb-header.ts'
import { parseWfdbAgeSex } from '../../src/formats/wfdb-comments.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
import { thrown } from '../helpers/thrown.ts'


describeShared('parseWfdbHeader on real records', () => {
  const read = (rel: string) => parseWfdbHeader(readFileSync(sharedPath(rel), 'utf8'), rel)

  it('reads MIT-BIH 100, whose header starts with a comment and has a blank line between signals', () => {
    const h = read('data/mitdb/100.hea')
    expect(h).toMatchObject({ recordName: '100', nsig: 2, fs: 360, nsamples: 650000, age: 69, sex: 'M' })
    expect(h.comments).toEqual(['unnecessary comment', '69 M 1085 1629 x1', 'Aldomet, Inderal'])
    expect(h.signals.map((s) => s.label)).toEqual(['MLII', 'V5'])
    expect(h.signals[0]).toMatchObject({
      fileName: '100.dat', format: 212, gain: 200, gainGiven: true, baseline: 1024, adcZero: 1024,
      adcResolution: 11, units: 'mV', unitsKnown: true, toMv: 1, initialValue: 995, checksum: -22131, blockSize: 0, line: 3,
    })
    expect(h.signals[1]).toMatchObject({ initialValue: 1011, checksum: 20052, line: 5 })
    expect(wfdbBytesPerFrame(h.signals)).toBe(3)
  })

  it.each([
    ['101', ['MLII', 'V1'], 75, 'F'],
    ['102', ['V5', 'V2'], 84, 'F'],
    ['208', ['MLII', 'V1'], 23, 'F'],
  ])('reads MIT-BIH %s', (rec, labels, age, sex) => {
    const h = read(`data/mitdb/${rec}.hea`)
    expect(h).toMatchObject({ nsig: 2, fs: 360, nsamples: 650000, age, sex })
    expect(h.signals.map((s) => s.label)).toEqual(labels)
    expect(h.signals.every((s) => s.format === 212 && s.gain === 200 && s.baseline === 1024)).toBe(true)
  })

  it('keeps all comments of 208 in order', () => {
    const h = read('data/mitdb/208.hea')
    expect(h.comments[0]).toBe('23 F 2546 N/A x1')
    expect(h.comments[2]).toBe('The PVCs are uniform.  The couplets, many of which include a fusion PVC, are')
    expect(h.comments).toHaveLength(5)
  })

  it('reads an Icentia11k segment (format 16, gain(baseline)/units)', () => {
    const h = read('data/icentia11k/p00000_s00.hea')
    expect(h).toMatchObject({ recordName: 'p00000_s00', nsig: 1, fs: 250, nsamples: 1048577, comments: [] })
    expect(h.age).toBeUndefined()
    expect(h.signals[0]).toMatchObject({
      fileName: 'p00000_s00.dat', format: 16, gain: 74.36482269503546, baseline: 0, units: 'mV',
      adcResolution: 16, adcZero: 0, initialValue: -5, checksum: 1667, label: 'ecg',
    })
  })
})

describe('parseWfdbHeader on synthetic headers', () => {
  it('applies WFDB defaults: fs 250, gain 200, baseline = adczero, units mV, adcres by format', () => {
    const h = parseWfdbHeader('rec 2\nrec.dat 16\nrec.dat 16 0 0 512\n', 'rec.hea')
    expect(h.fs).toBe(250)
    expect(h.nsamples).toBeUndefined()
    expect(h.signals[0]).toMatchObject({ gain: 200, gainGiven: false, baseline: 0, units: 'mV', adcResolution: 16, label: 'signal 0', description: '' })
    expect(h.signals[1]).toMatchObject({ gain: 200, gainGiven: false, baseline: 512, adcZero: 512, initialValue: 512 })
  })

  it('reads every record-line field, skew, byte offset, units and a description with spaces', () => {
    const text = [
      '', '# first', 'r 1 128/1000(5) 3600 13:05:07.25 24/12/2020', '  # between', '',
      'r.dat 80:3+512 1000(-3)/uV 8 0 1 77 0 Lead II (chest)', '# last',
    ].join('\r\n')
    const h = parseWfdbHeader(text, 'r.hea')
    expect(h).toMatchObject({ fs: 128, counterFrequency: 1000, baseCounter: 5, nsamples: 3600, baseTime: '13:05:07.25', baseDate: '24/12/2020' })
    expect(h.comments).toEqual(['first', 'between', 'last'])
    expect(h.signals[0]).toMatchObject({
      format: 80, skew: 3, byteOffset: 512, gain: 1000, baseline: -3, units: 'uV', toMv: 0.001, unitsKnown: true,
      description: 'Lead II (chest)', line: 6,
    })
    expect(wfdbStartTime(h)).toBe('2020-12-24T13:05:07.25')
    expect(wfdbStartTime(parseWfdbHeader('r 0 360 10 5:30', 'r.hea'))).toBeNull()
  })

  it('converts V to mV and keeps unknown units as they are', () => {
    const h = parseWfdbHeader('r 2\nr.dat 16 1/V\nr.dat 16 10/mmHg\n', 'r.hea')
    expect(h.signals[0]).toMatchObject({ toMv: 1000, unitsKnown: true })
    expect(h.signals[1]).toMatchObject({ units: 'mmHg', toMv: 1, unitsKnown: false })
  })

  it('refuses an unknown format, naming file, line, signal and the supported list', () => {
    const e = thrown(() => parseWfdbHeader('# c\nr 2 360\nr.dat 212\nr.dat 999 200 12 0 0 0 0 ECG\n', 'x/r.hea'))
    expect(e.code).toBe('E_WFDB_FORMAT')
    expect(e.context).toMatchObject({ file: 'x/r.hea', line: 4, signal: 1 })
    expect(e.message).toMatch(/x\/r\.hea:4: signal 1 \(ECG\): format 999 is not supported; supported formats: 212, 16, 61, 80/)
  })

  it('refuses several samples per frame and mixed formats in one .dat', () => {
    expect(thrown(() => parseWfdbHeader('r 1\nr.dat 212x4\n', 'r.hea')).message).toMatch(/4 samples per frame .* not supported yet/)
    const mixed = thrown(() => parseWfdbHeader('r 2\nr.dat 212\nr.dat 16\n', 'r.hea'))
    expect(mixed.code).toBe('E_WFDB_FORMAT')
    expect(mixed.message).toMatch(/one format per \.dat file/)
  })

  it('accepts different formats in different .dat files, refuses a file split across the header', () => {
    expect(parseWfdbHeader('r 2\na.dat 212\nb.dat 16\n', 'r.hea').signals.map((s) => s.format)).toEqual([212, 16])
    const split = thrown(() => parseWfdbHeader('r 3\na.dat 16\nb.dat 16\na.dat 16\n', 'r.hea'))
    expect(split.code).toBe('E_WFDB_HEADER')
    expect(split.context.line).toBe(4)
  })

  it.each([
    ['r two 360', 'nsig', 1],
    ['r 1 fast', 'fs', 1],
    ['r 1 0', 'fs', 1],
    ['r 1 360 many', 'nsamples', 1],
    ['r 1 360 10 noon', 'basetime', 1],
    ['r 1 360 10 12:00:00 2020-01-01', 'basedate', 1],
    ['r 1\nr.dat', 'signal 0 format', 2],
    ['r 1\nr.dat 16 big', 'signal 0 gain', 2],
    ['r 1\nr.dat 16 200 12.5', 'signal 0 adcres', 2],
  ])('refuses the malformed header %j (field %s, line %i)', (text, field, line) => {
    const e = thrown(() => parseWfdbHeader(`# comment\n${text}\n`, 'r.hea'))
    expect(e.code).toBe('E_WFDB_HEADER')
    expect(e.context).toMatchObject({ file: 'r.hea', line: line + 1, field })
    expect(e.message).toContain(`r.hea:${line + 1}: ${field}: expected`)
  })

  it('refuses fewer or more signal lines than nsig, and a header with no record line', () => {
    const few = thrown(() => parseWfdbHeader('r 3 360\nr.dat 212\nr.dat 212\n', 'r.hea'))
    expect(few.code).toBe('E_WFDB_HEADER')
    expect(few.message).toMatch(/expected 3 signal lines .* found 2/)
    expect(thrown(() => parseWfdbHeader('r 1\nr.dat 16\ns.dat 16\n', 'r.hea')).context.line).toBe(3)
    expect(thrown(() => parseWfdbHeader('# only\n\n', 'r.hea')).code).toBe('E_WFDB_HEADER')
  })

  it('refuses multi-segment records with a clear message', () => {
    const e = thrown(() => parseWfdbHeader('multi/3 2 125 1000\n', 'multi.hea'))
    expect(e.code).toBe('E_WFDB_HEADER')
    expect(e.message).toContain('multi-segment records are not supported yet')
  })
})

describe('parseWfdbAgeSex', () => {
  it.each([
    [['69 M 1085 1629 x1'], { age: 69, sex: 'M' }],
    [['? F 1 2 x1'], { sex: 'F' }],
    [['Age: 69 Sex: M'], { age: 69, sex: 'M' }],
    [['<age>: 54 <sex>: F <diagnoses>: x'], { age: 54, sex: 'F' }],
    [['age: ?  gender: female'], { sex: 'F' }],
    [['Aldomet, Inderal', '2 leads'], {}],
  ])('%j -> %j', (comments, expected) => {
    expect(parseWfdbAgeSex(comments)).toEqual(expected)
  })
})
