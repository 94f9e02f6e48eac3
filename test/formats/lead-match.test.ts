// Leads named by label when two signals share it (PhysioNet SVDB record 800: both "ECG"): the
// label is refused with the matching indices, for EDF and WFDB headers alike; indices still work.
import { describe, expect, it } from 'vitest'
import { leadIndex, matchLead } from '../../src/formats/lead-match.ts'
import { pickLeads } from '../../src/render/render-options.ts'
import { thrown } from '../helpers/thrown.ts'
import { parseEdfHeader } from '../../src/formats/edf-header.ts'
import { selectEcgSignals } from '../../src/formats/edf-select.ts'
import { encodeEdfHeader } from '../../src/formats/edf-writer.ts'
import { parseWfdbHeader } from '../../src/formats/wfdb-header.ts'
import { selectWfdbSignals } from '../../src/formats/wfdb-select.ts'

const ambiguous = (file: string, indices: number[]) => expect.objectContaining({
  code: 'E_LEAD_SELECT',
  message: `${file}: lead "ecg" (from leads): expected a label that names one signal, found ${indices.length} signals labelled so, at indices ${indices.join(', ')}; select them by index instead, e.g. leads: [${indices.join(', ')}] in the dataset file (--lead ${indices[0]} for pipeline beats)`,
  context: { file, field: 'leads', label: 'ecg', matches: indices },
})

describe('matchLead', () => {
  const signals = [{ index: 0, label: 'ECG' }, { index: 1, label: 'Resp' }, { index: 2, label: ' ecg ' }]
  it('finds a signal by index or by a label that names one signal, trimmed and in any case', () => {
    expect(matchLead(signals, 1, 'f')).toBe(signals[1])
    expect(matchLead(signals, 2, 'f')).toBe(signals[2])
    expect(matchLead(signals, ' RESP', 'f')).toBe(signals[1])
    expect(matchLead(signals, 'V1', 'f')).toBeUndefined()
    expect(matchLead(signals, 3, 'f')).toBeUndefined()
  })

  it('refuses a label that names several signals, listing their indices', () => {
    expect(() => matchLead(signals, 'ecg', 'f.edf')).toThrow(ambiguous('f.edf', [0, 2]))
  })
})

describe('lead selection with two leads of one label', () => {
  it('EDF: both are read by default, by index one at a time, and the label is refused', () => {
    const signal = { label: 'ECG', physicalDimension: 'mV', physicalMin: -5, physicalMax: 5, digitalMin: -2048, digitalMax: 2047, samplesPerRecord: 128 }
    const buf = encodeEdfHeader({ start: { year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 5 }, recordDurationSec: 1, recordCount: 1, signals: [signal, signal] })
    const h = parseEdfHeader(buf, 'twin.edf', buf.length)
    expect(selectEcgSignals(h, 'twin.edf')).toEqual([0, 1])
    expect(selectEcgSignals(h, 'twin.edf', [1])).toEqual([1])
    expect(() => selectEcgSignals(h, 'twin.edf', ['ecg'])).toThrow(ambiguous('twin.edf', [0, 1]))
  })

  it('WFDB: the same, by signal description', () => {
    const h = parseWfdbHeader('800 3 128 1000\n800.dat 212 200 11 1024 0 0 0 ECG\n800.dat 212 200 11 1024 0 0 0 Resp\n800.dat 212 200 11 1024 0 0 0 ECG\n', '800.hea')
    expect(selectWfdbSignals(h)).toEqual([0, 2])
    expect(selectWfdbSignals(h, [2, 'resp'])).toEqual([2, 1])
    expect(() => selectWfdbSignals(h, ['ecg'])).toThrow(ambiguous('800.hea', [0, 2]))
  })

  it("a stage's lead option (detect's lead, a render stage's leads) refuses a label two leads share, naming the option and the indices", () => {
    const twins = ['ECG', 'ECG']
    expect(leadIndex('detect', 'lead', 1, twins)).toBe(1)
    expect(leadIndex('detect', 'lead', 'mlii', ['MLII', 'V5'])).toBe(0)
    const err = thrown(() => leadIndex('detect', 'lead', 'ECG', twins))
    expect([err.code, err.context.field, err.message]).toEqual(['E_CONFIG_VALUE', 'lead', 'detect: option "lead": lead "ECG" names 2 leads of the record [ECG, ECG], at indices 0, 1; select one of them by index (0 or 1)'])
    expect(thrown(() => pickLeads('render-strip', ['ECG'], twins)).message).toMatch(/^render-strip: option "leads": lead "ECG" names 2 leads/)
    expect(thrown(() => pickLeads('render-text', [2], twins)).message).toBe('render-text: option "leads": lead 2 is not among the record\'s leads [ECG, ECG]; use those labels or indices from 0 to 1')
    expect(pickLeads('render-video', undefined, twins)).toEqual([0, 1])
  })
})
