// The figures a Holter report states, computed over one excerpt's beats with summarize's own
// trackers (src/dsp/record-summary.ts): the report tasks' gold, and what their texts say.
import { createRecordSummary } from '../dsp/record-summary.ts'
import type { ExcerptFacts } from './excerpt-facts.ts'

export interface ReportFigures {
  durationMs: number
  totalBeats: number
  excludedBeats: number
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
  const s = createRecordSummary({ avgBeats })
  for (const b of facts.beats) {
    if (b.afterBreak) s.interrupt(b.timeMs)
    s.addBeat(b.label, b.timeMs)
  }
  for (const r of facts.rhythms) s.addRhythm(r.rhythm, r.startMs, r.endMs)
  const f = s.finish()
  const round = (x: { bpm: number; timeMs: number } | null) => (x ? { bpm: x.bpm, timeMs: Math.round(x.timeMs) } : null)
  return {
    durationMs: facts.endMs - facts.startMs,
    totalBeats: f.totalBeats,
    excludedBeats: facts.excludedBeats,
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
