// The report-level statistics of one record from its labelled beats and rhythm episodes (pure,
// incremental): what a Holter report states and what the QA generator asks about. Combines the
// heart-rate tracker (hr-stats.ts: every beat counts toward the rates) and the ectopy trackers
// (ectopy.ts).
import { createHrTracker, type HrOptions, type HrStats } from './hr-stats.ts'
import { createGeminyTracker, createRunTracker, type GeminyStats, type RunStats } from './ectopy.ts'
import type { QualityItem } from '../core/items.ts'

export interface RecordSummaryStats {
  totalBeats: number
  /** Beats in artifact periods, left out of every figure here. */
  excludedBeats: number
  beatsByClass: Record<string, number>
  hr: HrStats
  supraventricular: { count: number; burdenPct: number | null } & RunStats
  ventricular: { count: number; burdenPct: number | null; bigeminy: GeminyStats; trigeminy: GeminyStats } & RunStats
  rhythms: { rhythm: string; episodes: number; totalMs: number; firstStartsMs: number[] }[]
}

/** A beat as the summary takes it: its AAMI label, its time and, for sample-exact rates, its sample. */
export interface SummaryBeat {
  label: string
  timeMs: number
  sample?: number
}

/** Feeds AAMI-labelled beats (N, S, V, F, Q) and rhythm episodes in time order. */
export function createRecordSummary(options: Partial<HrOptions> = {}) {
  const cap = options.cap ?? 100
  const hr = createHrTracker(options)
  const sRuns = createRunTracker('S', cap)
  const vRuns = createRunTracker('V', cap)
  const bigeminy = createGeminyTracker(2, 'V', 3, cap)
  const trigeminy = createGeminyTracker(3, 'V', 3, cap)
  const byClass: Record<string, number> = {}
  const rhythms = new Map<string, { episodes: number; totalMs: number; firstStartsMs: number[] }>()
  let total = 0
  let excluded = 0
  const interrupt = (timeMs: number): void => {
    hr.interrupt()
    for (const t of [sRuns, vRuns, bigeminy, trigeminy]) t.add('Q', timeMs)
  }
  return {
    /** A beat (its sample is needed when the summary was made with `fs`); `artifact` beats (in a window the quality stage flagged) are counted apart and break every interval and pattern. */
    addBeat(beat: SummaryBeat, artifact = false): void {
      const { label, timeMs } = beat
      if (artifact) {
        excluded++
        interrupt(timeMs)
        return
      }
      total++
      byClass[label] = (byClass[label] ?? 0) + 1
      hr.add(timeMs, beat.sample)
      sRuns.add(label, timeMs)
      vRuns.add(label, timeMs)
      bigeminy.add(label, timeMs)
      trigeminy.add(label, timeMs)
    },
    /** An artifact period ends here: no interval, run or pattern continues across it. */
    interrupt,
    addRhythm(rhythm: string, startMs: number, endMs: number): void {
      const r = rhythms.get(rhythm) ?? { episodes: 0, totalMs: 0, firstStartsMs: [] }
      r.episodes++
      r.totalMs += Math.max(0, endMs - startMs)
      if (r.firstStartsMs.length < cap) r.firstStartsMs.push(startMs)
      rhythms.set(rhythm, r)
    },
    finish(): RecordSummaryStats {
      const burden = (n: number) => (total > 0 ? Math.round((10_000 * n) / total) / 100 : null)
      const s = byClass.S ?? 0
      const v = byClass.V ?? 0
      return {
        totalBeats: total,
        excludedBeats: excluded,
        beatsByClass: byClass,
        hr: hr.finish(),
        supraventricular: { count: s, burdenPct: burden(s), ...sRuns.finish() },
        ventricular: { count: v, burdenPct: burden(v), ...vRuns.finish(), bigeminy: bigeminy.finish(), trigeminy: trigeminy.finish() },
        rhythms: [...rhythms].map(([rhythm, r]) => ({ rhythm, ...r, totalMs: Math.round(r.totalMs) })),
      }
    },
  }
}

/** Flagged time and windows per flag of one lead, over the quality windows of a record. */
export interface LeadFlaggedTime {
  flaggedMs: number
  invalid: number
  flat: number
  saturated: number
  noisy: number
}

/**
 * Tallies the quality stage's windows per lead. Leads are told apart by index, as two may share a
 * label (PhysioNet SVDB 800: both "ECG"); the result is keyed by label, which stays readable, or
 * by `label#index` for each lead whose label another lead has too.
 */
export function createFlaggedTime() {
  const leads = new Map<string, { index: number; label: string; f: LeadFlaggedTime }>()
  return {
    add(q: Pick<QualityItem, 'startMs' | 'endMs' | 'leads'>): void {
      for (const [k, l] of q.leads.entries()) {
        const index = l.index ?? k
        const key = `${index}\n${l.label}`
        const entry = leads.get(key) ?? { index, label: l.label, f: { flaggedMs: 0, invalid: 0, flat: 0, saturated: 0, noisy: 0 } }
        if (l.flags.length) entry.f.flaggedMs += q.endMs - q.startMs
        for (const flag of l.flags) entry.f[flag]++
        leads.set(key, entry)
      }
    },
    finish(): Record<string, LeadFlaggedTime> {
      const uses = new Map<string, number>()
      for (const { label } of leads.values()) uses.set(label, (uses.get(label) ?? 0) + 1)
      return Object.fromEntries([...leads.values()].map(({ index, label, f }) => [uses.get(label)! > 1 ? `${label}#${index}` : label, f]))
    },
  }
}
