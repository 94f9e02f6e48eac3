// Splits by case (unit layer): exact proportions for every case count, duplicates, determinism per
// seed and independence from the order the cases are listed in; pinned cases (the proportions
// applied to the rest, the option's errors, a pin the dataset does not have refused at load).
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { assignSplits, type Split } from '../../src/qa/splits.ts'
import { splitOption } from '../../src/qa/split-option.ts'
import qa from '../../src/stages/qa.ts'
import { loadDataset } from '../../src/config/dataset.ts'
import { problemsOf } from '../../src/core/stage-options.ts'
import { PipelineError } from '../../src/core/errors.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { thrown } from '../helpers/thrown.ts'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import { shuffled } from '../../src/qa/option-groups.ts'

const O = { test: 0.2, valid: 0.1, seed: '7' }
const cases = (n: number) => Array.from({ length: n }, (_, i) => `case${String(i).padStart(3, '0')}`)
const tally = (m: Map<string, Split>) => {
  const t = { train: 0, valid: 0, test: 0 }
  for (const s of m.values()) t[s]++
  return t
}

describe('assignSplits', () => {
  it.each(Array.from({ length: 60 }, (_, i) => i + 1))('%i cases: round(0.2 n) test, round(0.1 (n - test)) valid, the rest train', (n) => {
    const test = Math.round(0.2 * n)
    const valid = Math.round(0.1 * (n - test))
    const m = assignSplits(cases(n), O)
    expect(m.size).toBe(n)
    expect(tally(m)).toEqual({ train: n - test - valid, valid, test })
  })

  it.each([
    { n: 1, test: 0, valid: 0 },
    { n: 3, test: 1, valid: 0 },
    { n: 7, test: 1, valid: 1 },
    { n: 10, test: 2, valid: 1 },
    { n: 13, test: 3, valid: 1 },
    { n: 18, test: 4, valid: 1 },
    { n: 19, test: 4, valid: 2 },
    { n: 48, test: 10, valid: 4 },
  ])('$n cases: $test test and $valid valid (worked out by hand)', ({ n, test, valid }) => {
    expect(tally(assignSplits(cases(n), O))).toEqual({ train: n - test - valid, valid, test })
  })

  it('counts a case listed several times once, with one split', () => {
    const ids = cases(20)
    const dup = [...ids, ...ids.slice(0, 7), ids[3], ids[3]]
    const m = assignSplits(dup, O)
    expect(m.size).toBe(20)
    expect(m).toEqual(assignSplits(ids, O))
  })

  it('is the same for one seed and the same cases in any order; another seed assigns differently', () => {
    const ids = cases(40)
    const a = assignSplits(ids, O)
    for (const s of ['x', 'y', 'z']) expect(assignSplits(shuffled(ids, createSeededRandom(s)), O)).toEqual(a)
    expect(assignSplits([...ids].reverse(), O)).toEqual(a)
    const b = assignSplits(ids, { ...O, seed: '8' })
    expect(tally(b)).toEqual(tally(a))
    expect([...b]).not.toEqual([...a])
  })
})

describe('assignSplits with pinned cases', () => {
  const of = (m: Map<string, Split>, split: Split) => [...m].filter(([, s]) => s === split).map(([c]) => c).sort()

  it('puts each pinned case in its split and applies the proportions to the others, as if only they were listed', () => {
    const ids = cases(30)
    const pin = { test: [ids[4], ids[9]], valid: [ids[0]], train: [ids[29]] }
    const m = assignSplits(ids, { ...O, pin })
    expect(m.size).toBe(30)
    expect([m.get(ids[4]), m.get(ids[9]), m.get(ids[0]), m.get(ids[29])]).toEqual(['test', 'test', 'valid', 'train'])
    // The 26 others: round(0.2 x 26) = 5 test, round(0.1 x 21) = 2 valid, the same draw as for them alone.
    const pinned = new Set(Object.values(pin).flat())
    const rest = assignSplits(ids.filter((c) => !pinned.has(c)), O)
    for (const [c, s] of rest) expect(m.get(c), c).toBe(s)
    expect(tally(rest)).toEqual({ train: 19, valid: 2, test: 5 })
    expect(tally(m)).toEqual({ train: 20, valid: 3, test: 7 })
  })

  it('3 cases: pinning one to test and one to valid leaves the third to train (no proportion draws a case from 1)', () => {
    const m = assignSplits(['100', '101', '208'], { ...O, pin: { test: ['208'], valid: ['101'] } })
    expect([of(m, 'test'), of(m, 'valid'), of(m, 'train')]).toEqual([['208'], ['101'], ['100']])
  })

  it('without pins (or with empty lists) assigns as before', () => {
    const ids = cases(25)
    expect([...assignSplits(ids, { ...O, pin: {} })]).toEqual([...assignSplits(ids, O)])
    expect([...assignSplits(ids, { ...O, pin: { test: [] } })]).toEqual([...assignSplits(ids, O)])
  })

  it('refuses a pinned case that is not among the cases, or one pinned twice, naming the option and the id', () => {
    const e = thrown(() => assignSplits(['a', 'b'], { ...O, pin: { valid: ['c'] } }))
    expect(e).toMatchObject({ code: 'E_CONFIG_VALUE', context: { field: 'split.pin' } })
    expect(e.message).toBe('qa option split.pin.valid names case "c", which is not a case of this dataset (its cases: a, b); a case is a record\'s patient.id, else the record\'s id: correct the id or remove it')
    expect(thrown(() => assignSplits(['a', 'b'], { ...O, pin: { test: ['a'], train: ['a'] } })).message).toBe('qa option split.pin pins case "a" to both test and train; pin a case to one split')
  })
})

describe('the qa stage\'s split option', () => {
  const where = { file: 'bench.yaml', yamlPath: 'stages[6].options' }
  const parse = (split: unknown) => qa.parseOptions!({ sets: { s: 'all' }, split }, where).split

  it('defaults as before (no pin key, so the config hash of a dataset without pins is unchanged); numbers are case ids as text', () => {
    expect(qa.parseOptions!({ sets: { s: 'all' } }, where).split).toEqual({ test: 0.2, valid: 0.1 })
    expect(parse({ test: 0.3 })).toEqual({ test: 0.3, valid: 0.1 })
    expect(parse({ pin: { test: [208, '101'] } })).toEqual({ test: 0.2, valid: 0.1, pin: { test: ['208', '101'] } })
  })

  it.each([
    [{ pin: { test: ['208'], valid: [208] } }, 'qa option split.pin pins case "208" to both test and valid; pin a case to one split', 'split.pin'],
    [{ pin: { train: ['x', 'x'] } }, 'qa option split.pin.train lists case "x" twice; list it once', 'split.pin'],
    [{ pin: { tests: ['x'] } }, 'unknown option "tests"; allowed options in split.pin: test, valid, train', 'split.pin.tests'],
    [{ pin: { test: [] } }, '>=1', 'split.pin.test'],
  ])('refuses %j, naming the option', (split, says, at) => {
    const e = thrown(() => parse(split))
    const problems = problemsOf(e)
    expect(problems.map((p) => p.message).join('\n')).toContain(says)
    expect(problems.map((p) => p.context.yamlPath)).toContain(`stages[6].options.${at}`)
  })

  it('is a zod schema of its own, for other tools', () => {
    expect(splitOption.parse(undefined)).toEqual({ test: 0.2, valid: 0.1 })
  })
})

describe('a pinned case the dataset does not have', () => {
  const write = (pin: string) => {
    const dir = tmpDir('hp-split-pin-')
    mkdirSync(dir, { recursive: true })
    const file = path.join(dir, 'pins.yaml')
    writeFileSync(file, [
      'records:',
      `  - path: ${path.join(ROOT, 'samples/mitdb/100')}`,
      `  - {id: two-oh-eight, path: ${path.join(ROOT, 'samples/mitdb/208')}, patient: {id: p208}}`,
      'stages: [read, {use: excerpt, options: {set: s, stratified: {lengthSec: 20, perHour: 6, seed: 1}}},',
      `  {use: qa, options: {sets: {s: all}, split: {pin: ${pin}}}}]`,
      '',
    ].join('\n'))
    return file
  }

  it('is an error when the dataset is loaded, naming the file, the option and the id', async () => {
    const e = await loadDataset(write('{test: [p208], valid: [208]}')).catch((err: unknown) => err)
    expect(e).toBeInstanceOf(PipelineError)
    const problems = problemsOf(e as PipelineError)
    expect(problems).toHaveLength(1)
    expect(problems[0].message).toBe('qa option split.pin.valid names case "208", which is not a case of this dataset (its cases: 100, p208); a case is a record\'s patient.id, else the record\'s id: correct the id or remove it')
    expect(problems[0].context).toMatchObject({ file: expect.stringMatching(/pins\.yaml$/), yamlPath: 'stages[2].options' })
  })

  it('loads when every pinned case is a record\'s patient id or a record id', async () => {
    await expect(loadDataset(write('{test: [p208], train: [100]}'))).resolves.toMatchObject({ records: [{ id: '100' }, { id: 'two-oh-eight' }] })
  })
})
