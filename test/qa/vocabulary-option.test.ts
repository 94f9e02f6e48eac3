// The vocabulary option (src/qa/vocabulary-option.ts) of the qa stage and the stratified rule:
// a table of the user's own replaces the default, is checked like every option, and the items
// and excerpts then speak of its events only.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ExcerptItem, Item, QaItem } from '../../src/core/items.ts'
import annotate from '../../src/stages/annotate.ts'
import excerpt from '../../src/stages/excerpt.ts'
import qa from '../../src/stages/qa.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import { ROOT } from '../helpers/shared.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { runStage } from '../helpers/stage-context.ts'
import { pipelineRejection } from '../helpers/thrown.ts'

const where = { file: 'test.yaml', yamlPath: 'stages[0].options' }
const OWN = [
  { name: 'Ventricular Ectopic Beat', source: { beats: { symbols: ['V'] } } },
  { name: 'Ventricular Salvo', family: 'ventricular', source: { run: { of: 'V', min: 2 } } },
]

describe('vocabulary option', () => {
  it('defaults to the table in src/qa/vocabulary.ts and takes one of the user\'s own', () => {
    expect(qa.parseOptions!({ sets: { q: 'all' } }, where).vocabulary).toBe(DEFAULT_VOCABULARY)
    const own = qa.parseOptions!({ sets: { q: 'all' }, vocabulary: OWN }, where).vocabulary
    expect(own.map((e) => [e.name, e.public, e.family])).toEqual([['Ventricular Ectopic Beat', false, 'rhythm'], ['Ventricular Salvo', false, 'ventricular']])
    expect(own[0].source).toEqual({ beats: { symbols: ['V'], labels: [] } })
  })

  it('refuses two events of one name, a rate event without its bound, and an unknown source', async () => {
    const twice = await pipelineRejection(Promise.resolve().then(() => qa.parseOptions!({ sets: { q: 'all' }, vocabulary: [OWN[0], OWN[0]] }, where)))
    expect(twice.message).toMatch(/two events share a name/)
    const rate = await pipelineRejection(Promise.resolve().then(() => excerpt.parseOptions!({ stratified: { lengthSec: 60, perHour: 10, vocabulary: [{ name: 'Fast', source: { hr: { sustainSec: 10 } } }] } }, where)))
    expect(rate.message).toMatch(/aboveBpm or belowBpm/)
    await pipelineRejection(Promise.resolve().then(() => qa.parseOptions!({ sets: { q: 'all' }, vocabulary: [{ name: 'X', source: { moon: {} } }] }, where)))
  })

  it('makes items about its own events only (record 208)', async () => {
    const spec = recordSpec(path.join(ROOT, 'samples/mitdb/208'))
    const read = await readRecord(spec)
    let items: Item[] = (await runStage(annotate, read.items, { record: spec })).items
    items = (await runStage(excerpt, items, { record: spec, options: { set: 'q', stratified: { lengthSec: 60, perHour: 60, vocabulary: OWN } } })).items
    expect(items.filter((i): i is ExcerptItem => i.kind === 'excerpt').length).toBeGreaterThanOrEqual(25)
    const out = (await runStage(qa, items, { record: spec, options: { sets: { q: 'all' }, vocabulary: OWN } })).items.filter((i): i is QaItem => i.kind === 'qa')
    const events = new Set(out.flatMap((q) => [q.gold.event, ...(q.gold.labels ?? [])]).filter((e): e is string => typeof e === 'string'))
    expect([...events].sort()).toEqual(['Ventricular Ectopic Beat', 'Ventricular Salvo'])
    expect(out.some((q) => q.gold.event !== undefined)).toBe(true)
  })
})
