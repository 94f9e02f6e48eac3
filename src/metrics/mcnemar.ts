// McNemar's test between two models scored on the same closed items (Table 12 of the
// paper), equal to statsmodels.stats.contingency_tables.mcnemar on ../shared/golden/metrics:
//   table = [[a, b], [c, d]]: a both right, b only model A right, c only model B right, d both
//   wrong. Only the discordant pairs b and c carry information.
//   exact (default): statistic = min(b, c), p = min(1, 2 * BinomCdf(min(b, c); b + c, 1/2)).
//   chi-square: statistic = (|b - c| - k)^2 / (b + c), k = 1 with continuity correction (default)
//   else 0, p = chi-square survival function with 1 degree of freedom. statsmodels applies the
//   correction even when b = c, giving 1 / (b + c); so do we, for parity.
// With no discordant pairs (b + c = 0) statsmodels' chi-square gives NaN; we report statistic 0
// and p = 1 (nothing tells the models apart), as its exact test does.
// Tail probabilities are computed in log space / by continued fractions, not as 1 - cdf, so tiny
// p-values (1e-13 on the goldens) keep their relative accuracy. No dependencies.
import { PipelineError } from '../core/errors.ts'

export type McnemarTable = readonly [readonly [number, number], readonly [number, number]]

export interface McnemarOptions {
  /** Exact binomial test on the discordant pairs (default true); false: chi-square. */
  exact?: boolean
  /** Continuity correction of the chi-square statistic (default true; ignored when exact). */
  correction?: boolean
}

export interface McnemarResult {
  statistic: number
  pValue: number
  method: 'exact-binomial' | 'chi2-corrected' | 'chi2'
  /** Discordant counts: b = only A right, c = only B right. */
  b: number
  c: number
}

/** A stable text of the settings, for reports: which test was computed. */
export function mcnemarSignature(opts: McnemarOptions = {}): string {
  return `mcnemar|test:${methodOf(opts)}|sided:two|v:1`
}

/** McNemar's test on a 2x2 table of paired outcomes, as statsmodels computes it. */
export function mcnemar(table: McnemarTable, opts: McnemarOptions = {}): McnemarResult {
  validateTable(table)
  const b = table[0][1]
  const c = table[1][0]
  const method = methodOf(opts)
  const n = b + c
  if (method === 'exact-binomial') {
    const k = Math.min(b, c)
    return { statistic: k, pValue: Math.min(1, 2 * binomCdfHalf(k, n)), method, b, c }
  }
  if (n === 0) return { statistic: 0, pValue: 1, method, b, c }
  const k = method === 'chi2-corrected' ? 1 : 0
  const statistic = (Math.abs(b - c) - k) ** 2 / n
  return { statistic, pValue: chi2Sf(statistic, 1), method, b, c }
}

/** McNemar's test from per-item correctness of models A and B on the same items, in the same order. */
export function mcnemarFromPairs(aCorrect: readonly boolean[], bCorrect: readonly boolean[], opts: McnemarOptions = {}): McnemarResult & { table: McnemarTable } {
  if (aCorrect.length !== bCorrect.length) {
    throw new PipelineError('E_USAGE', `mcnemar: model A has ${aCorrect.length} scored items and model B ${bCorrect.length}; the test needs both models on the same items, so pair them by item id first`, { field: 'pairs' })
  }
  const t = [[0, 0], [0, 0]]
  for (let i = 0; i < aCorrect.length; i++) t[aCorrect[i] ? 0 : 1][bCorrect[i] ? 0 : 1]++
  const table: McnemarTable = [[t[0][0], t[0][1]], [t[1][0], t[1][1]]]
  return { ...mcnemar(table, opts), table }
}

function methodOf(opts: McnemarOptions): McnemarResult['method'] {
  if (opts.exact ?? true) return 'exact-binomial'
  return (opts.correction ?? true) ? 'chi2-corrected' : 'chi2'
}

function validateTable(table: McnemarTable): void {
  const cells = [table?.[0]?.[0], table?.[0]?.[1], table?.[1]?.[0], table?.[1]?.[1]]
  if (cells.some((x) => !Number.isInteger(x) || (x as number) < 0)) {
    throw new PipelineError('E_USAGE', `mcnemar: expected a 2x2 table of non-negative integer counts [[a, b], [c, d]], found ${JSON.stringify(table)}`, { field: 'table' })
  }
}

/**
 * P(X <= k) for X ~ Binomial(n, 1/2). The k-th term is built as a sum of logs, then the sum runs
 * downwards with pmf(i-1) = pmf(i) * i / (n - i + 1); k <= n/2 here, so terms shrink and the
 * loop stops once they no longer change the sum.
 */
export function binomCdfHalf(k: number, n: number): number {
  if (k < 0) return 0
  if (k >= n) return 1
  let logTerm = -n * Math.LN2
  for (let i = 1; i <= k; i++) logTerm += Math.log((n - k + i) / i)
  let term = Math.exp(logTerm)
  let sum = term
  for (let i = k; i > 0; i--) {
    term *= i / (n - i + 1)
    sum += term
    if (term < sum * 1e-17) break
  }
  return Math.min(1, sum)
}

/** Survival function of the chi-square distribution: Q(dof / 2, x / 2), the upper regularized gamma. */
export function chi2Sf(x: number, dof: number): number {
  if (x <= 0) return 1
  return gammaQ(dof / 2, x / 2)
}

/** Upper regularized incomplete gamma Q(a, x): series for P when x < a + 1, else Lentz's continued fraction. */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1
  if (x === Infinity) return 0
  const logPrefix = a * Math.log(x) - x - logGamma(a)
  if (x < a + 1) {
    let term = 1 / a
    let sum = term
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * 1e-16) break
    }
    return 1 - sum * Math.exp(logPrefix)
  }
  const tiny = 1e-300
  let b = x + 1 - a
  let c = 1 / tiny
  let d = 1 / b
  let h = d
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < tiny) d = tiny
    c = b + an / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < 1e-16) break
  }
  return Math.exp(logPrefix) * h
}

// Lanczos approximation (g = 7, 9 terms), relative error about 1e-15 for a > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
]

/** ln Γ(a) for a > 0. */
export function logGamma(a: number): number {
  if (a < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * a)) - logGamma(1 - a)
  const z = a - 1
  let s = LANCZOS[0]
  for (let i = 1; i < 9; i++) s += LANCZOS[i] / (z + i)
  const t = z + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s)
}
