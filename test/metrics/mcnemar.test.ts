import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { binomCdfHalf, chi2Sf, mcnemar, mcnemarFromPairs, mcnemarSignature, type McnemarTable } from '../../src/metrics/mcnemar.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const rel = (actual: number, expected: number) => Math.abs(actual - expected) / Math.abs(expected)

describeShared('mcnemar parity with statsmodels (golden tables)', () => {
  const golden = JSON.parse(readFileSync(sharedPath('golden/metrics/text-and-tests.json'), 'utf8')).mcnemar as Array<{
    table: McnemarTable
    exact_p: number
    chi2_corrected: number
    chi2_corrected_p: number
  }>

  it('has the golden tables', () => expect(golden.length).toBeGreaterThan(5))

  it.each(golden.map((g) => [JSON.stringify(g.table), g] as const))('%s', (_name, g) => {
    const exact = mcnemar(g.table)
    expect(exact.method).toBe('exact-binomial')
    expect(exact.statistic).toBe(Math.min(g.table[0][1], g.table[1][0]))
    expect(rel(exact.pValue, g.exact_p)).toBeLessThan(1e-6)
    const chi = mcnemar(g.table, { exact: false, correction: true })
    expect(rel(chi.statistic, g.chi2_corrected)).toBeLessThan(1e-12)
    expect(rel(chi.pValue, g.chi2_corrected_p)).toBeLessThan(1e-6)
  })
})

describe('mcnemar', () => {
  it.each([
    // [table, options, statistic, p] computed by hand from the definitions
    [[[5, 0], [0, 5]], {}, 0, 1], // no discordant pairs: binom.cdf(0, 0) = 1, p capped at 1
    [[[5, 0], [0, 5]], { exact: false }, 0, 1], // statsmodels gives NaN here; we say p = 1
    [[[0, 3], [3, 0]], {}, 3, 1], // b = c: 2 * P(X <= 3 | n = 6) = 2 * 42/64 > 1
    [[[0, 0], [4, 0]], {}, 0, 2 / 16], // 2 * 0.5^4
    [[[0, 10], [0, 0]], {}, 0, 2 / 1024],
    [[[0, 3], [3, 0]], { exact: false }, 1 / 6, chi2Sf(1 / 6, 1)], // correction applied even at b = c
    [[[0, 9], [1, 0]], { exact: false, correction: false }, 6.4, chi2Sf(6.4, 1)],
  ] as const)('%j %j', (table, opts, statistic, p) => {
    const r = mcnemar(table as McnemarTable, opts)
    expect(r.statistic).toBeCloseTo(statistic, 12)
    expect(r.pValue).toBeCloseTo(p, 12)
  })

  it('chi2Sf with 1 dof is erfc(sqrt(x / 2)) on known values', () => {
    expect(chi2Sf(3.841458820694124, 1)).toBeCloseTo(0.05, 12)
    expect(chi2Sf(6.634896601021214, 1)).toBeCloseTo(0.01, 12)
    expect(rel(chi2Sf(100, 1), 1.5239706048320995e-23)).toBeLessThan(1e-12) // erfc(sqrt(50)), Python math.erfc: the far tail keeps relative accuracy
    expect(chi2Sf(4, 2)).toBeCloseTo(Math.exp(-2), 14) // 2 dof: exp(-x / 2)
  })

  it('binomCdfHalf sums the exact binomial terms', () => {
    expect(binomCdfHalf(2, 5)).toBeCloseTo((1 + 5 + 10) / 32, 15)
    expect(rel(binomCdfHalf(0, 200), 2 ** -200)).toBeLessThan(1e-12)
    expect(binomCdfHalf(5, 5)).toBe(1)
  })

  it('builds the table from paired correctness', () => {
    const a = [true, true, false, false, true, false]
    const b = [true, false, true, false, false, false]
    const r = mcnemarFromPairs(a, b)
    expect(r.table).toEqual([[1, 2], [1, 2]])
    expect(r).toMatchObject({ b: 2, c: 1, statistic: 1 })
  })

  it('rejects bad input with a fix-it message', () => {
    expect(() => mcnemarFromPairs([true], [])).toThrow(/same items/)
    expect(() => mcnemar([[1, -1], [0, 0]])).toThrow(/non-negative integer/)
    expect(() => mcnemar([[1, 0.5], [0, 0]])).toThrow(/non-negative integer/)
  })

  it('signs its settings', () => {
    expect(mcnemarSignature()).toBe('mcnemar|test:exact-binomial|sided:two|v:1')
    expect(mcnemarSignature({ exact: false })).toContain('test:chi2-corrected')
    expect(mcnemarSignature({ exact: false, correction: false })).toContain('test:chi2|')
  })
})
