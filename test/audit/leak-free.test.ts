// The closed tasks' options carry no signal a blind answerer can use (issue 13, "Leak-free
// distractors"): over thousands of items made by the qa stage's own code from synthetic records
// of many kinds, every answerer of the audit (medoid, smallest, largest, longest, shortest, first
// and last letter, the train split's letter, yes/no and value priors, tightest and widest list)
// stays within chance + 5 points on every closed task, with at least 500 items each.
import { describe, expect, it } from 'vitest'
import type { ExcerptItem } from '../../src/core/items.ts'
import { excerptFacts } from '../../src/qa/excerpt-facts.ts'
import { recordQuestions } from '../../src/qa/record-questions.ts'
import { composeItem } from '../../src/qa/compose-item.ts'
import { publicElement } from '../../src/qa/export-layout.ts'
import { auditItems } from '../../src/audit/report.ts'
import { TASKS_BY_TIER, TASK_TYPES, type HoltercareItem } from '../../src/qa/holtercare-format.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import { syntheticRecord } from '../helpers/synthetic-beats.ts'

const OPTIONS = { seed: '3', avgBeats: 8, marginBpm: 3, maxList: 6, perExcerpt: 2, pairsPerEvent: 1000 }

function generate(records: number, split: 'train' | 'test'): HoltercareItem[] {
  const out: HoltercareItem[] = []
  for (let r = 0; r < records; r++) {
    const recordId = `${split}${r}`
    const spans = syntheticRecord(recordId, 30, 60)
    const excerpts = spans.map((s) => {
      const ex: ExcerptItem = { kind: 'excerpt', id: `${recordId}:ex:q:${s.startSample}`, recordId, set: 'q', startSample: s.startSample, endSample: s.endSample, startMs: s.startMs, endMs: s.endMs, fs: 360, reason: { rule: 'test' } }
      return { ex, facts: excerptFacts({ excerpt: ex, beats: s.beats, rhythms: [], excludedBeats: 0, avgBeats: 8 }, DEFAULT_VOCABULARY) }
    })
    const drafts = recordQuestions(recordId, excerpts.map((e) => ({ facts: e.facts, tasks: new Set(TASK_TYPES) })), OPTIONS)
    drafts.forEach(({ excerpt, draft }, k) => {
      const item = composeItem({ id: `${excerpts[excerpt].ex.id}:${draft.task}:${k}`, ex: excerpts[excerpt].ex, draft, patient: { age: 40 + (r % 40), sex: r % 2 ? 'M' : 'F' }, caseId: recordId, split, inputs: {}, renderIds: [], seed: '3' })
      out.push(publicElement(item))
    })
  }
  return out
}

describe('closed options are leak-free', () => {
  const train = generate(40, 'train')
  const test = generate(400, 'test')
  const report = auditItems(test.map((item) => ({ split: 'test', item })), train)

  it.each(TASKS_BY_TIER['Closed-QA'])('%s: at least 500 items, every blind answerer within chance + 5 points', (task) => {
    const t = report.closed.find((c) => c.task === task)!
    expect(t.items).toBeGreaterThanOrEqual(500)
    expect(t.unparsed).toBe(0)
    const over = t.answerers.filter((a) => a.items >= 100 && a.marginPoints > 5).map((a) => `${a.answerer} ${(100 * a.accuracy).toFixed(1)}% vs ${(100 * a.chance).toFixed(1)}% on ${a.items}`)
    expect(over).toEqual([])
  })
})
