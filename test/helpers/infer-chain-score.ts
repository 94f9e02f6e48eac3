// Scoring closed QA items from a run's predictions, independently of src/ (the test's own reading
// of an answer: the leading letter of an item with options, else the leading yes/no), and the two
// statistics the baselines are judged by: a one-sided exact binomial test against chance, and a
// two-sided 99 % band around it. Chance is per item (1 / its options: 2 for a yes/no item) and
// averaged over the items; the band's variance is the per-item one summed (Poisson binomial).
import type { QaItem } from '../../src/core/items.ts'
import type { PredictionItem } from '../../src/models/model.ts'

/** One model's score on a set of closed items. */
export interface Score {
  n: number
  correct: number
  /** Answers with no letter (or no yes/no) to read. */
  unparsed: number
  /** Mean chance of a guess over the items. */
  chance: number
  /** Sum over the items of p(1 - p): the variance of a guesser's correct count. */
  variance: number
}

/** Whether `answer` is right for the closed `item`; null when it names no option (no letter, or no yes/no). */
export function judgeClosed(item: QaItem, answer: string): boolean | null {
  if (item.gold.choices) {
    const m = /^\s*([A-F])\b/.exec(answer)
    return m ? m[1].charCodeAt(0) - 65 === item.gold.correct : null
  }
  const m = /^\s*(yes|no)\b/i.exec(answer)
  return m ? m[1].toLowerCase() === item.gold.value : null
}

/** The chance of a guess on `item`. */
export function chanceOf(item: QaItem): number {
  return 1 / (item.gold.choices?.length ?? 2)
}

/** The score of `model` on `items` (every item must have its prediction). */
export function scoreModel(items: readonly QaItem[], predictions: ReadonlyMap<string, PredictionItem>, model: string): Score {
  const s: Score = { n: 0, correct: 0, unparsed: 0, chance: 0, variance: 0 }
  for (const item of items) {
    const p = predictions.get(`${item.id}@${model}`)
    if (!p) throw new Error(`no prediction of ${model} for ${item.id}`)
    const ok = judgeClosed(item, p.answer)
    const c = chanceOf(item)
    s.n++
    s.chance += c
    s.variance += c * (1 - c)
    if (ok === null) s.unparsed++
    else if (ok) s.correct++
  }
  s.chance = s.n ? s.chance / s.n : 0
  return s
}

/** P(X >= k) for X ~ Binomial(n, p), exactly (log-space sum of the tail). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1
  if (k > n) return 0
  const logFact = [0]
  for (let i = 1; i <= n; i++) logFact.push(logFact[i - 1] + Math.log(i))
  const logPmf = (i: number) => logFact[n] - logFact[i] - logFact[n - i] + i * Math.log(p) + (n - i) * Math.log1p(-p)
  const terms = Array.from({ length: n - k + 1 }, (_, j) => logPmf(k + j))
  const top = Math.max(...terms)
  return Math.min(1, Math.exp(top) * terms.reduce((sum, t) => sum + Math.exp(t - top), 0))
}

/** The accuracy band a guesser stays in 99 % of the time (two-sided, normal approximation), its top capped at chance + `capPoints` where few items make it wider. */
export function chanceBand(s: Score, capPoints = 10): { low: number; high: number; halfWidth: number } {
  const halfWidth = (2.576 * Math.sqrt(s.variance)) / s.n
  return { low: s.chance - halfWidth, high: s.chance + Math.min(halfWidth, capPoints / 100), halfWidth }
}

/** Accuracy of a score (0 without items). */
export function accuracy(s: Score): number {
  return s.n ? s.correct / s.n : 0
}
