import { describe, expect, it } from 'vitest'
import { bootstrapByCase, bootstrapCi, bootstrapSignature, groupByCase, quantile } from '../../src/metrics/bootstrap.ts'
import { rng } from '../helpers/seeded-random.ts'

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length

describe('bootstrapCi', () => {
  it('is deterministic for a seed and changes with it', () => {
    const xs = Array.from({ length: 40 }, (_, i) => (i * 37) % 11)
    const a = bootstrapCi(xs, mean, { seed: 'run-1', resamples: 300 })
    expect(bootstrapCi(xs, mean, { seed: 'run-1', resamples: 300 })).toEqual(a)
    expect(bootstrapCi(xs, mean, { seed: 'run-2', resamples: 300 })).not.toEqual(a)
    expect(a).toMatchObject({ estimate: mean(xs), resamples: 300, level: 0.95, seed: 'run-1', units: 40, skipped: 0 })
    expect(a.low!).toBeLessThan(a.estimate)
    expect(a.high!).toBeGreaterThan(a.estimate)
  })

  it.each([
    ['constant units', [3, 3, 3, 3], 3, 3, 0],
    ['no units', [], null, null, 1000],
  ] as const)('%s', (_n, units, low, high, skipped) => {
    const r = bootstrapCi([...units], (s) => (s.length ? mean(s) : Number.NaN))
    expect(r).toMatchObject({ low, high, skipped })
  })

  it('leaves non-finite resample statistics out and counts them', () => {
    const r = bootstrapCi([0, 1], (s) => (s.every((x) => x === 0) ? Number.NaN : mean(s)), { resamples: 400, seed: 1 })
    expect(r.skipped).toBeGreaterThan(50) // about a quarter draw [0, 0]
    expect(r.skipped).toBeLessThan(150)
    expect(r.low).toBe(0.5)
    expect(r.high).toBe(1)
  })

  it('covers the true mean about 95 % of the time (normal data, n = 40)', () => {
    const next = rng(7)
    const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())
    let covered = 0
    const trials = 200
    for (let t = 0; t < trials; t++) {
      const xs = Array.from({ length: 40 }, normal)
      const ci = bootstrapCi(xs, mean, { resamples: 400, seed: t })
      if (ci.low! <= 0 && 0 <= ci.high!) covered++
    }
    // The percentile interval undercovers a little at n = 40; 200 trials give +-3 % of noise.
    expect(covered / trials).toBeGreaterThan(0.87)
    expect(covered / trials).toBeLessThan(0.99)
  })

  it('resampling cases widens the interval when items of a case are correlated', () => {
    const next = rng(3)
    // 30 cases of 10 items each; a case is right or wrong as a whole.
    const items = Array.from({ length: 30 }, (_, c) => {
      const right = next() < 0.6 ? 1 : 0
      return Array.from({ length: 10 }, () => ({ caseId: `A${c}`, right }))
    }).flat()
    const acc = (xs: Array<{ right: number }>) => mean(xs.map((x) => x.right))
    const byItem = bootstrapCi(items, acc, { seed: 5 })
    const byCase = bootstrapByCase(items, (i) => i.caseId, acc, { seed: 5 })
    expect(byCase.estimate).toBe(byItem.estimate)
    expect(byCase.units).toBe(30)
    const width = (ci: typeof byItem) => ci.high! - ci.low!
    expect(width(byCase)).toBeGreaterThan(2 * width(byItem)) // about sqrt(10) times wider
  })

  it('rejects bad options', () => {
    expect(() => bootstrapCi([1], mean, { resamples: 0 })).toThrow(/positive integer/)
    expect(() => bootstrapCi([1], mean, { level: 95 })).toThrow(/between 0 and 1/)
  })

  it('signs its settings', () => {
    expect(bootstrapSignature({ seed: 42 })).toBe('bootstrap|unit:case|ci:percentile|level:0.95|n:1000|seed:42|rng:mulberry32')
  })
})

describe('groupByCase and quantile', () => {
  it('groups in order of first appearance', () => {
    const items = [{ c: 'b', i: 1 }, { c: 'a', i: 2 }, { c: 'b', i: 3 }]
    expect(groupByCase(items, (x) => x.c)).toEqual([[items[0], items[2]], [items[1]]])
  })

  it.each([
    [[1, 2, 3, 4], 0, 1],
    [[1, 2, 3, 4], 1, 4],
    [[1, 2, 3, 4], 0.5, 2.5],
    [[1, 2, 3, 4], 0.025, 1.075], // numpy.percentile([1, 2, 3, 4], 2.5)
    [[7], 0.3, 7],
  ])('quantile(%j, %d) = %d', (xs, q, v) => expect(quantile(xs, q)).toBeCloseTo(v, 12))
})
