// The figures a Holter report states, computed over one excerpt's beats with summarize's own
// trackers (src/dsp/record-summary.ts): the report tasks' gold, and what their texts say. Every
// beat the reference annotates is counted; only the stretches it marks unreadable, and gaps,
// are left out (`excludedBeats`, `excludedMs`). The rates are those of src/dsp/hr-stats.ts: the
// mean and the extremes of the `avgBeats`-interval average of every beat, so min <= mean <= max.
import { createRecordSummary } from '../dsp/record-summary.ts'
import type { ExcerptFacts } from './excerpt-facts.ts'

export interface ReportFigures {
  durationMs: number
  totalBeats: number
  excludedBeats: number
  /** Time left out as unreadable (artifact periods), ms. */
  excludedMs: number
  /** Beats the reference could not classify (MIT Q or ?; a detector beat: AAMI Q), and their share of the beats. */
  unclassifiable: { count: number; burdenPct: number | null }
  /** Paced beats and fusions of paced and normal beats (MIT / and f, which AAMI also puts in Q). */
  paced: { count: number; burdenPct: number | null }
  /** Intervals the rates are averaged over (the texts name the definition). */
  avgBeats: number
  meanHrBpm: number | null
  maxHr: { bpm: number; timeMs: number } | null
  minHr: { bpm: number; timeMs: number } | null
  tachyPct: number | null
  bradyPct: number | null
  pauses: number
  longestPauseMs: number | null
  supraventricular: { count: number; burdenPct: number | null; singles: number; couplets: number; runs: number }
  ventricular: { count: number; burdenPct: number | null; singles: number; couplets: number; runs: number; bigeminy: number; trigeminy: number }
  rhythms: { rhythm: string; totalMs: number }[]
  findings: string[]
}

/** The report figures of an excerpt, with the averaging summarize uses. */
export function reportFigures(facts: ExcerptFacts, avgBeats: number): ReportFigures {
  const s = createRecordSummary({ avgBeats, fs: facts.fs })
  for (const b of facts.beats) {
    if (b.afterBreak) s.interrupt(b.timeMs)
    s.addBeat(b)
  }
  for (const r of facts.rhythms) s.addRhythm(r.rhythm, r.startMs, r.endMs)
  const f = s.finish()
  const round = (x: { bpm: number; timeMs: number } | null) => (x ? { bpm: x.bpm, timeMs: Math.round(x.timeMs) } : null)
  const share = (n: number) => ({ count: n, burdenPct: f.totalBeats > 0 ? Math.round((10_000 * n) / f.totalBeats) / 100 : null })
  const count = (symbols: string[]) => facts.beats.filter((b) => (b.symbol !== undefined ? symbols.includes(b.symbol) : symbols.includes('Q') && b.label === 'Q')).length
  return {
    durationMs: facts.endMs - facts.startMs,
    totalBeats: f.totalBeats,
    excludedBeats: facts.excludedBeats,
    excludedMs: Math.round(facts.excludedMs),
    unclassifiable: share(count(['Q', '?'])),
    paced: share(count(['/', 'f'])),
    avgBeats,
    meanHrBpm: f.hr.meanHrBpm,
    maxHr: round(f.hr.maxHr),
    minHr: round(f.hr.minHr),
    tachyPct: f.hr.tachyPct,
    bradyPct: f.hr.bradyPct,
    pauses: f.hr.pauses.count,
    longestPauseMs: f.hr.pauses.longestMs,
    supraventricular: { count: f.supraventricular.count, burdenPct: f.supraventricular.burdenPct, singles: f.supraventricular.singles, couplets: f.supraventricular.couplets, runs: f.supraventricular.runs },
    ventricular: { count: f.ventricular.count, burdenPct: f.ventricular.burdenPct, singles: f.ventricular.singles, couplets: f.ventricular.couplets, runs: f.ventricular.runs, bigeminy: f.ventricular.bigeminy.episodes, trigeminy: f.ventricular.trigeminy.episodes },
    rhythms: f.rhythms.map((r) => ({ rhythm: r.rhythm, totalMs: r.totalMs })),
    findings: facts.events.map((e) => e.name),
  }
}
