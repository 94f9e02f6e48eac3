// A record's questions (unit layer) on synthetic records: deterministic per seed, ordered by
// excerpt then task; every excerpt hosts one block at most (its questions about a finding are
// about one event and of one block's tasks, never beside the extremum items); a pair is one
// excerpt with the finding and one without, asked the same tasks, open counts and times 0 / none
// on the one without; sustained rates and rhythms are never timed; a task missing from an
// excerpt's set makes no item. The groups' option sets: record-question-groups.test.ts.
import { describe, expect, it } from 'vitest'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import { eventIn } from '../../src/qa/excerpt-facts.ts'
import { recordQuestions, type RecordDraft } from '../../src/qa/record-questions.ts'
import { ROLE_TASKS, type Role } from '../../src/qa/excerpt-roles.ts'
import { hrExtreme } from '../../src/qa/hr-extreme.ts'
import { isRateEvent } from '../../src/qa/count-words.ts'
import { TASK_TYPES, type TaskType } from '../../src/holtercare/format.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import { ALL, OPTIONS, byGroup, syntheticFacts, withTasks } from './synthetic-facts.ts'

const BLOCK = new Map(Object.entries(ROLE_TASKS).flatMap(([role, tasks]) => tasks.map((t) => [t, role as Role])))
const FINDING = new Set<string>([...ROLE_TASKS.pair, ...ROLE_TASKS.count, ...ROLE_TASKS.timing, ...ROLE_TASKS.diagnosis])
const RATE = (ev: string) => isRateEvent(ev, DEFAULT_VOCABULARY)

// Each excerpt asks a seeded two thirds of the block tasks (and every other task).
const someTasks = (recordId: string) => (i: number) => {
  const rng = createSeededRandom(`tasks:${recordId}:${i}`)
  return new Set<string>(TASK_TYPES.filter((t) => !BLOCK.has(t) || rng.below(3) > 0))
}
const byExcerpt = (drafts: readonly RecordDraft[]) => {
  const out = new Map<number, RecordDraft[]>()
  for (const d of drafts) out.set(d.excerpt, [...(out.get(d.excerpt) ?? []), d])
  return out
}

// Enough records that, with a third of the block tasks left out, every block is still hosted:
// a counting group needs four excerpts of the counting role with four different counts.
const RECORDS = Array.from({ length: 24 }, (_, k) => `r${k}`)
const facts = new Map(RECORDS.map((id) => [id, syntheticFacts(id)]))
const PAIR_ONLY = new Set<string>(ROLE_TASKS.pair)
const run = (name: string, tasks: (id: string) => (i: number) => ReadonlySet<string>) => ({ name, drafts: new Map(RECORDS.map((id) => [id, recordQuestions(id, withTasks(facts.get(id)!, tasks(id)), OPTIONS).drafts])) })
const runs = [run('every task', () => () => ALL), run('seeded task subsets', someTasks)]
const pairOnly = run('pair tasks only', () => () => PAIR_ONLY)
const full = runs[0].drafts

describe('recordQuestions', () => {
  it('is deterministic for a seed and differs for another seed or record', () => {
    for (const id of RECORDS.slice(0, 3)) {
      expect(recordQuestions(id, withTasks(facts.get(id)!), OPTIONS).drafts).toEqual(full.get(id))
      expect(recordQuestions(id, withTasks(facts.get(id)!), { ...OPTIONS, seed: '6' }).drafts).not.toEqual(full.get(id))
    }
    expect(recordQuestions('other', withTasks(facts.get('r0')!), OPTIONS).drafts).not.toEqual(full.get('r0'))
  })

  it('makes every task on these records, ordered by excerpt then task', () => {
    for (const d of full.values()) {
      const key = (x: RecordDraft) => x.excerpt * 100 + (TASK_TYPES as readonly string[]).indexOf(x.draft.task)
      expect(d.map(key)).toEqual([...d.map(key)].sort((a, b) => a - b))
    }
    expect(new Set([...full.values()].flat().map((d) => d.draft.task))).toEqual(ALL)
  })

  it.each(runs)('$name: an excerpt hosts one block at most, about one event at most, never beside the extremum items', ({ drafts }) => {
    const hosting = new Map<Role, number>()
    for (const d of drafts.values()) {
      for (const items of byExcerpt(d).values()) {
        const blocks = new Set(items.flatMap((x) => (BLOCK.has(x.draft.task) ? [BLOCK.get(x.draft.task)!] : [])))
        expect(blocks.size).toBeLessThanOrEqual(1)
        for (const b of blocks) hosting.set(b, (hosting.get(b) ?? 0) + 1)
        expect(new Set(items.filter((x) => FINDING.has(x.draft.task)).map((x) => x.draft.gold.event).filter(Boolean)).size).toBeLessThanOrEqual(1)
        // Every excerpt is asked its open diagnosis and reports whatever block it hosts.
        expect(items.filter((x) => !BLOCK.has(x.draft.task)).map((x) => x.draft.task)).toEqual(['open_diagnosis', 'report_statistical_overview', 'report_general_summary'])
      }
    }
    for (const role of Object.keys(ROLE_TASKS) as Role[]) expect(hosting.get(role) ?? 0).toBeGreaterThan(3)
  })

  it.each([...runs, pairOnly])('$name: a pair is one excerpt with the finding and one without, asked the same tasks', ({ drafts }) => {
    let pairs = 0
    for (const [id, d] of drafts) {
      const fx = facts.get(id)!
      const ex = byExcerpt(d)
      const asked = (i: number) => ex.get(i)!.filter((x) => FINDING.has(x.draft.task)).map((x) => x.draft.task).sort().join()
      for (const [group, items] of byGroup(d, 'pair:')) {
        const ev = group.split(':')[1]
        const members = [...new Set(items.map((x) => x.excerpt))]
        expect(members).toHaveLength(2)
        const present = members.map((i) => eventIn(fx[i], ev))
        expect(present.filter((e) => e !== null && !e.boundary)).toHaveLength(1)
        expect(present.filter((e) => e === null)).toHaveLength(1)
        expect(asked(members[0])).toBe(asked(members[1]))
        pairs++
      }
      // With or without a group to tell the pair: per finding and set of tasks asked, as many excerpts with it as without.
      const tally = new Map<string, number>()
      for (const items of ex.values()) {
        const block = items.filter((x) => BLOCK.get(x.draft.task) === 'pair')
        if (!block.length) continue
        const key = `${block[0].draft.gold.event}|${block.map((x) => x.draft.task).join()}`
        tally.set(key, (tally.get(key) ?? 0) + (eventIn(fx[block[0].excerpt], block[0].draft.gold.event!) ? 1 : -1))
        for (const x of block) {
          const e = eventIn(fx[x.excerpt], x.draft.gold.event!)
          if (x.draft.task === 'open_event_counting') expect(x.draft.gold.value).toBe(e?.occurrences.length ?? 0)
          if (x.draft.task === 'open_event_timing') expect(x.draft.gold).toMatchObject({ value: e?.occurrences.length ?? 0, timestampsMs: e?.occurrences.map((o) => o.timeMs) ?? [] })
          if (!e && x.draft.task === 'open_event_timing') expect(x.draft.answer).not.toMatch(/\d/)
        }
      }
      for (const n of tally.values()) expect(n).toBe(0)
    }
    expect(pairs).toBeGreaterThan(20)
  })

  it('times beat events that occur once (closed) or up to maxList times (open), never a sustained rate or a rhythm', () => {
    const rateAsked = new Set<string>()
    for (const [id, d] of [...full, ...pairOnly.drafts]) {
      const fx = facts.get(id)!
      for (const x of d) {
        const ev = x.draft.gold.event
        if (ev && RATE(ev) && BLOCK.get(x.draft.task) === 'pair') rateAsked.add(x.draft.gold.value === 'no' || x.draft.gold.value === 0 ? 'absent' : 'present')
        if (x.draft.task !== 'closed_event_timing' && x.draft.task !== 'open_event_timing') continue
        expect(RATE(ev!)).toBe(false)
        const e = eventIn(fx[x.excerpt], ev!)
        expect(e?.kind).not.toBe('rhythm')
        if (!e) continue
        expect(e.boundary).toBe(false)
        if (x.draft.task === 'open_event_timing') expect(e.occurrences.length).toBeLessThanOrEqual(OPTIONS.maxList)
        else {
          expect(e.occurrences).toHaveLength(1)
          expect(x.draft.gold.choices![x.draft.gold.correct!]).toBe(String(e.occurrences[0].timeMs))
        }
      }
    }
    // Sustained rates are asked about, present and absent, just not timed.
    expect([...rateAsked].sort()).toEqual(['absent', 'present'])
  })

  it('extremum items: one of each per excerpt at most, the truth the excerpt\'s extreme, the open one only where it is clear', () => {
    let n = 0
    for (const [id, d] of full) {
      for (const task of ['closed_HR_extremum_timing', 'open_HR_extremum_timing'] as const) {
        const items = d.filter((x) => x.draft.task === task)
        expect(new Set(items.map((x) => x.excerpt)).size).toBe(items.length)
        for (const x of items) {
          const { extremum, basis, value } = x.draft.gold
          const xt = hrExtreme(facts.get(id)![x.excerpt], extremum!, basis!, OPTIONS.marginBpm)!
          expect(xt.timeMs).toBe(value)
          if (task === 'open_HR_extremum_timing') expect(xt.clear).toBe(true)
          n++
        }
      }
    }
    expect(n).toBeGreaterThan(10)
  })

  it('a task missing from an excerpt\'s set makes no item of it there; dropping a task asked of every excerpt leaves the rest', () => {
    for (const id of RECORDS) {
      const some = someTasks(id)
      for (const x of runs[1].drafts.get(id)!) expect(some(x.excerpt).has(x.draft.task)).toBe(true)
    }
    expect(recordQuestions('r1', withTasks(facts.get('r1')!, () => new Set()), OPTIONS).drafts).toEqual([])
    // Open diagnosis and the reports are drawn from streams of their own, outside every block.
    for (const task of ['open_diagnosis', 'report_statistical_overview', 'report_general_summary'] as const) {
      const without = recordQuestions('r1', withTasks(facts.get('r1')!, () => new Set(TASK_TYPES.filter((t) => t !== task))), OPTIONS).drafts
      expect(without).toEqual(full.get('r1')!.filter((x) => x.draft.task !== task))
    }
  })
})
