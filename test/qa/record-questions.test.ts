// A record's questions (unit layer) on synthetic records: deterministic per seed, ordered by
// excerpt then task, yes/no pairs balanced per event, counting groups sharing one option set
// with four different right letters, letters of the closed tasks balanced, a task missing from
// an excerpt's set making no item, and one task's items independent of the others'.
import { describe, expect, it } from 'vitest'
import { countable, eventIn, excerptFacts, type ExcerptFacts, type RhythmSpan } from '../../src/qa/excerpt-facts.ts'
import { recordQuestions, type Excerpted, type QuestionOptions, type RecordDraft } from '../../src/qa/record-questions.ts'
import { TASKS_BY_TIER, TASK_TYPES, type TaskType } from '../../src/qa/holtercare-format.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import { syntheticRecord } from '../helpers/synthetic-beats.ts'

const OPTIONS: QuestionOptions = { seed: '5', avgBeats: 8, marginBpm: 3, maxList: 6, perExcerpt: 2, pairsPerEvent: 1000 }
const ALL = new Set(TASK_TYPES)

// Which ectopic classes an excerpt keeps (the others become N), so excerpts differ in findings.
const KEEP = [[], ['V'], ['S'], ['S', 'V']]

// The facts of `count` excerpts of a synthetic record; every third one gets rhythm episodes:
// fibrillation going on from before it (boundary) or starting inside it.
function record(recordId: string, count = 20, seconds = 60): ExcerptFacts[] {
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
const withTasks = (facts: ExcerptFacts[], tasks: (i: number) => ReadonlySet<TaskType> = () => ALL): Excerpted[] => facts.map((f, i) => ({ facts: f, tasks: tasks(i) }))
const byGroup = (drafts: RecordDraft[]) => {
  const out = new Map<string, RecordDraft[]>()
  for (const d of drafts) {
    const g = d.draft.gold.design?.group
    if (g) out.set(g, [...(out.get(g) ?? []), d])
  }
  return out
}

const RECORDS = ['r0', 'r1', 'r2', 'r3']
const facts = new Map(RECORDS.map((id) => [id, record(id)]))
const drafts = new Map(RECORDS.map((id) => [id, recordQuestions(id, withTasks(facts.get(id)!), OPTIONS)]))

describe('recordQuestions', () => {
  it('is deterministic for a seed and differs for another', () => {
    for (const id of RECORDS) {
      expect(recordQuestions(id, withTasks(facts.get(id)!), OPTIONS)).toEqual(drafts.get(id))
      expect(recordQuestions(id, withTasks(facts.get(id)!), { ...OPTIONS, seed: '6' })).not.toEqual(drafts.get(id))
    }
    // Streams are named by record too: the same facts under another record id give other items.
    expect(recordQuestions('other', withTasks(facts.get('r0')!), OPTIONS)).not.toEqual(drafts.get('r0'))
  })

  it('makes every task on these records, ordered by excerpt then task', () => {
    for (const id of RECORDS) {
      const d = drafts.get(id)!
      const key = (x: RecordDraft) => x.excerpt * 100 + TASK_TYPES.indexOf(x.draft.task)
      expect(d.map(key)).toEqual([...d.map(key)].sort((a, b) => a - b))
    }
    const tasks = new Set([...drafts.values()].flat().map((d) => d.draft.task))
    expect([...tasks].sort()).toEqual([...TASK_TYPES].sort())
  })

  it.each(['closed_presence', 'open_evidence_reasoning'] as const)('%s: pairs of one yes and one no, so yes = no per event', (task) => {
    for (const id of RECORDS) {
      const d = drafts.get(id)!.filter((x) => x.draft.task === task)
      expect(d.length).toBeGreaterThan(0)
      const tally = new Map<string, { yes: number; no: number }>()
      for (const x of d) {
        const t = tally.get(x.draft.gold.event!) ?? { yes: 0, no: 0 }
        t[x.draft.gold.value as 'yes' | 'no']++
        tally.set(x.draft.gold.event!, t)
        // The gold is the truth of the excerpt.
        expect(x.draft.gold.value).toBe(eventIn(facts.get(id)![x.excerpt], x.draft.gold.event!) ? 'yes' : 'no')
      }
      for (const t of tally.values()) expect(t.yes).toBe(t.no)
      for (const pair of byGroup(d).values()) {
        expect(pair.map((x) => x.draft.gold.value).sort()).toEqual(['no', 'yes'])
        expect(pair[0].excerpt).not.toBe(pair[1].excerpt)
        expect(pair[0].draft.options).toBe(pair[1].draft.options)
      }
    }
  })

  it('closed_event_counting: groups of 4 sharing one option set with 4 different right letters, from countable excerpts', () => {
    let groups = 0
    for (const id of RECORDS) {
      const d = drafts.get(id)!.filter((x) => x.draft.task === 'closed_event_counting')
      for (const g of byGroup(d).values()) {
        groups++
        expect(g).toHaveLength(4)
        expect(new Set(g.map((x) => x.draft.options)).size).toBe(1)
        expect(g.map((x) => x.draft.gold.correct).sort()).toEqual([0, 1, 2, 3])
        expect(new Set(g.map((x) => x.excerpt)).size).toBe(4)
        for (const x of g) {
          const f = facts.get(id)![x.excerpt]
          const ev = x.draft.gold.event!
          expect(countable(f, ev)).toBe(true)
          expect(x.draft.gold.value).toBe(eventIn(f, ev)?.occurrences.length ?? 0)
        }
      }
    }
    expect(groups).toBeGreaterThan(4)
  })

  it('closed_diagnosis: groups of 2-4 sharing one option set, each member\'s truth its own and the others not true of it', () => {
    for (const id of RECORDS) {
      const d = drafts.get(id)!.filter((x) => x.draft.task === 'closed_diagnosis')
      expect(d.length).toBeGreaterThan(0)
      for (const g of byGroup(d).values()) {
        expect(g.length).toBeGreaterThanOrEqual(2)
        expect(g.length).toBeLessThanOrEqual(4)
        expect(new Set(g.map((x) => x.draft.options)).size).toBe(1)
        expect(g.map((x) => x.draft.gold.correct).sort()).toEqual(Array.from({ length: g.length }, (_, i) => i))
        for (const x of g) {
          const { choices, correct, labels } = x.draft.gold
          expect(labels).toContain(choices![correct!])
          expect(choices!.filter((c, i) => i !== correct && labels!.includes(c))).toEqual([])
        }
      }
    }
  })

  it('timing items ask about events with their onsets in the excerpt, at most maxList of them and perExcerpt per excerpt', () => {
    for (const id of RECORDS) {
      const fx = facts.get(id)!
      for (const task of ['closed_event_timing', 'open_event_timing', 'open_event_counting'] as const) {
        const d = drafts.get(id)!.filter((x) => x.draft.task === task)
        for (const x of d) {
          const e = eventIn(fx[x.excerpt], x.draft.gold.event!)!
          expect(e.boundary).toBe(false)
          if (task !== 'open_event_counting') expect(e.occurrences.length).toBeLessThanOrEqual(OPTIONS.maxList)
        }
        const per = new Map<number, number>()
        for (const x of d) per.set(x.excerpt, (per.get(x.excerpt) ?? 0) + 1)
        expect(Math.max(0, ...per.values())).toBeLessThanOrEqual(OPTIONS.perExcerpt)
      }
      // Open extremum items only where the extreme is clear; at most one of each per excerpt.
      for (const task of ['closed_HR_extremum_timing', 'open_HR_extremum_timing'] as const) {
        const ex = drafts.get(id)!.filter((x) => x.draft.task === task).map((x) => x.excerpt)
        expect(new Set(ex).size).toBe(ex.length)
      }
    }
  })

  it('a task missing from an excerpt\'s set makes no item for it, and leaves the other tasks\' items as they were', () => {
    const fx = facts.get('r1')!
    const some = (i: number) => new Set(TASK_TYPES.filter((_, k) => (k + i) % 3 !== 0))
    const d = recordQuestions('r1', withTasks(fx, some), OPTIONS)
    expect(d.length).toBeGreaterThan(0)
    for (const x of d) expect(some(x.excerpt).has(x.draft.task)).toBe(true)
    expect(recordQuestions('r1', withTasks(fx, () => new Set()), OPTIONS)).toEqual([])
    // A task asked nowhere: the others' items are unchanged (each has its own seeded streams).
    const full = drafts.get('r1')!
    for (const task of TASK_TYPES) {
      const without = recordQuestions('r1', withTasks(fx, () => new Set(TASK_TYPES.filter((t) => t !== task))), OPTIONS)
      expect(without).toEqual(full.filter((x) => x.draft.task !== task))
    }
  })
})

describe('recordQuestions over many records', () => {
  // Letters of the closed tasks, by option count.
  const letters = new Map<string, number[]>()
  for (let k = 0; k < 16; k++) {
    const id = `bal${k}`
    for (const x of recordQuestions(id, withTasks(record(id, 24)), OPTIONS)) {
      const { correct, choices } = x.draft.gold
      if (correct === undefined) continue
      const key = `${x.draft.task}/${choices!.length}`
      const tally = letters.get(key) ?? Array(choices!.length).fill(0)
      tally[correct]++
      letters.set(key, tally)
    }
  }

  it.each(TASKS_BY_TIER['Closed-QA'])('%s: each letter right equally often, within a few percent', (task) => {
    const keys = [...letters.keys()].filter((k) => k.startsWith(`${task}/`))
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) {
      const tally = letters.get(key)!
      const total = tally.reduce((a, b) => a + b, 0)
      if (total < 40) continue
      for (const n of tally) expect(Math.abs(n / total - 1 / tally.length)).toBeLessThan(0.04)
    }
    const total = keys.reduce((s, k) => s + letters.get(k)!.reduce((a, b) => a + b, 0), 0)
    expect(total).toBeGreaterThan(40)
  })
})
