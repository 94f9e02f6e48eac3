// MAE and ScoreMAE for the open counting and HR-extremum tasks (benchmark-spec.md, Metrics):
//   ScoreMAE = 100 / (1 + exp((MAE - mu) / sigma))
// with mu the median and sigma the standard deviation of the MAEs of a declared set of baseline
// models on that task, so a baseline scores near 50, a better model above, a worse one below.
// Choices the paper leaves open, fixed here and named in the signature:
//   - sigma is the SAMPLE standard deviation (n - 1 in the denominator); with one baseline it
//     is 0 (there is no spread to measure).
//   - sigma = 0 (one baseline, or all baselines equal) makes the logistic a step: 100 below mu,
//     50 at mu, 0 above, never NaN. The signature shows sigma:0 so a reader sees why.
//   - MAE counts only parsed predictions; unparsed ones are counted beside it, never as 0.
import { PipelineError } from '../core/errors.ts'

/** One open item: the number parsed from the answer (null or non-finite when unparsed) and the gold. */
export interface MaePair {
  predicted: number | null | undefined
  gold: number
}

export interface MaeResult {
  /** Mean absolute error over parsed items; null when none parsed. */
  mae: number | null
  /** Items with a parsed prediction. */
  n: number
  /** Items whose prediction could not be parsed (not in the MAE). */
  unparsed: number
}

export interface ScoreMaeParams {
  /** Median of the baseline MAEs. */
  mu: number
  /** Sample standard deviation of the baseline MAEs (0 for one baseline). */
  sigma: number
  /** Number of baselines. */
  n: number
}

export interface ScoreMaeSignatureOptions {
  /** Names of the baseline models whose MAEs gave mu and sigma. */
  baselines: readonly string[]
  mu: number
  sigma: number
}

/** A stable text of what ScoreMAE was computed against: the baseline set, mu and sigma. */
export function scoreMaeSignature(opts: ScoreMaeSignatureOptions): string {
  const names = [...opts.baselines].sort().join(',')
  return `score-mae|baselines:${names}|mu:${round(opts.mu)}|sigma:${round(opts.sigma)}|sd:sample|unparsed:excluded`
}

/** MAE over the parsed predictions, with the unparsed ones counted separately. */
export function mae(pairs: readonly MaePair[]): MaeResult {
  let sum = 0
  let n = 0
  let unparsed = 0
  for (const p of pairs) {
    if (!Number.isFinite(p.gold)) {
      throw new PipelineError('E_USAGE', `mae: gold value must be a finite number, found ${p.gold}; fix the gold of that item`, { field: 'gold' })
    }
    if (typeof p.predicted !== 'number' || !Number.isFinite(p.predicted)) {
      unparsed++
      continue
    }
    sum += Math.abs(p.predicted - p.gold)
    n++
  }
  return { mae: n ? sum / n : null, n, unparsed }
}

/** ScoreMAE in [0, 100]: a logistic of the MAE around the baselines' median, scaled by their spread. */
export function scoreMae(maeValue: number, params: { mu: number; sigma: number }): number {
  const { mu, sigma } = params
  if (!(sigma >= 0) || !Number.isFinite(mu) || !Number.isFinite(maeValue)) {
    throw new PipelineError('E_USAGE', `scoreMae: expected a finite MAE and mu and sigma >= 0, found mae=${maeValue}, mu=${mu}, sigma=${sigma}`, { field: 'params' })
  }
  if (sigma === 0) return maeValue < mu ? 100 : maeValue > mu ? 0 : 50
  // exp overflows to Infinity for a far-worse model, and 100 / Infinity is the right limit 0.
  return 100 / (1 + Math.exp((maeValue - mu) / sigma))
}

/** mu (median) and sigma (sample SD, n - 1) of the baseline models' MAEs on one task. */
export function scoreMaeParams(baselineMaes: readonly number[]): ScoreMaeParams {
  const n = baselineMaes.length
  if (n === 0 || baselineMaes.some((x) => !Number.isFinite(x))) {
    throw new PipelineError('E_USAGE', `scoreMae: expected the finite MAEs of at least one baseline model, found [${baselineMaes.join(', ')}]; a baseline with no parsed answer has no MAE, leave it out of the set`, { field: 'baselines' })
  }
  const sorted = [...baselineMaes].sort((a, b) => a - b)
  const mid = n >> 1
  const mu = n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  if (n === 1) return { mu, sigma: 0, n }
  const mean = sorted.reduce((s, x) => s + x, 0) / n
  const ss = sorted.reduce((s, x) => s + (x - mean) ** 2, 0)
  return { mu, sigma: Math.sqrt(ss / (n - 1)), n }
}

function round(x: number): string {
  return String(Number(x.toPrecision(6)))
}
