import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { allowedKeys, loadDataset, parseDataset } from '../../src/config/dataset.ts'
import { PipelineError } from '../../src/core/errors.ts'
import { ROOT } from '../helpers/shared.ts'

function fails(text: string): PipelineError {
  try {
    parseDataset(text, '/data/set.yaml')
  } catch (err) {
    expect(err).toBeInstanceOf(PipelineError)
    return err as PipelineError
  }
  throw new Error('expected the dataset to be rejected')
}

describe('dataset files', () => {
  it('applies defaults and resolves paths against the dataset folder', () => {
    const d = parseDataset('records:\n  - path: rec/100\n  - path: x/a.EDF\n    leads: [ECG, 1]\nstages: [read]\n', '/data/set.yaml')
    expect(d.name).toBe('set')
    expect(d.concurrency.records).toBe(2)
    expect(d.output).toEqual({ exclude: ['block'], decimals: 4 })
    expect(d.records[0]).toMatchObject({ id: '100', path: '/data/rec/100', format: 'wfdb', annotator: 'atr', annotatorExplicit: false })
    expect(d.records[1]).toMatchObject({ id: 'a', path: '/data/x/a.EDF', format: 'edf', leads: ['ECG', 1] })
    expect(d.stages).toEqual([{ use: 'read', options: {}, yamlPath: 'stages[0]', line: 5 }])
    expect(d.out).toBe(path.resolve('runs', 'set'))
  })

  it('names an unknown key with its YAML path, line and the allowed keys', () => {
    const e = fails('records:\n  - path: a\n    lead: [MLII]\nstages: [read]\n')
    expect(e.code).toBe('E_CONFIG_KEY')
    expect(e.context).toMatchObject({ file: '/data/set.yaml', yamlPath: 'records[0].lead', line: 3 })
    expect(e.message).toContain('allowed keys here: id, path, format, leads, annotator, patient')
    expect(e.toLine()).toBe('E_CONFIG_KEY: /data/set.yaml:3: records[0].lead: unknown key "lead"; allowed keys here: id, path, format, leads, annotator, patient')
  })

  it('names unknown keys inside stage entries', () => {
    const e = fails('records: [{path: a}]\nstages:\n  - use: segment\n    option: {}\n')
    expect(e.context.yamlPath).toBe('stages[0].option')
    expect(e.message).toContain('allowed keys here: use, options')
  })

  it.each([
    ['invalid YAML', 'records: [\n', 'E_CONFIG_YAML', undefined, /invalid YAML at line 2, column 1/],
    ['a wrong type', 'records:\n  - path: [a, {x: 1}]\nstages: [read]\n', 'E_CONFIG_VALUE', 'records[0].path', /expected a recording path, or a list of the paths of its consecutive parts, found \["a",\{"x":1\}\]/],
    ['an unknown format', 'records:\n  - path: a\n    format: mp3\nstages: [read]\n', 'E_CONFIG_VALUE', 'records[0].format', /expected one of "edf", "wfdb"/],
    ['no records', 'stages: [read]\n', 'E_CONFIG_VALUE', 'records', /required array is missing/],
    ['a bad concurrency', 'records: [{path: a}]\nconcurrency: {records: 0}\nstages: [read]\n', 'E_CONFIG_VALUE', 'concurrency.records', />=1/],
    ['an id of only dots', 'records: [{path: a, id: ".."}]\nstages: [read]\n', 'E_CONFIG_VALUE', 'records[0].id', /not only dots/],
    ['duplicate ids', 'records: [{path: a/100}, {path: b/100}]\nstages: [read]\n', 'E_CONFIG_VALUE', 'records[1]', /duplicate record id "100" \(also records\[0\]\)/],
  ] as const)('rejects %s', (_name, text, code, yamlPath, message) => {
    const e = fails(text)
    expect(e.code).toBe(code)
    expect(e.context.yamlPath).toBe(yamlPath)
    expect(e.message).toMatch(message)
  })

  it('says what was found for a wrong type', () => {
    expect(fails('records: [{path: a}]\nconcurrency: {records: two}\nstages: [read]\n').message).toBe('expected number, found "two"')
  })

  it('takes a numeric record path or id as text (WFDB records are named by number)', () => {
    const d = parseDataset('records:\n  - path: 100\n    id: 7\nstages: [read]\n', '/data/set.yaml')
    expect(d.records[0]).toMatchObject({ id: '7', path: '/data/100', source: '100' })
  })

  it('takes a list of paths as the consecutive parts of one record', () => {
    const d = parseDataset('records:\n  - path: [s00, s01, 7]\n    id: p0\n  - path: [one.edf]\nstages: [read]\n', '/data/set.yaml')
    expect(d.records[0]).toMatchObject({ id: 'p0', path: '/data/s00', parts: ['/data/s00', '/data/s01', '/data/7'], source: 's00', format: 'wfdb' })
    expect(d.records[1]).toMatchObject({ id: 'one', path: '/data/one.edf', format: 'edf' })
    expect(d.records[1].parts).toBeUndefined()
    let err: unknown
    try {
      parseDataset('records:\n  - path:\n      - a.edf\n      - b\nstages: [read]\n', '/data/set.yaml')
    } catch (e) {
      err = e
    }
    expect(err).toMatchObject({ code: 'E_CONFIG_VALUE', context: { yamlPath: 'records[0].path[1]', line: 4 } })
    expect((err as Error).message).toContain('part 1 (b) is not edf like part 0')
  })

  it('lists allowed keys at any path of the schema', () => {
    expect(allowedKeys([])).toEqual(['name', 'out', 'concurrency', 'records', 'stages', 'output'])
    expect(allowedKeys(['records', 0, 'patient'])).toEqual(['age', 'sex', 'history'])
  })

  it('reports a missing dataset file', async () => {
    await expect(loadDataset('/nope/none.yaml')).rejects.toMatchObject({ code: 'E_FILE_MISSING', context: { file: '/nope/none.yaml' } })
  })

  it('loads the demo dataset', async () => {
    const d = await loadDataset(path.join(ROOT, 'pipelines/demo.yaml'))
    expect(d.records.map((r) => r.id)).toEqual(['100', '101', '208', '102'])
    expect(d.records[0].path).toBe(path.join(ROOT, 'samples/mitdb/100'))
  })
})
