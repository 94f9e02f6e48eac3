import { describe, expect, it } from 'vitest'
import { timestampF1, timestampF1Micro, timestampF1Signature } from '../../src/metrics/timestamp-f1.ts'
import { rng } from '../helpers/seeded-random.ts'

describe('timestampF1', () => {
  it.each([
    ['both empty: perfect by convention', [], [], {}, [0, 0, 0, 1, 1, 1]],
    ['no prediction', [], [1000], {}, [0, 0, 1, 0, 0, 0]],
    ['no gold', [1000], [], {}, [0, 1, 0, 0, 0, 0]],
    ['exact', [1000, 2000], [2000, 1000], {}, [2, 0, 0, 1, 1, 1]],
    ['tolerance is inclusive', [1150], [1000], {}, [1, 0, 0, 1, 1, 1]],
    ['just outside', [1151], [1000], {}, [0, 1, 1, 0, 0, 0]],
    ['one to one: two predictions near one gold', [990, 1010], [1000], {}, [1, 1, 0, 0.5, 1, 2 / 3]],
    ['custom tolerance', [1300], [1000], { toleranceMs: 300 }, [1, 0, 0, 1, 1, 1]],
    // Closest-pair-first would take 1140-1130 (10 ms) and leave 1000 and 1290 unmatched; the
    // maximum matching pairs 1000-1130 and 1140-1290.
    ['maximum, not closest-first', [1000, 1140], [1130, 1290], {}, [2, 0, 0, 1, 1, 1]],
  ] as const)('%s', (_n, pred, gold, opts, [tp, fp, fn, precision, recall, f1]) => {
    const r = timestampF1([...pred], [...gold], opts)
    expect(r).toMatchObject({ tp, fp, fn })
    expect(r.precision).toBeCloseTo(precision, 12)
    expect(r.recall).toBeCloseTo(recall, 12)
    expect(r.f1).toBeCloseTo(f1, 12)
  })

  it('finds a maximum matching (checked against augmenting paths on random cases)', () => {
    const next = rng(11)
    for (let trial = 0; trial < 300; trial++) {
      const times = (k: number) => Array.from({ length: k }, () => Math.round(next() * 2000))
      const pred = times(Math.floor(next() * 8))
      const gold = times(Math.floor(next() * 8))
      const tol = [0, 50, 150, 400][trial % 4]
      expect(timestampF1(pred, gold, { toleranceMs: tol }).tp, JSON.stringify({ pred, gold, tol })).toBe(maxMatching(pred, gold, tol))
    }
  })

  it('micro-averages counts over items', () => {
    const items = [timestampF1([1000], [1000]), timestampF1([5000], [])]
    expect(timestampF1Micro(items)).toMatchObject({ tp: 1, fp: 1, fn: 0, precision: 0.5, recall: 1 })
    expect(timestampF1Micro([])).toBeNull()
  })

  it('rejects bad input', () => {
    expect(() => timestampF1([Number.NaN], [])).toThrow(/finite numbers of ms/)
    expect(() => timestampF1([], [], { toleranceMs: -1 })).toThrow(/toleranceMs/)
  })

  it('signs its settings', () => {
    expect(timestampF1Signature()).toBe('timestamp-f1|tol:150ms|inclusive|match:one-to-one-max|empty:1')
  })
})

/** Kuhn's augmenting-path maximum bipartite matching, the reference for the greedy walk. */
function maxMatching(pred: number[], gold: number[], tol: number): number {
  const goldOf = new Array<number>(gold.length).fill(-1)
  const tryPred = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < gold.length; j++) {
      if (seen[j] || Math.abs(pred[i] - gold[j]) > tol) continue
      seen[j] = true
      if (goldOf[j] < 0 || tryPred(goldOf[j], seen)) {
        goldOf[j] = i
        return true
      }
    }
    return false
  }
  let n = 0
  for (let i = 0; i < pred.length; i++) if (tryPred(i, [])) n++
  return n
}
