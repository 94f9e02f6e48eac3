// Leak-free option sets (unit layer, table-driven): the seeded shuffle, numeric and label groups
// sharing one option set with distinct truths, yes/no pairs and the answer-position deck.
import { describe, expect, it } from 'vitest'
import { createDeck, labelGroups, numericGroups, pairs, shuffled, type Grouped, type LabelCandidate } from '../../src/qa/option-groups.ts'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'

const seeded = (s: string) => createSeededRandom(s)
const range = (n: number) => Array.from({ length: n }, (_, i) => i)

describe('shuffled', () => {
  it.each([0, 1, 2, 5, 30])('is a permutation of a copy (%i items), the same for one seed', (n) => {
    const input = range(n).map((i) => `x${i}`)
    const before = [...input]
    const a = shuffled(input, seeded('a'))
    expect(input).toEqual(before)
    expect([...a].sort()).toEqual([...input].sort())
    expect(shuffled(input, seeded('a'))).toEqual(a)
    if (n >= 5) expect(shuffled(input, seeded('b'))).not.toEqual(a)
  })

  it('gives every order of 4 items about equally often (Fisher-Yates, no bias)', () => {
    const rng = seeded('uniform')
    const seen = new Map<string, number>()
    const rounds = 24_000
    for (let k = 0; k < rounds; k++) {
      const key = shuffled([0, 1, 2, 3], rng).join('')
      seen.set(key, (seen.get(key) ?? 0) + 1)
    }
    expect(seen.size).toBe(24)
    for (const n of seen.values()) expect(Math.abs(n - rounds / 24)).toBeLessThan(150)
  })
})

// The values each group should have: repeatedly the `size` smallest values still available.
function expectedNumericValues(values: number[], size: number): string[][] {
  const left = new Map<number, number>()
  for (const v of values) left.set(v, (left.get(v) ?? 0) + 1)
  const out: string[][] = []
  for (;;) {
    const take = [...left.keys()].filter((v) => left.get(v)! > 0).sort((a, b) => a - b).slice(0, size)
    if (take.length < size) return out
    for (const v of take) left.set(v, left.get(v)! - 1)
    out.push(take.map(String))
  }
}

function checkNumeric(values: number[], size: number, groups: Grouped<number>[]): void {
  const used = new Set<number>()
  for (const g of groups) {
    expect(g.values).toHaveLength(size)
    expect(new Set(g.values).size).toBe(size)
    const nums = g.values.map(Number)
    expect(nums).toEqual([...nums].sort((a, b) => a - b))
    expect(g.members.map((m) => m.truth).sort()).toEqual(range(size))
    for (const m of g.members) {
      expect(g.values[m.truth]).toBe(String(values[m.ref]))
      expect(used.has(m.ref)).toBe(false)
      used.add(m.ref)
    }
  }
  expect(groups.map((g) => g.values)).toEqual(expectedNumericValues(values, size))
}

describe('numericGroups', () => {
  it.each([
    { name: 'four distinct values: one group', values: [3, 0, 2, 1], size: 4, groups: [['0', '1', '2', '3']] },
    { name: 'numeric order, not text order', values: [10, 2, 33, 4], size: 4, groups: [['2', '4', '10', '33']] },
    { name: 'lowest values first, repeated values in later groups', values: [0, 0, 0, 1, 1, 2, 2, 3, 5, 8], size: 4, groups: [['0', '1', '2', '3'], ['0', '1', '2', '5']] },
    { name: 'stops when fewer than size distinct values remain', values: [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2], size: 4, groups: [] },
    { name: 'size 3 over the same', values: [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2], size: 3, groups: [['0', '1', '2'], ['0', '1', '2'], ['0', '1', '2'], ['0', '1', '2']] },
    { name: 'no candidates', values: [], size: 4, groups: [] },
    { name: 'a lone value', values: [7], size: 1, groups: [['7']] },
  ])('$name', ({ values, size, groups }) => {
    const got = numericGroups(values.map((value, ref) => ({ ref, value })), size, seeded('n'))
    expect(got.map((g) => g.values)).toEqual(groups)
    checkNumeric(values, size, got)
  })

  it('holds on random candidate lists, and is seeded', () => {
    const rng = seeded('numeric-random')
    for (let k = 0; k < 200; k++) {
      const values = range(rng.below(40)).map(() => rng.below(3 + rng.below(10)))
      const cands = values.map((value, ref) => ({ ref, value }))
      const size = 2 + rng.below(3)
      const got = numericGroups(cands, size, seeded(`s${k}`))
      checkNumeric(values, size, got)
      expect(numericGroups(cands, size, seeded(`s${k}`))).toEqual(got)
    }
    // Which candidate of a value goes in which group depends on the seed.
    const many = range(40).map((ref) => ({ ref, value: ref % 4 }))
    expect(numericGroups(many, 4, seeded('x'))).not.toEqual(numericGroups(many, 4, seeded('y')))
  })
})

const cand = (ref: number, truths: string[], extra: string[] = []): LabelCandidate<number> => ({ ref, truths, present: new Set([...truths, ...extra]) })

function checkLabels(cands: LabelCandidate<number>[], size: number, minSize: number, groups: Grouped<number>[]): void {
  const used = new Set<number>()
  for (const g of groups) {
    expect(g.values.length).toBeGreaterThanOrEqual(minSize)
    expect(g.values.length).toBeLessThanOrEqual(size)
    expect(new Set(g.values).size).toBe(g.values.length)
    expect(g.members).toHaveLength(g.values.length)
    expect(g.members.map((m) => m.truth).sort()).toEqual(range(g.values.length))
    for (const m of g.members) {
      const c = cands[m.ref]
      expect(c.truths).toContain(g.values[m.truth])
      // No other option of the group is true for this member.
      for (const [i, v] of g.values.entries()) if (i !== m.truth) expect(c.present.has(v)).toBe(false)
      expect(used.has(m.ref)).toBe(false)
      used.add(m.ref)
    }
  }
}

describe('labelGroups', () => {
  it.each([
    { name: 'four candidates with four findings: one group of 4', cands: [cand(0, ['A']), cand(1, ['B']), cand(2, ['C']), cand(3, ['D'])], sizes: [4] },
    { name: 'only three findings: groups of 3', cands: [cand(0, ['A']), cand(1, ['B']), cand(2, ['C']), cand(3, ['A']), cand(4, ['B']), cand(5, ['C'])], sizes: [3, 3] },
    { name: 'six findings: a group of 4, then the rest as a group of 2', cands: range(6).map((i) => cand(i, ['ABCDEF'[i]])), sizes: [4, 2] },
    { name: 'five findings: the fifth has no partner left', cands: range(5).map((i) => cand(i, ['ABCDE'[i]])), sizes: [4] },
    { name: 'one finding: never a group below minSize', cands: [cand(0, ['A']), cand(1, ['A']), cand(2, ['A'])], sizes: [] },
    { name: 'candidates that share every finding never group', cands: [cand(0, ['A', 'B']), cand(1, ['A', 'B']), cand(2, ['A', 'B'])], sizes: [] },
    { name: 'a candidate showing the other\'s finding never groups with it', cands: [cand(0, ['A']), cand(1, ['A', 'B'])], sizes: [] },
    { name: 'another truth of a candidate is picked when its first clashes', cands: [cand(0, ['A'], ['X']), cand(1, ['X', 'B'])], sizes: [2], values: ['A', 'B'] },
  ] as { name: string; cands: LabelCandidate<number>[]; sizes: number[]; values?: string[] }[])('$name', ({ cands, sizes, values }) => {
    for (const seed of ['1', '2', '3']) {
      const got = labelGroups(cands, 4, 2, seeded(seed))
      checkLabels(cands, 4, 2, got)
      expect(got.map((g) => g.values.length).sort().reverse()).toEqual(sizes)
      if (values) expect(got.flatMap((g) => g.values).sort()).toEqual(values)
    }
  })

  it('never offers beside a member a finding that is also true for it (present beyond its truths)', () => {
    // 0 shows A and also B (present but not asked about), so it can never be grouped with the B candidate.
    const cands = [cand(0, ['A'], ['B']), cand(1, ['B']), cand(2, ['C'])]
    for (const seed of range(20).map(String)) {
      const got = labelGroups(cands, 3, 2, seeded(seed))
      checkLabels(cands, 3, 2, got)
      for (const g of got) expect(g.values.includes('A') && g.values.includes('B')).toBe(false)
    }
  })

  it('holds on random candidates, and is seeded', () => {
    const rng = seeded('label-random')
    const labels = 'ABCDEFG'
    for (let k = 0; k < 200; k++) {
      const cands = range(rng.below(30)).map((ref) => {
        const truths = [...new Set(range(1 + rng.below(3)).map(() => labels[rng.below(labels.length)]))]
        const extra = rng.below(3) ? [] : [labels[rng.below(labels.length)]]
        return cand(ref, truths, extra)
      })
      const got = labelGroups(cands, 4, 2, seeded(`s${k}`))
      checkLabels(cands, 4, 2, got)
      expect(labelGroups(cands, 4, 2, seeded(`s${k}`))).toEqual(got)
    }
  })
})

describe('pairs', () => {
  it.each([
    { yes: 5, no: 3, max: 10, want: 3 },
    { yes: 2, no: 7, max: 10, want: 2 },
    { yes: 6, no: 6, max: 4, want: 4 },
    { yes: 0, no: 6, max: 4, want: 0 },
    { yes: 6, no: 6, max: 0, want: 0 },
  ])('$yes yes, $no no, at most $max: $want pairs of one yes and one no, each used once', ({ yes, no, max, want }) => {
    const y = range(yes).map((i) => `y${i}`)
    const n = range(no).map((i) => `n${i}`)
    const got = pairs(y, n, max, seeded('p'))
    expect(got).toHaveLength(want)
    expect(got.every(([a, b]) => y.includes(a) && n.includes(b))).toBe(true)
    expect(new Set(got.flat()).size).toBe(2 * want)
    expect(pairs(y, n, max, seeded('p'))).toEqual(got)
  })
})

describe('createDeck', () => {
  it.each([1, 2, 4, 5])('gives each of %i positions once per block', (n) => {
    const next = createDeck(n, seeded(`d${n}`))
    const draws = range(n * 50).map(() => next())
    for (let b = 0; b < 50; b++) expect(draws.slice(b * n, (b + 1) * n).sort()).toEqual(range(n))
    if (n >= 4) expect(new Set(range(50).map((b) => draws.slice(b * n, (b + 1) * n).join(''))).size).toBeGreaterThan(1)
  })
})
