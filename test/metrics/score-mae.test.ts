import { describe, expect, it } from 'vitest'
import { mae, scoreMae, scoreMaeParams, scoreMaeSignature } from '../../src/metrics/score-mae.ts'

describe('mae', () => {
  it.each([
    ['all parsed', [[3, 1], [1, 2], [5, 5]], { mae: 1, n: 3, unparsed: 0 }],
    ['unparsed counted beside, not as 0', [[3, 1], [null, 2], [undefined, 9], [Number.NaN, 1]], { mae: 2, n: 1, unparsed: 3 }],
    ['nothing parsed', [[null, 1]], { mae: null, n: 0, unparsed: 1 }],
    ['no items', [], { mae: null, n: 0, unparsed: 0 }],
  ] as const)('%s', (_n, pairs, expected) => {
    expect(mae(pairs.map(([predicted, gold]) => ({ predicted, gold })))).toEqual(expected)
  })

  it('rejects a non-numeric gold', () => {
    expect(() => mae([{ predicted: 1, gold: Number.NaN }])).toThrow(/gold value/)
  })
})

describe('scoreMaeParams', () => {
  it.each([
    ['odd count: middle value, sample SD', [4, 1, 7], 4, 3],
    ['even count: mean of the middle two', [1, 2, 3, 4], 2.5, Math.sqrt(5 / 3)],
    ['one baseline: sigma 0', [6], 6, 0],
    ['all equal: sigma 0', [2, 2, 2], 2, 0],
  ])('%s', (_n, maes, mu, sigma) => {
    const p = scoreMaeParams(maes)
    expect(p.mu).toBeCloseTo(mu, 12)
    expect(p.sigma).toBeCloseTo(sigma, 12)
    expect(p.n).toBe(maes.length)
  })

  it('rejects an empty or non-finite set', () => {
    expect(() => scoreMaeParams([])).toThrow(/at least one baseline/)
    expect(() => scoreMaeParams([1, Number.NaN])).toThrow(/leave it out/)
  })
})

describe('scoreMae', () => {
  it.each([
    ['at the median: 50', 4, { mu: 4, sigma: 3 }, 50],
    ['one sigma better', 1, { mu: 4, sigma: 3 }, 100 / (1 + Math.exp(-1))],
    ['one sigma worse', 7, { mu: 4, sigma: 3 }, 100 / (1 + Math.exp(1))],
    ['perfect is below 100 unless mu/sigma is large', 0, { mu: 4, sigma: 3 }, 100 / (1 + Math.exp(-4 / 3))],
    ['far worse underflows to 0, not NaN', 1e6, { mu: 1, sigma: 0.001 }, 0],
    ['sigma 0, better: 100', 1, { mu: 2, sigma: 0 }, 100],
    ['sigma 0, equal: 50', 2, { mu: 2, sigma: 0 }, 50],
    ['sigma 0, worse: 0', 3, { mu: 2, sigma: 0 }, 0],
  ])('%s', (_n, m, params, expected) => {
    expect(scoreMae(m, params)).toBeCloseTo(expected, 10)
  })

  it('rejects a negative sigma', () => {
    expect(() => scoreMae(1, { mu: 1, sigma: -1 })).toThrow(/sigma >= 0/)
  })

  it('signs the baseline set (sorted) with mu and sigma', () => {
    const { mu, sigma } = scoreMaeParams([4, 1, 7])
    expect(scoreMaeSignature({ baselines: ['random', 'holter-dsp', 'prior'], mu, sigma })).toBe(
      'score-mae|baselines:holter-dsp,prior,random|mu:4|sigma:3|sd:sample|unparsed:excluded',
    )
  })
})
