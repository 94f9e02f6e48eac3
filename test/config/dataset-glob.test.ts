import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { caseIdOf } from '../../src/config/case-id.ts'
import { allowedKeys, loadDataset, parseDataset } from '../../src/config/dataset.ts'
import type { PipelineError } from '../../src/core/errors.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { pipelineRejection, thrown } from '../helpers/thrown.ts'

// A dataset file at the repository's root, so `samples/mitdb/*.hea` is relative to it (the file itself need not exist).
const AT_ROOT = path.join(ROOT, 'set.yaml')
const MITDB = path.join(ROOT, 'samples/mitdb')
const parse = (text: string, file = AT_ROOT) => parseDataset(`${text}stages: [read]\n`, file)
const fails = (text: string, file = AT_ROOT): PipelineError => thrown(() => parse(text, file))

/** A folder of empty files (the loader matches names; it reads no recording). */
function folderOf(names: string[]): string {
  const dir = tmpDir('hp-glob-')
  for (const name of names) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), '')
  }
  return dir
}

describe('records by glob', () => {
  it('makes one record per matched header, named by its file, in path order', () => {
    const d = parse('records: {glob: samples/mitdb/*.hea}\n')
    expect(d.records.map((r) => r.id)).toEqual(['100', '101', '208'])
    expect(d.records[0]).toEqual({ id: '100', path: path.join(MITDB, '100.hea'), source: 'samples/mitdb/100.hea', format: 'wfdb', leads: undefined, annotator: 'atr', annotatorExplicit: false })
  })

  it('applies the glob\'s defaults to every match, each record with its own patient object', () => {
    const d = parse('records:\n  glob: samples/mitdb/1*.hea\n  leads: [MLII]\n  annotator: false\n  patient: {sex: M, history: "ward 3"}\n')
    expect(d.records.map((r) => [r.id, r.leads, r.annotator, r.annotatorExplicit, r.patient])).toEqual([
      ['100', ['MLII'], false, true, { sex: 'M', history: 'ward 3' }],
      ['101', ['MLII'], false, true, { sex: 'M', history: 'ward 3' }],
    ])
    expect(d.records[0].patient).not.toBe(d.records[1].patient)
  })

  it('guesses each match\'s format and sorts by code unit (not by number or locale), across the patterns of a list', () => {
    const dir = folderOf(['b.edf', 'B2.BDF', '9.rec', '10.edf', 'wfdb/r1.hea', 'wfdb/r1.dat', 'notes.txt'])
    const d = parse('records:\n  glob: ["*.{edf,BDF,rec}", "wfdb/*.hea", "b.*"]\n', path.join(dir, 'set.yaml'))
    expect(d.records.map((r) => [r.id, r.format, r.source])).toEqual([
      ['10', 'edf', '10.edf'], ['9', 'edf', '9.rec'], ['B2', 'edf', 'B2.BDF'], ['b', 'edf', 'b.edf'], ['r1', 'wfdb', 'wfdb/r1.hea'],
    ])
    expect(d.records[4].path).toBe(path.join(dir, 'wfdb/r1.hea'))
  })

  it('takes a format default over the guess, and leaves out what a "!" pattern matches', () => {
    const dir = folderOf(['p0/s00.edf', 'p0/s01.edf', 'p1/s00.edf', 'old/p9.edf'])
    const d = parse('records:\n  - glob: ["**/*.edf", "!old/**", "!p1/*"]\n    format: wfdb\n', path.join(dir, 'set.yaml'))
    expect(d.records.map((r) => [r.source, r.format])).toEqual([['p0/s00.edf', 'wfdb'], ['p0/s01.edf', 'wfdb']])
  })

  it('keeps globs and records listed by path in file order', () => {
    const d = parse('records:\n  - {path: samples/edf/x.edf, id: first}\n  - glob: samples/mitdb/2*.hea\n    annotator: atr\n  - path: samples/mitdb/100\n')
    expect(d.records.map((r) => [r.id, r.source, r.annotatorExplicit])).toEqual([['first', 'samples/edf/x.edf', false], ['208', 'samples/mitdb/208.hea', true], ['100', 'samples/mitdb/100', false]])
  })

  it('loads a dataset whose glob climbs out of its folder', async () => {
    const dir = tmpDir('hp-glob-')
    const file = path.join(dir, 'set.yaml')
    writeFileSync(file, `records: {glob: ${path.relative(dir, MITDB)}/*.hea}\nstages: [read]\n`)
    const d = await loadDataset(file)
    expect(d.records.map((r) => r.path)).toEqual(['100', '101', '208'].map((n) => path.join(MITDB, `${n}.hea`)))
  })
})

describe('glob errors, each at its YAML path and line', () => {
  it('names the pattern and the folder of a pattern that matches nothing', () => {
    const e = fails('name: x\nrecords: {glob: samples/mitdb/*.HEA}\n')
    expect(e).toMatchObject({ code: 'E_CONFIG_VALUE', context: { file: AT_ROOT, yamlPath: 'records.glob', line: 2 } })
    expect(e.message).toBe(`glob "samples/mitdb/*.HEA" matches no file in ${ROOT}; patterns are relative to the dataset file's folder (check the folder and the extension, e.g. data/mitdb/*.hea)`)
    const all = fails('records:\n  - glob: [samples/mitdb/*.hea, "!samples/**"]\n')
    expect(all.context).toMatchObject({ yamlPath: 'records[0].glob[0]', line: 2 })
    expect(all.message).toMatch(/matches no file in .* once the "!" patterns leave theirs out/)
    expect(fails('records: {glob: ["!a/*"]}\n').message).toMatch(/not only "!" patterns/)
  })

  it('refuses a pattern that matches files that are not recordings, naming a few', () => {
    const e = fails('records:\n  - path: samples/edf/x.edf\n  - glob: samples/mitdb/*\n')
    expect(e.context).toMatchObject({ yamlPath: 'records[1].glob', line: 3 })
    expect(e.message).toBe('glob "samples/mitdb/*" matches files that are not recordings (samples/mitdb/100.atr, samples/mitdb/100.dat, samples/mitdb/101.atr and 3 more); match the .hea files of WFDB records (e.g. samples/mitdb/*.hea) or the .edf/.bdf files')
  })

  it('reports a recording both globbed and listed by path as listed twice, in either order', () => {
    const after = fails('records:\n  - path: samples/mitdb/100\n  - glob: samples/mitdb/*.hea\n')
    expect(after.context).toMatchObject({ yamlPath: 'records[1].glob', line: 3 })
    expect(after.message).toBe(`recording ${MITDB}/100 is also listed at records[0].path (line 2): reading it twice would write its outputs twice, under two record ids; list each recording once: leave it out of the glob (a "!" pattern) or drop the other entry`)
    const before = fails('records:\n  - glob: samples/mitdb/*.hea\n  - {path: samples/mitdb/101.hea, id: again}\n')
    expect(before.context).toMatchObject({ yamlPath: 'records[1].path', line: 3 })
    expect(before.message).toMatch(/^recording .*\/101 is also matched by records\[0\]\.glob \(line 2\):/)
  })

  it('reports the same ids from two folders as duplicate ids, saying globbed ids come from file names', () => {
    const dir = folderOf(['a/100.hea', 'b/100.hea', 'b/101.hea'])
    const file = path.join(dir, 'set.yaml')
    const one = fails('records: {glob: "*/*.hea"}\n', file)
    expect(one.context).toMatchObject({ yamlPath: 'records.glob', line: 1 })
    expect(one.message).toBe('duplicate record id "100" for b/100.hea (also a/100.hea, matched by records.glob (line 1)): a globbed record\'s id is its file\'s base name, so files of the same name in two folders get the same id; list one of them as {path: b/100.hea, id: <another id>} and leave it out of its glob with a "!" pattern')
    const two = fails('records:\n  - glob: a/*.hea\n  - path: b/100.hea\n', file)
    expect(two.context).toMatchObject({ yamlPath: 'records[1]', line: 3 })
    expect(two.message).toMatch(/\(also a\/100\.hea, matched by records\[0\]\.glob \(line 2\)\): .*; give this record an explicit "id"$/)
    const fixed = parse('records:\n  - glob: ["*/*.hea", "!b/100.hea"]\n  - {path: b/100.hea, id: b100}\n', file)
    expect(fixed.records.map((r) => r.id)).toEqual(['100', '101', 'b100'])
  })

  it.each([
    ['a number for a pattern', 'records: {glob: 3}\n', 'records.glob', 1, 'expected a glob pattern (data/mitdb/*.hea), or a list of patterns, found 3'],
    ['a list with a number', 'records:\n  - glob: [a/*.hea, 3]\n', 'records[0].glob', 2, 'expected a glob pattern (data/mitdb/*.hea), or a list of patterns, found ["a/*.hea",3]'],
    ['an empty pattern', 'records:\n  - path: a\n  - glob: ""\n', 'records[1].glob', 3, 'a glob pattern cannot be empty'],
    ['an empty list', 'records:\n  glob: []\n', 'records.glob', 2, 'give at least one glob pattern'],
    ['leads not a list', 'records:\n  glob: samples/mitdb/*.hea\n  leads: MLII\n', 'records.leads', 3, 'expected array, found "MLII"'],
    ['an unknown format', 'records:\n  - glob: samples/mitdb/*.hea\n    format: mp3\n', 'records[0].format', 3, 'expected one of "edf", "wfdb"'],
    ['records neither list nor glob', 'records: data/*.hea\n', 'records', 1, 'expected a list of records ([{path: ...}, {glob: ...}]), or one glob ({glob: data/mitdb/*.hea}), found "data/*.hea"'],
    ['an entry neither record nor glob', 'records: [samples/mitdb/100]\n', 'records[0]', 1, 'expected a record ({path: ...}) or a glob ({glob: ...}), found "samples/mitdb/100"'],
  ] as const)('refuses %s', (_name, text, yamlPath, line, message) => {
    const e = fails(text)
    expect(e).toMatchObject({ code: 'E_CONFIG_VALUE', context: { yamlPath, line } })
    expect(e.message).toBe(message)
  })

  it('refuses an id for a glob, listing the glob\'s keys and how to name one recording', () => {
    const e = fails('records:\n  glob: samples/mitdb/*.hea\n  id: mit\n')
    expect(e).toMatchObject({ code: 'E_CONFIG_KEY', context: { yamlPath: 'records.id', line: 3 } })
    expect(e.message).toBe('unknown key "id"; allowed keys here: glob, format, leads, annotator, patient; a glob names each match by its file: to give a recording an id, list it as {path, id} and leave it out of the glob (a "!" pattern)')
    expect(allowedKeys(['records'], { glob: 'x' })).toEqual(['glob', 'format', 'leads', 'annotator', 'patient'])
    expect(allowedKeys(['records', 0], { path: 'x' })).toEqual(['id', 'path', 'format', 'leads', 'annotator', 'patient'])
  })

  it('reports the globs\' problems with the rest of the file\'s, at once, in file order', () => {
    const e = fails('name: my set\nrecords:\n  - glob: samples/mitdb/*.dat\n    leeds: [1]\n  - path: samples/edf/x.edf\n    format: mp3\n  - glob: [samples/mitdb/*.hea, samples/edf/*.nope]\noutput: {decimals: 12}\n')
    expect(e.message.split('\n')).toEqual([
      '6 problems:',
      '  line 1 name: letters, digits, ".", "_" and "-" only',
      '  line 3 records[0].glob: glob "samples/mitdb/*.dat" matches files that are not recordings (samples/mitdb/100.dat, samples/mitdb/101.dat, samples/mitdb/208.dat); match the .hea files of WFDB records (e.g. data/mitdb/*.hea) or the .edf/.bdf files',
      '  line 4 records[0].leeds: unknown key "leeds"; allowed keys here: glob, format, leads, annotator, patient',
      '  line 6 records[1].format: expected one of "edf", "wfdb"',
      expect.stringMatching(/^ {2}line 7 records\[2\]\.glob\[1\]: glob "samples\/edf\/\*\.nope" matches no file in /),
      '  line 8 output.decimals: Too big: expected number to be <=9',
    ])
  })
})

describe('cases (patient.id)', () => {
  it('takes a patient id (text or number) and groups records by it, the record\'s id otherwise', () => {
    const d = parse('records:\n  - {path: s00.edf, patient: {id: p00042, age: 61}}\n  - {path: s01.edf, patient: {id: 42}}\n  - path: other.edf\n')
    expect(d.records.map((r) => r.patient)).toEqual([{ id: 'p00042', age: 61 }, { id: '42' }, undefined])
    expect(d.records.map(caseIdOf)).toEqual(['p00042', '42', 'other'])
    expect(allowedKeys(['records', 0, 'patient'])).toEqual(['id', 'age', 'sex', 'history'])
  })

  it('puts every record of a glob in one case when the glob gives patient.id', () => {
    const dir = folderOf(['p00001/s00.edf', 'p00001/s01.edf'])
    const d = parse('records:\n  glob: p00001/*.edf\n  patient: {id: p00001}\n', path.join(dir, 'set.yaml'))
    expect(d.records.map((r) => [r.id, caseIdOf(r)])).toEqual([['s00', 'p00001'], ['s01', 'p00001']])
  })

  it.each([
    ['a space', '"p 1"', /letters, digits/],
    ['only dots', '".."', /not only dots/],
    ['an empty id', '""', /letters, digits/],
    ['a list', '[p1]', /expected string or number, found \["p1"\]/],
  ])('refuses a patient id with %s', (_name, id, message) => {
    const e = fails(`records:\n  - path: a.edf\n    patient:\n      id: ${id}\n`)
    expect(e).toMatchObject({ code: 'E_CONFIG_VALUE', context: { yamlPath: 'records[0].patient.id', line: 4 } })
    expect(e.message).toMatch(message)
  })
})
