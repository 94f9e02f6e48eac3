// Splits on a tiny benchmark through the CLI: three bundled records (three cases), no render
// stages. Left to the proportions, one case goes to test and none to valid: `qa export` warns
// that valid is empty and of every task type and event a split lacks (checked against the
// items themselves), exits 0 all the same, and `qa validate` on the export says the same but
// for the empty split (it has no folder). Pinned, the cases go where they are pinned and no
// split is empty; a pinned case the dataset does not have fails the run before any record.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { QaItem } from '../../src/core/items.ts'
import { goldEvents } from '../../src/qa/split-coverage.ts'
import { runCli } from '../helpers/child.ts'
import { ndjson } from '../helpers/qa-run.ts'
import { smallBenchYaml } from '../helpers/small-bench.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-qa-splits-')
const at = (...p: string[]) => path.join(work, ...p)
const RECORDS = ['100', '101', '208']

async function bench(name: string, split?: Record<string, unknown>): Promise<{ run: string; items: QaItem[] }> {
  writeFileSync(at(`${name}.yaml`), smallBenchYaml({ name, records: RECORDS, inputs: [], split }))
  const r = await runCli(['run', at(`${name}.yaml`), '--out', at(name)])
  expect(r.code, r.stderr).toBe(0)
  return { run: at(name), items: ndjson<QaItem>(at(name, 'qa.ndjson')) }
}

const warningsOf = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning: ')).map((l) => l.slice('warning: '.length))

// What a split lacks, worked out from the items: [split, task type or event] pairs.
function gaps(items: QaItem[], key: (q: QaItem) => string[]): string[][] {
  const bySplit = new Map<string, Set<string>>()
  for (const q of items) for (const k of key(q)) bySplit.set(q.split, new Set([...(bySplit.get(q.split) ?? []), k]))
  const all = new Set([...bySplit.values()].flatMap((s) => [...s]))
  return [...bySplit].flatMap(([split, has]) => [...all].filter((k) => !has.has(k)).map((k) => [split, k]))
}

describe('splits of a three-case benchmark', () => {
  let plain: { run: string; items: QaItem[] }
  beforeAll(async () => {
    plain = await bench('plain')
  }, 120_000)

  it('by proportion: one case in test, none in valid; export warns of it and of every task type and event a split lacks, and exits 0', async () => {
    const cases = (split: string) => new Set(plain.items.filter((q) => q.split === split).map((q) => q.caseId))
    expect([cases('test').size, cases('valid').size, cases('train').size]).toEqual([1, 0, 2])
    const r = await runCli(['qa', 'export', plain.run, at('plain-export'), '--inputs', 'none'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^exported \d+ items of 3 records/)
    const warnings = warningsOf(r.stderr)
    expect(warnings[0]).toBe('split valid is empty')
    const taskGaps = gaps(plain.items, (q) => [q.taskType])
    const eventGaps = gaps(plain.items, (q) => goldEvents(q.gold))
    expect(taskGaps.length + eventGaps.length).toBeGreaterThan(0)
    const said = warnings.slice(1)
    expect(said).toHaveLength(taskGaps.length + eventGaps.length)
    for (const [split, task] of taskGaps) {
      const has = (s: string) => plain.items.filter((q) => q.split === s && q.taskType === task).length
      const others = ['train', 'test'].filter((s) => s !== split && has(s) > 0).map((s) => `${s} has ${has(s)}`)
      expect(said).toContain(`split ${split} has no ${task} item (${others.join(', ')})`)
    }
    for (const [split, event] of eventGaps) expect(said.some((w) => w.startsWith(`event ${event} appears in `) && w.endsWith(` but not in ${split}`)), `${event} not in ${split}`).toBe(true)

    // validate reads the same gaps from the export's task and gold files (an empty split has no folder there).
    const v = await runCli(['qa', 'validate', at('plain-export')])
    expect(v.code, v.stdout).toBe(0)
    expect(warningsOf(v.stderr).sort()).toEqual(said.slice().sort())
  }, 120_000)

  it('pinned: 208 in test, 101 in valid, 100 (the rest) in train; no split is empty', async () => {
    const pinned = await bench('pinned', { pin: { test: [208], valid: ['101'] } })
    const splitOf = new Map(pinned.items.map((q) => [q.caseId, q.split]))
    expect(Object.fromEntries(splitOf)).toEqual({ 100: 'train', 101: 'valid', 208: 'test' })
    // The items are those of the unpinned run but for their split.
    expect(pinned.items.map((q) => ({ ...q, split: '' }))).toEqual(plain.items.map((q) => ({ ...q, split: '' })))
    const r = await runCli(['qa', 'export', pinned.run, at('pinned-export'), '--inputs', 'none'])
    expect(r.code, r.stderr).toBe(0)
    expect(warningsOf(r.stderr).filter((w) => w.endsWith('is empty'))).toEqual([])
  }, 120_000)

  it('a pinned case that is not among the records fails the run when the dataset is loaded, naming the option and the id', async () => {
    writeFileSync(at('bad.yaml'), smallBenchYaml({ name: 'bad', records: RECORDS, inputs: [], split: { pin: { test: ['209'] } } }))
    const r = await runCli(['run', at('bad.yaml'), '--out', at('bad')])
    expect(r.code).toBe(23)
    expect(r.stderr).toContain('qa option split.pin.test names case "209", which is not a case of this dataset (its cases: 100, 101, 208)')
  }, 60_000)
})
