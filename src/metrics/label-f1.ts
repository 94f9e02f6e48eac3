// Label-set F1 for open diagnosis answers ("our addition"): the labels parsed from a
// model's answer against the gold labels, both passed through the caller's normaliser (the event
// vocabulary of the QA issue), compared as sets.
// Conventions, the same as timestamp-f1.ts:
//   - both sets empty (nothing to find, nothing claimed): precision = recall = F1 = 1;
//   - otherwise a 0/0 precision or recall is 0, and F1 = 2tp / (2tp + fp + fn).
//   - a label the normaliser maps to '' is dropped (say, filler words); anything else is kept
//     as returned, so an unknown predicted label is a false positive, never silently ignored.
// Aggregates: micro (counts summed over items), macro (mean per-label F1 over every label seen
// in gold or predictions, sklearn's average='macro') and samples (mean per-item F1, sklearn's
// average='samples'); an empty list gives null for each.

export interface Counts {
  tp: number
  fp: number
  fn: number
}

export interface PrfScore extends Counts {
  precision: number
  recall: number
  f1: number
}

export interface LabelF1Result extends PrfScore {
  matched: string[]
  /** Predicted labels not in gold (false positives). */
  extra: string[]
  /** Gold labels not predicted (false negatives). */
  missed: string[]
}

export interface LabelF1Options {
  /** Maps a label to its canonical form; '' drops it. Default: trim, lower-case, collapse spaces. */
  normalise?: (label: string) => string
  /** Name (and version) of the normaliser, for the signature (default 'lower-trim'). */
  normaliserId?: string
}

export interface LabelF1Aggregate {
  micro: PrfScore | null
  macro: number | null
  samples: number | null
  items: number
}

/** A stable text of the settings, for reports. */
export function labelF1Signature(opts: LabelF1Options = {}): string {
  return `label-f1|norm:${opts.normaliserId ?? (opts.normalise ? 'custom' : 'lower-trim')}|empty:1|avg:micro,macro,samples`
}

/** Precision, recall and F1 from counts; `bothEmptyIsPerfect` scores tp = fp = fn = 0 as 1, else 0. */
export function prfFromCounts(c: Counts, bothEmptyIsPerfect = true): PrfScore {
  const { tp, fp, fn } = c
  if (tp + fp + fn === 0) {
    const v = bothEmptyIsPerfect ? 1 : 0
    return { tp, fp, fn, precision: v, recall: v, f1: v }
  }
  return {
    tp, fp, fn,
    precision: tp + fp ? tp / (tp + fp) : 0,
    recall: tp + fn ? tp / (tp + fn) : 0,
    f1: (2 * tp) / (2 * tp + fp + fn),
  }
}

/** Set F1 of one item's predicted labels against its gold labels, after normalising both. */
export function labelSetF1(predicted: readonly string[], gold: readonly string[], opts: LabelF1Options = {}): LabelF1Result {
  const norm = opts.normalise ?? defaultNormalise
  const p = toSet(predicted, norm)
  const g = toSet(gold, norm)
  const matched = [...p].filter((x) => g.has(x))
  const extra = [...p].filter((x) => !g.has(x))
  const missed = [...g].filter((x) => !p.has(x))
  return { ...prfFromCounts({ tp: matched.length, fp: extra.length, fn: missed.length }), matched, extra, missed }
}

/** Micro, per-label macro and per-item (samples) F1 over items scored by labelSetF1. */
export function labelF1Aggregate(items: readonly LabelF1Result[]): LabelF1Aggregate {
  if (items.length === 0) return { micro: null, macro: null, samples: null, items: 0 }
  const total: Counts = { tp: 0, fp: 0, fn: 0 }
  const perLabel = new Map<string, Counts>()
  const bump = (label: string, key: keyof Counts) => {
    const c = perLabel.get(label) ?? { tp: 0, fp: 0, fn: 0 }
    c[key]++
    perLabel.set(label, c)
  }
  for (const it of items) {
    total.tp += it.tp
    total.fp += it.fp
    total.fn += it.fn
    for (const l of it.matched) bump(l, 'tp')
    for (const l of it.extra) bump(l, 'fp')
    for (const l of it.missed) bump(l, 'fn')
  }
  const labelF1s = [...perLabel.values()].map((c) => prfFromCounts(c).f1)
  return {
    // No label anywhere: every item had both sets empty, so each scored 1 and so do the aggregates.
    micro: prfFromCounts(total),
    macro: labelF1s.length ? mean(labelF1s) : 1,
    samples: mean(items.map((i) => i.f1)),
    items: items.length,
  }
}

function toSet(labels: readonly string[], norm: (label: string) => string): Set<string> {
  const out = new Set<string>()
  for (const l of labels) {
    const k = norm(l)
    if (k !== '') out.add(k)
  }
  return out
}

function defaultNormalise(label: string): string {
  return label.trim().toLowerCase().replace(/\s+/g, ' ')
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length
}
