// Stage errors about options a flag set come back as usage errors in the flag's terms; any other
// error passes unchanged, as the same object.
import { describe, expect, it } from 'vitest'
import { PipelineError, type ErrorContext } from '../../src/core/errors.ts'
import { checkLeadFlag, inFlagTerms, type FlagOrigin } from '../../src/commands/flag-terms.ts'

const origins: FlagOrigin[] = [
  { flag: '--lead', value: 7, stage: 'read', index: 0, option: 'leads' },
  { flag: '--window', value: 0.001, stage: 'segment', index: 4, option: 'window' },
  { flag: '--lead', value: 7, stage: 'render-text', index: 5, option: 'leads' },
]
const error = (code: 'E_CONFIG_VALUE' | 'E_NO_ECG' | 'E_IO', message: string, context: ErrorContext) => new PipelineError(code, message, context)

describe('inFlagTerms', () => {
  const translated: { name: string; err: PipelineError; line: string }[] = [
    {
      name: 'an option refused while the stages are resolved (its YAML path)',
      err: error('E_CONFIG_VALUE', 'Too big: expected number to be <=3600, found 5000', { file: '(pipeline render)', yamlPath: 'stages[4].options.window' }),
      line: 'E_USAGE: --window 0.001: Too big: expected number to be <=3600, found 5000',
    },
    {
      name: 'an option refused while the record runs (stage and field), its words made the flag\'s',
      err: error('E_CONFIG_VALUE', "segment option window: expected at least one sample period at the record's 360 Hz (window >= 0.002778 s), found 0.001 s; set window to 0.002778 s or more", { recordId: '100', stage: 'segment', field: 'window' }),
      line: "E_USAGE: record 100: --window 0.001: expected at least one sample period at the record's 360 Hz (--window >= 0.002778 s), found 0.001 s; set --window to 0.002778 s or more",
    },
    {
      name: 'a lead the reader does not find (the record\'s leads came from --lead)',
      err: error('E_NO_ECG', '/d/100.hea: expected a signal with index 7 (from leads), found none', { recordId: '100', stage: 'read', file: '/d/100.hea', field: 'leads' }),
      line: 'E_USAGE: record 100: --lead 7: /d/100.hea: expected a signal with index 7 (from leads), found none',
    },
    {
      name: 'a render stage\'s option, without its stage and option name',
      err: error('E_CONFIG_VALUE', 'render-text: option "leads": lead 7 is not among the record\'s leads [MLII, V5]', { recordId: '100', stage: 'render-text', field: 'leads' }),
      line: "E_USAGE: record 100: --lead 7: lead 7 is not among the record's leads [MLII, V5]",
    },
  ]
  for (const c of translated) {
    it(c.name, () => {
      const out = inFlagTerms(c.err, origins) as PipelineError
      expect(out.toLine()).toBe(c.line)
      expect(out.cause).toBe(c.err)
    })
  }

  const unchanged: { name: string; err: unknown }[] = [
    { name: 'another code', err: error('E_IO', 'disk full', { stage: 'segment', field: 'window' }) },
    { name: 'an option no flag set', err: error('E_CONFIG_VALUE', 'bad', { stage: 'segment', field: 'partial' }) },
    { name: 'the same option name in another stage', err: error('E_CONFIG_VALUE', 'bad', { stage: 'render-strip', field: 'leads' }) },
    { name: 'not a PipelineError', err: new Error('boom') },
  ]
  for (const c of unchanged) it(`leaves ${c.name} alone`, () => expect(inFlagTerms(c.err, origins)).toBe(c.err))
})

describe('checkLeadFlag', () => {
  const choices = [{ index: 0, label: 'MLII' }, { index: 1, label: 'V5' }]
  it('accepts an index or a label of the choices (case as asked)', () => {
    expect(() => checkLeadFlag(1, choices, { file: 'r', caseSensitive: true })).not.toThrow()
    expect(() => checkLeadFlag(' v5', choices, { file: 'r', caseSensitive: false })).not.toThrow()
  })
  it('refuses others, naming the indices and the labels', () => {
    expect(() => checkLeadFlag('v5', choices, { file: 'r', caseSensitive: true, among: 'ECG lead' })).toThrow('--lead v5: r has no ECG lead labelled "v5"; expected an index from 0 to 1 or a label (0 "MLII", 1 "V5")')
    expect(() => checkLeadFlag(1, [{ index: 0, label: 'ECG' }, { index: 2, label: 'EEG' }, { index: 3, label: 'X' }], { file: 'e.edf', caseSensitive: false })).toThrow('expected one of the indices 0, 2, 3 or a label')
  })
})
