// The facts of synthetic records for the record-level question tests: excerpts that differ in
// findings (each keeps only some ectopic classes) and, every third one, atrial fibrillation going
// on from before it (boundary) or starting inside it.
import { excerptFacts, type ExcerptFacts, type RhythmSpan } from '../../src/qa/excerpt-facts.ts'
import type { Excerpted, QuestionOptions, RecordDraft } from '../../src/qa/record-questions.ts'
import { TASK_TYPES, type TaskType } from '../../src/holtercare/format.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import { syntheticRecord } from '../helpers/synthetic-beats.ts'

export const OPTIONS: QuestionOptions = { seed: '5', avgBeats: 8, marginBpm: 3, presenceMarginBpm: 5, maxList: 6, pairsPerEvent: 1000, minDiagnosisOptions: 3, vocabulary: DEFAULT_VOCABULARY }
export const ALL: ReadonlySet<string> = new Set(TASK_TYPES)

// Which ectopic classes an excerpt keeps (the others become N).
const KEEP = [[], ['V'], ['S'], ['S', 'V']]

/** The facts of `count` excerpts of `seconds` of a synthetic record. */
export function syntheticFacts(recordId: string, count = 24, seconds = 60): ExcerptFacts[] {
  return syntheticRecord(recordId, count, seconds).map((s, k) => {
    const fs = 360
    const keep: string[] = KEEP[k % 4]
    const beats = s.beats.map((b) => (b.label === 'N' || keep.includes(b.label) ? b : { ...b, label: 'N', symbol: 'N' }))
    const mid = (s.startSample + s.endSample) >> 1
    const rhythms: RhythmSpan[] = k % 3 !== 0 ? [] : k % 2
      ? [{ rhythm: 'AFIB', startSample: s.startSample - 100, startMs: s.startMs - 100_000 / fs, endSample: mid, endMs: (mid * 1000) / fs }]
      : [{ rhythm: 'AFIB', startSample: mid, startMs: (mid * 1000) / fs, endSample: Infinity, endMs: Infinity }]
    return excerptFacts({ excerpt: { id: `${recordId}:ex:q:${s.startSample}`, startSample: s.startSample, endSample: s.endSample, startMs: s.startMs, endMs: s.endMs, fs }, beats, rhythms, excludedBeats: 0, avgBeats: 8 }, DEFAULT_VOCABULARY)
  })
}

/** Every excerpt with the tasks `tasks(i)` gives it. */
export const withTasks = (facts: readonly ExcerptFacts[], tasks: (i: number) => ReadonlySet<string> = () => ALL): Excerpted[] => facts.map((f, i) => ({ facts: f, tasks: tasks(i) }))

/** Drafts by the design group they belong to, for groups starting with `prefix`. */
export function byGroup(drafts: readonly RecordDraft[], prefix: string): Map<string, RecordDraft[]> {
  const out = new Map<string, RecordDraft[]>()
  for (const d of drafts) {
    const g = d.draft.gold.design?.group
    if (g?.startsWith(prefix)) out.set(g, [...(out.get(g) ?? []), d])
  }
  return out
}

/** Whether an excerpt lacking a sustained rate is `margin` clear of its threshold (or has no such stretch at all). */
export function clearOfRate(f: ExcerptFacts, ev: string, margin: number): boolean {
  const s = f.sustainedRates.find((x) => x.event === ev)!
  return s.bpm === null || (s.above ? s.thresholdBpm - s.bpm : s.bpm - s.thresholdBpm) >= margin
}
