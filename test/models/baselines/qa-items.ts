// QA items for the baseline tests, made by the generator's own code (as test/qa/leak-free.test.ts
// does): synthetic records (test/helpers/synthetic-beats.ts) cut into excerpts, every task asked,
// every fourth excerpt keeping only some ectopic classes and every third given a rhythm episode of
// one of the vocabulary's rhythm sources (from before the excerpt, or starting inside it), so the
// items name rhythm events too. Each item comes with the facts its gold was computed from.
import type { ExcerptItem, QaItem } from '../../../src/core/items.ts'
import { excerptFacts, type ExcerptFacts, type RhythmSpan } from '../../../src/qa/excerpt-facts.ts'
import { recordQuestions } from '../../../src/qa/record-questions.ts'
import { composeItem } from '../../../src/qa/compose-item.ts'
import { TASK_TYPES } from '../../../src/holtercare/format.ts'
import { DEFAULT_VOCABULARY } from '../../../src/qa/vocabulary.ts'
import type { BaselineContext } from '../../../src/models/model.ts'
import { syntheticRecord } from '../../helpers/synthetic-beats.ts'

const FS = 360
const OPTIONS = { seed: '7', avgBeats: 8, marginBpm: 3, presenceMarginBpm: 5, maxList: 6, pairsPerEvent: 1000, minDiagnosisOptions: 3, vocabulary: DEFAULT_VOCABULARY }
const KEEP = [['S', 'V'], ['V'], ['S'], []]
// Every rhythm the default vocabulary takes as a source.
const RHYTHMS = DEFAULT_VOCABULARY.flatMap((e) => ('rhythm' in e.source ? [e.source.rhythm[0]] : []))

export interface Generated {
  items: QaItem[]
  /** The facts of each item's excerpt, by excerpt id. */
  facts: Map<string, ExcerptFacts>
}

/** Items of `records` synthetic records of `count` excerpts of `seconds` each, in `split`. */
export function generateItems(prefix: string, records: number, split: QaItem['split'], count = 30, seconds = 60): Generated {
  const items: QaItem[] = []
  const facts = new Map<string, ExcerptFacts>()
  for (let r = 0; r < records; r++) {
    const recordId = `${prefix}${r}`
    const excerpts = syntheticRecord(recordId, count, seconds).map((s, k) => {
      const keep = KEEP[k % 4]
      const beats = s.beats.map((b) => (b.label === 'N' || keep.includes(b.label) ? b : { ...b, label: 'N', symbol: 'N' }))
      const mid = (s.startSample + s.endSample) >> 1
      const rhythm = RHYTHMS[(r + k) % RHYTHMS.length]
      const rhythms: RhythmSpan[] = k % 3 !== 0 ? [] : k % 2
        ? [{ rhythm, startSample: s.startSample - 100, startMs: s.startMs - 100_000 / FS, endSample: mid, endMs: (mid * 1000) / FS }]
        : [{ rhythm, startSample: mid, startMs: (mid * 1000) / FS, endSample: Infinity, endMs: Infinity }]
      const ex: ExcerptItem = { kind: 'excerpt', id: `${recordId}:ex:q:${s.startSample}`, recordId, set: 'q', startSample: s.startSample, endSample: s.endSample, startMs: s.startMs, endMs: s.endMs, fs: FS, reason: { rule: 'test' } }
      const f = excerptFacts({ excerpt: ex, beats, rhythms, excludedBeats: 0, avgBeats: 8 }, DEFAULT_VOCABULARY)
      facts.set(ex.id, f)
      return { ex, facts: f }
    })
    const drafts = recordQuestions(recordId, excerpts.map((e) => ({ facts: e.facts, tasks: new Set(TASK_TYPES) })), OPTIONS).drafts
    drafts.forEach(({ excerpt, draft }, k) => {
      const patient = r % 3 === 2 ? { age: 50 } : { age: 40 + (r % 40), sex: r % 2 ? ('M' as const) : ('F' as const) }
      items.push(composeItem({ id: `${excerpts[excerpt].ex.id}:${draft.task}:${k}`, ex: excerpts[excerpt].ex, draft, patient, caseId: recordId, split, inputs: {}, renderIds: [], seed: '7' }))
    })
  }
  return { items, facts }
}

/** The context of an item: its excerpt's facts as the detector's (or none). */
export function contextOf(g: Generated | null, item: QaItem): BaselineContext {
  return { detectorFacts: g ? (g.facts.get(item.excerpt.id) ?? null) : null, vocabulary: DEFAULT_VOCABULARY, avgBeats: 8 }
}

/** The same item with its answer and gold blanked. */
export function blanked(item: QaItem): QaItem {
  return { ...item, answer: '', gold: { evidenceBeats: [] } }
}

/** The item behind a proxy that throws when its answer or gold is read. */
export function sealed(item: QaItem): QaItem {
  return new Proxy(item, {
    get(target, prop, receiver) {
      if (prop === 'answer' || prop === 'gold') throw new Error(`a baseline read item.${String(prop)}`)
      return Reflect.get(target, prop, receiver)
    },
  })
}

/** The option index of a closed answer "B. text", or -1. */
export function letterOf(answer: string): number {
  const m = /^([A-F])\. /.exec(answer)
  return m ? 'ABCDEF'.indexOf(m[1]) : -1
}

/** Whether an item has inline options (gold.choices). */
export const hasOptions = (q: QaItem) => q.gold.choices !== undefined
