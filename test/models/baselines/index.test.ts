// The baseline factory: one baseline per kind, named after it, answering a generated item.
import { describe, expect, it } from 'vitest'
import { BASELINE_KINDS, createBaseline, isBaselineKind } from '../../../src/models/baselines/index.ts'
import { contextOf, generateItems } from './qa-items.ts'

const g = generateItems('i', 2, 'train')

describe('createBaseline', () => {
  it.each(BASELINE_KINDS)('%s', (kind) => {
    const b = createBaseline(kind, { seed: 1, train: g.items })
    expect(b.name).toBe(kind)
    for (const q of g.items.slice(0, 50)) expect(b.answer(q, contextOf(g, q)).length).toBeGreaterThan(0)
  })

  it('knows its kinds', () => {
    expect(isBaselineKind('holter-dsp')).toBe(true)
    expect(isBaselineKind('gpt')).toBe(false)
  })
})
