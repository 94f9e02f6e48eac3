// Timestamp F1 for event-timing answers ("our addition"): predicted and gold event
// times (ms) are matched one to one, a pair counting when |p - g| <= tolerance (inclusive,
// default 150 ms), and the matching has as many pairs as possible.
//
// Why the greedy two-pointer walk over sorted lists is a maximum matching. Let x ~ y mean
// |x - y| <= t. (1) Uncrossing: if p1 <= p2, g1 <= g2, p1 ~ g2 and p2 ~ g1, then p1 ~ g1 and
// p2 ~ g2 (p1 - g1 <= p2 - g1 <= t and p1 - g1 >= p1 - g2 >= -t; likewise for p2 - g2).
// (2) At the walk's current heads p = P[i], g = G[j] (the smallest remaining of each):
//   - p < g - t: p is too early for g and for every later gold, so no matching of the remaining
//     times can use p; dropping it loses nothing. g < p - t is the mirror case.
//   - p ~ g: take any maximum matching M of the remaining times. Both cannot be free in M (the
//     pair could be added). If one is free, re-pair the other with it: same size. If p - g' and
//     p' - g are in M (g' >= g, p' >= p), (1) turns them into p - g and p' - g': same size.
//     So some maximum matching contains p - g, and the walk takes it.
// Induction on the remaining lists gives a maximum matching overall. The tests also check it
// against an augmenting-path matching on random cases.
//
// Conventions (shared with label-f1.ts): no gold and no prediction gives precision = recall =
// F1 = 1; otherwise a 0/0 precision or recall is 0 and F1 = 2tp / (2tp + fp + fn).
import { PipelineError } from '../core/errors.ts'
import { type Counts, type PrfScore, prfFromCounts } from './label-f1.ts'

export const DEFAULT_TOLERANCE_MS = 150

export interface TimestampF1Options {
  /** Largest |predicted - gold| that still matches, in ms, inclusive (default 150). */
  toleranceMs?: number
}

export interface TimestampF1Result extends PrfScore {
  /** Matched pairs as [predicted, gold] times, in time order. */
  pairs: Array<[number, number]>
}

/** A stable text of the settings, for reports. */
export function timestampF1Signature(opts: TimestampF1Options = {}): string {
  return `timestamp-f1|tol:${tolerance(opts)}ms|inclusive|match:one-to-one-max|empty:1`
}

/** Precision, recall and F1 of predicted event times against gold times, matched one to one within the tolerance. */
export function timestampF1(predicted: readonly number[], gold: readonly number[], opts: TimestampF1Options = {}): TimestampF1Result {
  const t = tolerance(opts)
  const p = sortedTimes(predicted, 'predicted')
  const g = sortedTimes(gold, 'gold')
  const pairs: Array<[number, number]> = []
  let i = 0
  let j = 0
  while (i < p.length && j < g.length) {
    if (p[i] < g[j] - t) i++
    else if (g[j] < p[i] - t) j++
    else pairs.push([p[i++], g[j++]])
  }
  const tp = pairs.length
  return { ...prfFromCounts({ tp, fp: p.length - tp, fn: g.length - tp }), pairs }
}

/** Micro F1 over many items: their counts summed, then precision, recall and F1 (null for no items). */
export function timestampF1Micro(items: readonly Counts[]): PrfScore | null {
  if (items.length === 0) return null
  const c = { tp: 0, fp: 0, fn: 0 }
  for (const it of items) {
    c.tp += it.tp
    c.fp += it.fp
    c.fn += it.fn
  }
  return prfFromCounts(c)
}

function tolerance(opts: TimestampF1Options): number {
  const t = opts.toleranceMs ?? DEFAULT_TOLERANCE_MS
  if (!(t >= 0) || !Number.isFinite(t)) {
    throw new PipelineError('E_CONFIG_VALUE', `timestamp-f1: toleranceMs must be a finite number >= 0, found ${t}; the default is ${DEFAULT_TOLERANCE_MS}`, { field: 'toleranceMs' })
  }
  return t
}

function sortedTimes(times: readonly number[], side: string): number[] {
  const bad = times.find((x) => typeof x !== 'number' || !Number.isFinite(x))
  if (bad !== undefined) {
    throw new PipelineError('E_USAGE', `timestamp-f1: ${side} times must be finite numbers of ms, found ${String(bad)}; parse the answer's timestamps first`, { field: side })
  }
  return [...times].sort((a, b) => a - b)
}
