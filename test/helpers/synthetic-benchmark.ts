// A benchmark of synthetic records in the public format, made by the qa stage's own pure code
// (facts, questions, composed items), for the audit's tests and bench/qa-leaks.ts: each record
// 30 one-minute excerpts of test/helpers/synthetic-beats.ts, every task asked.
import type { ExcerptItem } from '../../src/core/items.ts'
import { excerptFacts } from '../../src/qa/excerpt-facts.ts'
import { recordQuestions } from '../../src/qa/record-questions.ts'
import { composeItem } from '../../src/qa/compose-item.ts'
import { publicElement } from '../../src/holtercare/layout.ts'
import { TASK_TYPES, type HoltercareItem } from '../../src/holtercare/format.ts'
import type { Split } from '../../src/qa/splits.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import { syntheticRecord } from './synthetic-beats.ts'

const OPTIONS = { seed: '3', avgBeats: 8, marginBpm: 3, presenceMarginBpm: 5, maxList: 6, pairsPerEvent: 1000, minDiagnosisOptions: 3, vocabulary: DEFAULT_VOCABULARY }

/** The public elements of `records` synthetic records, tagged `split`. */
export function syntheticBenchmark(records: number, split: Split): { split: string; item: HoltercareItem }[] {
  const out: { split: string; item: HoltercareItem }[] = []
  for (let r = 0; r < records; r++) {
    const recordId = `${split}${r}`
    const excerpts = syntheticRecord(recordId, 30, 60).map((s) => {
      const ex: ExcerptItem = { kind: 'excerpt', id: `${recordId}:ex:q:${s.startSample}`, recordId, set: 'q', startSample: s.startSample, endSample: s.endSample, startMs: s.startMs, endMs: s.endMs, fs: 360, reason: { rule: 'test' } }
      return { ex, facts: excerptFacts({ excerpt: ex, beats: s.beats, rhythms: [], excludedBeats: 0, avgBeats: 8 }, DEFAULT_VOCABULARY) }
    })
    const drafts = recordQuestions(recordId, excerpts.map((e) => ({ facts: e.facts, tasks: new Set(TASK_TYPES) })), OPTIONS).drafts
    drafts.forEach(({ excerpt, draft }, k) => {
      const item = composeItem({ id: `${excerpts[excerpt].ex.id}:${draft.task}:${k}`, ex: excerpts[excerpt].ex, draft, patient: { age: 40 + (r % 40), sex: r % 2 ? 'M' : 'F' }, caseId: recordId, split, inputs: {}, renderIds: [], seed: '3' })
      out.push({ split, item: publicElement(item) })
    })
  }
  return out
}
