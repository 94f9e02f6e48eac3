// What one item adds to a metric's sums, and the metric from summed contributions: score-sums.ts
// adds them up per case, which is what the bootstrap resamples (aggregate.ts). Every metric here
// is a function of sums over items (a mean:
// [sum, count]; micro F1: [tp, fp, fn]; corpus BLEU: BLEU-4's n-gram matches, totals and lengths),
// so a resample of cases only needs each case's sums: O(cases) per resample instead of O(items),
// the same numbers as recomputing the metric on the resampled items. NaN means "nothing to
// compute it on". Which items count:
//   accuracy, yes/no accuracy   read items (scored + unparsed; unparsed are wrong)
//   MAE                         scored items only (unparsed counted beside it, score-mae.ts)
//   timestamp / label F1        micro F1 over read items (unparsed predict nothing)
//   binary F1                   over read items, positive class 1 (unparsed: the wrong class)
//   text metrics, corpus BLEU   every item with text scores (not failed or missing)
//   F1-Bio, ScoreGPT            items a hook scored
// Pure.
import { bleuFromStats } from '../metrics/bleu.ts'
import { prfFromCounts } from '../metrics/label-f1.ts'
import type { ItemScore } from './score-types.ts'
import type { MetricKey } from './task-metrics.ts'

const isRead = (i: ItemScore) => i.status === 'scored' || i.status === 'unparsed'

/** What one item adds to the metric's sums, or null when it does not count. */
export function contribution(key: MetricKey, i: ItemScore): number[] | null {
  switch (key) {
    case 'accuracy':
    case 'yesNoAccuracy': return isRead(i) && i.correct !== undefined ? [i.correct ? 100 : 0, 1] : null
    case 'mae':
    case 'scoreMae': return i.status === 'scored' && i.absError !== undefined ? [i.absError, 1] : null
    case 'timestampF1':
    case 'labelF1':
    case 'binaryF1': return isRead(i) && i.counts ? [i.counts.tp, i.counts.fp, i.counts.fn] : null
    case 'bleu1': return i.text ? [i.text.bleu1, 1] : null
    case 'bleu4': return i.text ? [i.text.bleu4, 1] : null
    case 'rougeL': return i.text ? [i.text.rougeL, 1] : null
    case 'f1Bio': return i.f1Bio !== undefined ? [i.f1Bio, 1] : null
    case 'scoreGpt': return i.scoreGpt !== undefined ? [i.scoreGpt, 1] : null
    case 'corpusBleu1':
    case 'corpusBleu4': return i.text ? [...i.text.stats.counts, ...i.text.stats.totals, i.text.stats.sysLen, i.text.stats.refLen] : null
  }
}

/** The metric from its summed contributions. */
function finish(key: MetricKey, s: readonly number[]): number {
  if (key === 'timestampF1' || key === 'labelF1') return 100 * prfFromCounts({ tp: s[0], fp: s[1], fn: s[2] }).f1
  if (key === 'binaryF1') return 100 * binaryF1(s[0], s[1], s[2])
  if (key === 'corpusBleu1' || key === 'corpusBleu4') {
    const orders = (s.length - 2) / 2
    const stats = { counts: s.slice(0, orders), totals: s.slice(orders, 2 * orders), sysLen: s[2 * orders], refLen: s[2 * orders + 1] }
    return bleuFromStats(stats, { maxOrder: key === 'corpusBleu1' ? 1 : 4, effectiveOrder: false }).score
  }
  return s[1] > 0 ? s[0] / s[1] : NaN
}

/** The metric's value on `items` (all of a group; it picks the ones it counts), NaN when none count: the definition the per-case sums (score-sums.ts) must agree with. */
export function metricValue(key: MetricKey, items: readonly ItemScore[]): number {
  const counted = items.map((i) => contribution(key, i)).filter((c): c is number[] => c !== null)
  return metricFromCases(key, counted)
}

/** The metric on a resample of case sums. */
export function metricFromCases(key: MetricKey, cases: readonly number[][]): number {
  return cases.length ? finish(key, addUp(cases)) : NaN
}

// The ECG multi-task benchmark's binary F1: precision and recall over max(., 1) denominators, 0 when both are 0.
function binaryF1(tp: number, fp: number, fn: number): number {
  const p = tp / Math.max(tp + fp, 1)
  const r = tp / Math.max(tp + fn, 1)
  return p + r > 0 ? (2 * p * r) / (p + r) : 0
}

/** Whether the metric gets a bootstrap interval of its own (ScoreMAE is MAE's, mapped). */
export function bootstrapped(key: MetricKey): boolean {
  return key !== 'scoreMae'
}

function addUp(cases: readonly number[][]): number[] {
  const total = new Array<number>(cases[0].length).fill(0)
  for (const c of cases) for (let k = 0; k < c.length; k++) total[k] += c[k]
  return total
}
