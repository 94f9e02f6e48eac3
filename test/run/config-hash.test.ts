// The run directory's config hash (src/run/config-hash.ts), unit layer: the canonical JSON it
// hashes (checked against sha256 of the expected text), then configForHash over datasets parsed
// from YAML: what must not change the hash (key order, comments, whitespace, an option written
// with its default value) and what must (an option, a stage version, a plugin's source, records).
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { parseDataset } from '../../src/config/dataset.ts'
import { resolveStages, type ResolvedStage } from '../../src/config/plugins.ts'
import { configForHash, hashConfig } from '../../src/run/config-hash.ts'
import read from '../../src/stages/read.ts'
import segment from '../../src/stages/segment.ts'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('hashConfig', () => {
  it.each([
    ['sorts object keys', { b: 1, a: 2, c: 3 }, '{"a":2,"b":1,"c":3}'],
    ['sorts keys at every depth, inside arrays too', { z: { y: 1, x: [{ d: 1, c: 2 }] }, a: null }, '{"a":null,"z":{"x":[{"c":2,"d":1}],"y":1}}'],
    ['drops keys whose value is undefined', { a: 1, b: undefined, c: { d: undefined } }, '{"a":1,"c":{}}'],
    ['keeps array order', [3, 1, 2], '[3,1,2]'],
    ['writes undefined inside an array as null, like JSON.stringify', [1, undefined], '[1,null]'],
    ['escapes strings and keys as JSON does', { 'k"ey': 'a\nb' }, '{"k\\"ey":"a\\nb"}'],
    ['writes a top-level undefined as null', undefined, 'null'],
  ])('%s', (_, value, canonical) => {
    expect(hashConfig(value)).toBe(sha256(canonical))
  })

  it('is a sha256 hex digest that key order does not change, and values do', () => {
    const a = hashConfig({ records: [{ id: 'a', path: '/x/a' }], output: { exclude: ['block'], decimals: 4 } })
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(hashConfig({ output: { decimals: 4, exclude: ['block'] }, records: [{ path: '/x/a', id: 'a' }] })).toBe(a)
    expect(hashConfig({ records: [{ id: 'a', path: '/x/a' }], output: { exclude: ['block'], decimals: 5 } })).not.toBe(a)
  })

  it('tells an undefined key (dropped) from a null one, and [1, 2] from [2, 1]', () => {
    expect(hashConfig({ a: 1, b: undefined })).toBe(hashConfig({ a: 1 }))
    expect(hashConfig({ a: 1, b: null })).not.toBe(hashConfig({ a: 1 }))
    expect(hashConfig([1, 2])).not.toBe(hashConfig([2, 1]))
    expect(hashConfig({ a: [1, 2] })).not.toBe(hashConfig({ a: [2, 1] }))
  })

  it('hashes what toJSON gives (two dates differ), and refuses values that are not plain data instead of hashing them as {}', () => {
    expect(hashConfig({ at: new Date('2026-01-01') })).toBe(hashConfig({ at: '2026-01-01T00:00:00.000Z' }))
    expect(hashConfig({ at: new Date('2026-01-01') })).not.toBe(hashConfig({ at: new Date('2026-01-02') }))
    for (const bad of [new Map([['a', 1]]), new Set([1]), /x/, Promise.resolve(1), new Float32Array(2)]) {
      expect(() => hashConfig({ option: bad }), bad.constructor.name).toThrow(/cannot hash a .*: make the value plain data/)
    }
  })
})

const FILE = '/data/set/holter.yaml'

/** The hash a run of this dataset text gets (stages resolved with the real read and segment stages). */
async function hashOf(text: string, edit: (stages: ResolvedStage[]) => ResolvedStage[] = (s) => s): Promise<string> {
  const dataset = parseDataset(text, FILE)
  const stages = await resolveStages(dataset.stages, dataset.file, { read, segment })
  return hashConfig(configForHash(dataset, edit(stages)))
}

const BASE = `name: holter
records:
  - path: '100'
  - path: '101'
stages:
  - read
  - use: segment
    options: { window: 20, partial: true }
output: { decimals: 3 }
`

describe('configForHash', () => {
  it('does not change with key order, comments, whitespace, an option written as its default, or settings that do not shape the outputs', async () => {
    const base = await hashOf(BASE)
    const reordered = `# the same dataset, written differently
output:
  decimals: 3      # fewer digits
stages:
  - use: read
    options: { blockSeconds: 10 }
  - options:
      partial: true
      window: 20
    use: segment
records: [{ path: '100' }, { path: '101' }]
concurrency: { records: 7 }
name: other-name
`
    expect(await hashOf(reordered)).toBe(base)
  })

  it.each([
    ['a stage option', BASE.replace('window: 20', 'window: 30')],
    ['another output setting', BASE.replace('decimals: 3', 'decimals: 2')],
    ['the records\' order', BASE.replace("- path: '100'\n  - path: '101'", "- path: '101'\n  - path: '100'")],
    ['a record more', BASE.replace("  - path: '101'\n", "  - path: '101'\n  - path: '102'\n")],
    ['a record\'s annotator', BASE.replace("  - path: '101'\n", "  - path: '101'\n    annotator: qrs\n")],
    ['the stages\' order', BASE.replace('  - read\n  - use: segment\n    options: { window: 20, partial: true }\n', '  - use: segment\n    options: { window: 20, partial: true }\n  - read\n')],
  ])('changes with %s', async (_, text) => {
    expect(text).not.toBe(BASE)
    expect(await hashOf(text)).not.toBe(await hashOf(BASE))
  })

  it('changes with a stage\'s version and a plugin\'s source hash, not with where the stage was loaded from', async () => {
    const base = await hashOf(BASE)
    const bump = (s: ResolvedStage[]) => s.map((r, i) => (i === 1 ? { ...r, stage: { ...r.stage, version: 99 } } : r))
    expect(await hashOf(BASE, bump)).not.toBe(base)
    const plugin = (sourceHash: string) => (s: ResolvedStage[]) => s.map((r, i) => (i === 1 ? { ...r, source: `/plugins/${sourceHash}.mjs`, sourceHash } : r))
    expect(await hashOf(BASE, plugin('aaaa'))).not.toBe(base)
    expect(await hashOf(BASE, plugin('aaaa'))).not.toBe(await hashOf(BASE, plugin('bbbb')))
    const moved = (s: ResolvedStage[]) => s.map((r) => ({ ...r, source: '/elsewhere/builtin' }))
    expect(await hashOf(BASE, moved)).toBe(base)
  })

  it('never mutates the dataset or the stages it is given', async () => {
    const dataset = parseDataset(BASE, FILE)
    const stages = await resolveStages(dataset.stages, dataset.file, { read, segment })
    const before = JSON.stringify({ dataset, stages })
    hashConfig(configForHash(dataset, stages))
    expect(JSON.stringify({ dataset, stages })).toBe(before)
  })
})
