// Seeded percentile-bootstrap confidence intervals. The units resampled are cases
// (records), not items: the items of one case share a patient and a recording, so they are not
// independent, and resampling items would give intervals that are too narrow. Callers group
// items with `groupByCase` (or use `bootstrapByCase`) and the statistic sees a resample of
// whole cases.
//   - n units are drawn with replacement `resamples` times from one seeded generator
//     (src/excerpts/seeded-random.ts), so the same inputs and seed give the same interval on
//     every machine;
//   - the interval is the percentile interval: the (1 - level) / 2 and (1 + level) / 2
//     quantiles of the resampled statistics, linearly interpolated between order statistics
//     (numpy.percentile's default, "type 7");
//   - a resample whose statistic is not finite (say an F1 with nothing to score) is left out
//     of the quantiles and counted in `skipped`; with no finite resample, or no units, the
//     bounds are null.
import { PipelineError } from '../core/errors.ts'
import { createSeededRandom } from '../excerpts/seeded-random.ts'

export interface BootstrapOptions {
  /** Number of resamples (default 1000). */
  resamples?: number
  /** Coverage of the interval, in (0, 1) (default 0.95). */
  level?: number
  /** Seed of the generator (default 0); part of the signature. */
  seed?: string | number
}

export interface BootstrapCi {
  /** The statistic on all units, as given. */
  estimate: number
  low: number | null
  high: number | null
  resamples: number
  level: number
  seed: string | number
  /** Resamples left out because their statistic was not finite. */
  skipped: number
  /** Number of units resampled (cases, when grouped by case). */
  units: number
}

/** A stable text of the settings, for reports. */
export function bootstrapSignature(opts: BootstrapOptions = {}, unit = 'case'): string {
  const o = resolve(opts)
  return `bootstrap|unit:${unit}|ci:percentile|level:${o.level}|n:${o.resamples}|seed:${o.seed}|rng:mulberry32`
}

/** Percentile bootstrap CI of `statistic` over resamples of `units`, seeded. */
export function bootstrapCi<T>(units: readonly T[], statistic: (sample: T[]) => number, opts: BootstrapOptions = {}): BootstrapCi {
  const o = resolve(opts)
  const estimate = statistic([...units])
  const base = { estimate, resamples: o.resamples, level: o.level, seed: o.seed, units: units.length }
  if (units.length === 0) return { ...base, low: null, high: null, skipped: o.resamples }
  const rng = createSeededRandom(o.seed)
  const n = units.length
  const values: number[] = []
  const sample = new Array<T>(n)
  for (let r = 0; r < o.resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = units[rng.below(n)]
    const v = statistic(sample.slice())
    if (Number.isFinite(v)) values.push(v)
  }
  const skipped = o.resamples - values.length
  if (values.length === 0) return { ...base, low: null, high: null, skipped }
  values.sort((a, b) => a - b)
  const alpha = (1 - o.level) / 2
  return { ...base, low: quantile(values, alpha), high: quantile(values, 1 - alpha), skipped }
}

/** Groups items by their case id, cases in order of first appearance, items in input order. */
export function groupByCase<T>(items: readonly T[], caseOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const id = caseOf(item)
    const group = groups.get(id)
    if (group) group.push(item)
    else groups.set(id, [item])
  }
  return [...groups.values()]
}

/** Bootstrap CI of an item-level statistic, resampling whole cases: the statistic sees the items of the drawn cases. */
export function bootstrapByCase<T>(items: readonly T[], caseOf: (item: T) => string, statistic: (items: T[]) => number, opts: BootstrapOptions = {}): BootstrapCi {
  return bootstrapCi(groupByCase(items, caseOf), (cases) => statistic(cases.flat()), opts)
}

/** Linear interpolation between order statistics of a sorted array (numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.min(lo + 1, sorted.length - 1)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo)
}

function resolve(opts: BootstrapOptions): Required<BootstrapOptions> {
  const resamples = opts.resamples ?? 1000
  const level = opts.level ?? 0.95
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new PipelineError('E_CONFIG_VALUE', `bootstrap: resamples must be a positive integer, found ${resamples}; 1000 is usual, 10000 for stable tails`, { field: 'resamples' })
  }
  if (!(level > 0 && level < 1)) {
    throw new PipelineError('E_CONFIG_VALUE', `bootstrap: level must be between 0 and 1 (0.95 for a 95 % interval), found ${level}`, { field: 'level' })
  }
  return { resamples, level, seed: opts.seed ?? 0 }
}
