// A typical report learned from train items (the prior and blind baselines' report answers): the
// median of each figure of the train reports' gold figures, rounded as the gold rounds it (rates
// and shares to 0.1, burdens to 0.01, counts to whole numbers: a median of two is their midpoint
// and would otherwise carry its float noise into the text), the times of the fastest and slowest rate as their median offset from the excerpt's
// start, the most frequent dominant rhythm and findings; written with the generators' own report
// sentences (src/qa/report-text.ts) at a fixed seed. Beats are the median rate over the asked
// excerpt's length, so a longer excerpt gets more beats. Pure.
import { createSeededRandom } from '../../excerpts/seeded-random.ts'
import { median } from '../../qa/option-numbers.ts'
import type { ReportFigures } from '../../qa/report-figures.ts'
import { overviewText, summaryText } from '../../qa/report-text.ts'

/** A train report's figures and the start of its excerpt (record ms). */
export interface TrainReport {
  figures: ReportFigures
  startMs: number
}

/** Makes the typical figures for an excerpt's span. */
export type TypicalReport = (span: { startMs: number; endMs: number }) => ReportFigures

const med = (xs: readonly (number | null | undefined)[]): number | null => {
  const ok = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x))
  return ok.length ? median(ok) : null
}
const count = (xs: readonly (number | null | undefined)[]) => Math.round(med(xs) ?? 0)
// The median to `digits` decimals, or null.
const medTo = (xs: readonly (number | null | undefined)[], digits: number): number | null => {
  const m = med(xs)
  return m === null ? null : Number(m.toFixed(digits))
}

/** The most frequent value by key (ties: the first seen), or null for an empty list. */
export function mostCommon<T>(xs: readonly T[], key: (x: T) => string): T | null {
  const n = new Map<string, { x: T; n: number }>()
  for (const x of xs) {
    const k = key(x)
    const e = n.get(k)
    if (e) e.n++
    else n.set(k, { x, n: 1 })
  }
  let best: { x: T; n: number } | null = null
  for (const e of n.values()) if (!best || e.n > best.n) best = e
  return best?.x ?? null
}

/** The typical report of `train`, or null without train reports. */
export function learnTypicalReport(train: readonly TrainReport[]): TypicalReport | null {
  if (!train.length) return null
  const f = train.map((t) => t.figures)
  const meanHr = medTo(f.map((x) => x.meanHrBpm), 1)
  const extreme = (pick: (x: ReportFigures) => { bpm: number; timeMs: number } | null) => {
    const xs = train.flatMap((t) => { const e = pick(t.figures); return e ? [{ bpm: e.bpm, offset: e.timeMs - t.startMs }] : [] })
    return xs.length ? { bpm: Number(median(xs.map((x) => x.bpm)).toFixed(1)), offset: median(xs.map((x) => x.offset)) } : null
  }
  const [max, min] = [extreme((x) => x.maxHr), extreme((x) => x.minHr)]
  const beatsPerMin = meanHr ?? med(f.map((x) => (x.durationMs > 0 ? (60_000 * x.totalBeats) / x.durationMs : null)))
  const dominant = mostCommon(f.flatMap((x) => (x.rhythms.length ? [[...x.rhythms].sort((a, b) => b.totalMs - a.totalMs)[0].rhythm] : [])), (r) => r)
  const findings = mostCommon(f.map((x) => x.findings), (l) => l.join('|')) ?? []
  const sv = f.map((x) => x.supraventricular)
  const v = f.map((x) => x.ventricular)
  const pauses = count(f.map((x) => x.pauses))
  const share = (xs: ({ count: number; burdenPct: number | null } | undefined)[]) => ({ count: count(xs.map((x) => x?.count)), burdenPct: medTo(xs.map((x) => x?.burdenPct), 2) })
  const fixed = {
    excludedBeats: 0,
    excludedMs: 0,
    unclassifiable: share(f.map((x) => x.unclassifiable)),
    paced: share(f.map((x) => x.paced)),
    avgBeats: mostCommon(f.map((x) => x.avgBeats).filter((x) => typeof x === 'number'), String) ?? 8,
    meanHrBpm: meanHr,
    tachyPct: medTo(f.map((x) => x.tachyPct), 1),
    bradyPct: medTo(f.map((x) => x.bradyPct), 1),
    pauses,
    longestPauseMs: pauses ? medTo(f.map((x) => x.longestPauseMs), 0) : null,
    supraventricular: { count: count(sv.map((x) => x.count)), burdenPct: medTo(sv.map((x) => x.burdenPct), 2), singles: count(sv.map((x) => x.singles)), couplets: count(sv.map((x) => x.couplets)), runs: count(sv.map((x) => x.runs)) },
    ventricular: { count: count(v.map((x) => x.count)), burdenPct: medTo(v.map((x) => x.burdenPct), 2), singles: count(v.map((x) => x.singles)), couplets: count(v.map((x) => x.couplets)), runs: count(v.map((x) => x.runs)), bigeminy: count(v.map((x) => x.bigeminy)), trigeminy: count(v.map((x) => x.trigeminy)) },
    findings,
  }
  return (span) => {
    const durationMs = Math.max(0, span.endMs - span.startMs)
    const at = (x: { bpm: number; offset: number } | null) => (x ? { bpm: x.bpm, timeMs: Math.round(span.startMs + Math.min(durationMs, Math.max(0, x.offset))) } : null)
    return {
      ...fixed,
      durationMs,
      totalBeats: Math.round(((beatsPerMin ?? 0) * durationMs) / 60_000),
      maxHr: at(max),
      minHr: at(min),
      rhythms: dominant ? [{ rhythm: dominant, totalMs: durationMs }] : [],
    }
  }
}

/** The text of a report from figures, in the generators' sentences at a fixed seed. */
export function reportFromFigures(f: ReportFigures, kind: 'overview' | 'summary', seed: string): string {
  const rng = createSeededRandom(`${seed}:${kind}`)
  return kind === 'overview' ? overviewText(f, rng) : summaryText(f, rng)
}
