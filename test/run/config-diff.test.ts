// What a refused resume says changed (unit layer): dataset terms, every change counted.
import { describe, expect, it } from 'vitest'
import { describeConfigChange } from '../../src/run/config-diff.ts'

describe('config diff', () => {
  it('names stage options by stage, and records added or removed by id', () => {
    const before = { stages: [{ name: 'read', options: {} }, { name: 'detect', options: { lead: 0 } }], records: [{ id: '100' }, { id: '101' }] }
    const after = { stages: [{ name: 'read', options: {} }, { name: 'detect', options: { lead: 1 } }], records: [{ id: '101' }, { id: '203' }] }
    expect(describeConfigChange(before, after)).toEqual(['stages[1] detect.options.lead: 0 -> 1', 'records: added 203', 'records: removed 100'])
    expect(describeConfigChange(before, before)).toEqual([])
  })

  it('cuts at eight lines and says exactly how many more changed', () => {
    const before = { options: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])) }
    const after = { options: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i + 1])) }
    const lines = describeConfigChange(before, after)
    expect(lines).toHaveLength(9)
    expect(lines[8]).toBe('... and 12 more')
  })

  it('lists at most ten ids of records added in one line', () => {
    const ids = Array.from({ length: 25 }, (_, i) => ({ id: `r${i}` }))
    expect(describeConfigChange({ records: [] }, { records: ids })).toEqual(['records: added r0, r1, r2, r3, r4, r5, r6, r7, r8, r9 and 15 more'])
  })
})
