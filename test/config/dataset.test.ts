import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { allowedKeys, loadDataset, parseDataset } from '../../src/config/dataset.ts'
import { PipelineError } from '../../src/core/errors.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { pipelineRejection, thrown } from '../helpers/thrown.ts'

const fails = (text: string): PipelineError => thrown(() => parseDataset(text, '/data/set.yaml'))

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
    ['no records', 'stages: [read]\n', 'E_CONFIG_VALUE', 'records', /required records are missing: list the recordings to read .* or name an earlier run to read instead \(input:/],
    ['records and input', 'records: [{path: a.edf}]\ninput: {run: runs/x, kinds: [window]}\nstages: [excerpt]\n', 'E_CONFIG_VALUE', 'input', /give records or input, not both/],
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
    const err = thrown(() => parseDataset('records:\n  - path:\n      - a.edf\n      - b\nstages: [read]\n', '/data/set.yaml'))
    expect(err).toMatchObject({ code: 'E_CONFIG_VALUE', context: { yamlPath: 'records[0].path[1]', line: 4 } })
    expect(err.message).toContain('part 1 (b) is not edf like part 0')
  })

  it('refuses a recording listed twice, whatever the ids, naming both places', () => {
    const e = fails('records:\n  - path: rec/100\n  - id: again\n    path: rec/100.hea\nstages: [read]\n')
    expect(e.code).toBe('E_CONFIG_VALUE')
    expect(e.context).toMatchObject({ yamlPath: 'records[1].path', line: 4 })
    expect(e.toLine()).toBe('E_CONFIG_VALUE: /data/set.yaml:4: records[1].path: recording /data/rec/100 is also listed at records[0].path (line 2): reading it twice would write its outputs twice, under two record ids; list each recording once')
  })

  it('refuses a part listed twice in one record, or a part that is another record', () => {
    const e = fails('records:\n  - id: p0\n    path:\n      - s00\n      - s01\n      - ./s00\n  - path: s01\nstages: [read]\n')
    expect(e.message).toBe([
      '2 problems:',
      '  line 6 records[0].path[2]: recording /data/s00 is also listed at records[0].path[0] (line 4): reading it twice would write its outputs twice, under two record ids; list each recording once',
      '  line 7 records[1].path: recording /data/s01 is also listed at records[0].path[1] (line 5): reading it twice would write its outputs twice, under two record ids; list each recording once',
    ].join('\n'))
  })

  it('reports every problem of the file at once, in file order, each at its own line', () => {
    const e = fails('name: my set\nrecords:\n  - path: a\n    lead: [MLII]\n    leeds: 1\n  - path: b\n    format: mp3\n  - path: a\nstages: [read]\noutput: { decimals: 12 }\n')
    expect(e.code).toBe('E_CONFIG_VALUE')
    expect(e.toLine()).toBe([
      'E_CONFIG_VALUE: /data/set.yaml: 6 problems:',
      '  line 1 name: letters, digits, ".", "_" and "-" only',
      '  line 4 records[0].lead: unknown key "lead"; allowed keys here: id, path, format, leads, annotator, patient',
      '  line 5 records[0].leeds: unknown key "leeds"; allowed keys here: id, path, format, leads, annotator, patient',
      '  line 7 records[1].format: expected one of "edf", "wfdb"',
      '  line 8 records[2].path: recording /data/a is also listed at records[0].path (line 3): reading it twice would write its outputs twice, under two record ids; list each recording once',
      '  line 10 output.decimals: Too big: expected number to be <=9',
    ].join('\n'))
    expect((e.context.problems as { code: string }[]).map((p) => p.code)).toEqual(['E_CONFIG_VALUE', 'E_CONFIG_KEY', 'E_CONFIG_KEY', 'E_CONFIG_VALUE', 'E_CONFIG_VALUE', 'E_CONFIG_VALUE'])
  })

  it('takes the first problem in the file for the code', () => {
    const e = fails('records:\n  - path: a\n    lead: 1\nconcurrency: {records: 0}\nstages: [read]\n')
    expect(e.code).toBe('E_CONFIG_KEY')
    expect(e.message).toMatch(/^2 problems:\n  line 3 records\[0\]\.lead: unknown key "lead".*\n  line 4 concurrency\.records: Too small/)
  })

  it('lists the stages\' problems with the rest of the file\'s when loading it: names, modules and each option at its line', async () => {
    const dir = tmpDir()
    // A plugin whose own check names no line: the loader finds it from the YAML path.
    writeFileSync(path.join(dir, 'even.mjs'), `import { PipelineError } from ${JSON.stringify(path.join(ROOT, 'src/core/errors.ts'))}
export default { name: 'even', version: 1, async *transform(s) { yield* s },
  parseOptions(raw, where) { if (raw.n % 2) throw new PipelineError('E_CONFIG_VALUE', 'n must be even', { file: where.file, yamlPath: where.yamlPath + '.n' }); return raw } }
`)
    const file = path.join(dir, 'set.yaml')
    writeFileSync(file, [
      'records:',
      '  - path: [a, 7, {x: 1}]',
      'stages:',
      '  - read',
      '  - segmnt',
      '  - use: segment',
      '    options:',
      '      window: -1',
      '      step: 0',
      '      stp: 3',
      '  - ./none.ts',
      `  - use: ${path.join(ROOT, 'pipelines/examples/rr-intervals.ts')}`,
      '    options: { maxRrMs: 0 }',
      '  - use: ./even.mjs',
      '    options:',
      '      n: 3',
      '',
    ].join('\n'))
    const err = await pipelineRejection(loadDataset(file))
    expect(err.code).toBe('E_CONFIG_VALUE')
    expect(err.toLine().split('\n')).toEqual([
      `E_CONFIG_VALUE: ${file}: 8 problems:`,
      '  line 2 records[0].path: expected a recording path, or a list of the paths of its consecutive parts, found ["a",7,{"x":1}]',
      expect.stringMatching(/^  line 5 stages\[1\]: unknown stage "segmnt"; built-in stages: annotate, .*; a module of your own is named by a path starting with \.\/ or \/$/),
      '  line 8 stages[2].options.window: Too small: expected number to be >0, found -1',
      '  line 9 stages[2].options.step: Too small: expected number to be >0, found 0',
      '  line 10 stages[2].options.stp: unknown option "stp"; allowed options: window, step, partial',
      `  line 11 stages[3]: ${path.join(dir, 'none.ts')}: stage module not found (paths are relative to the dataset file)`,
      '  line 13 stages[4].options.maxRrMs: maxRrMs must be a positive number of milliseconds, found 0',
      '  line 16 stages[5].options.n: n must be even',
    ])
  })

  it('lists allowed keys at any path of the schema', () => {
    expect(allowedKeys([])).toEqual(['name', 'out', 'concurrency', 'records', 'input', 'cache', 'stages', 'output'])
    expect(allowedKeys(['input'])).toEqual(['run', 'kinds'])
    expect(allowedKeys(['records', 0, 'patient'])).toEqual(['id', 'age', 'sex', 'history'])
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

describe('a dataset over an earlier run', () => {
  it('reads input: {run, kinds} instead of records, starts with read-run, and resolves run and cache against its folder', async () => {
    const d = parseDataset('input:\n  run: ../runs/demo\n  kinds: [window, beat]\ncache: ../cache\nstages:\n  - {use: excerpt, options: {around: {labels: [V]}}}\n', '/data/sets/over.yaml')
    expect(d.input).toEqual({ run: '/data/runs/demo', kinds: ['window', 'beat'] })
    expect(d.cache).toBe('/data/cache')
    expect(d.records).toEqual([])
    expect(d.stages.map((s) => [s.use, s.yamlPath])).toEqual([['read-run', 'input'], ['excerpt', 'stages[0]']])
    expect(d.stages[0].options).toEqual({ run: '/data/runs/demo', kinds: ['window', 'beat'] })
    const err = thrown(() => parseDataset('input: {run: x, kinds: [Window]}\nstages: [excerpt]\n', '/data/over.yaml'))
    expect(err).toMatchObject({ code: 'E_CONFIG_VALUE', context: { yamlPath: 'input.kinds[0]' } })
  })
})
