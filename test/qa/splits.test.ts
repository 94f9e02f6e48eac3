// Splits by case (unit layer): exact proportions for every case count, duplicates, determinism per
// seed and independence from the order the cases are listed in.
import { describe, expect, it } from 'vitest'
import { assignSplits, type Split } from '../../src/qa/splits.ts'
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
