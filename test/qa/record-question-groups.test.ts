// The option sets of a record's closed items (unit layer): counting groups of four excerpts with
// four different counts (a 0 where an excerpt without the finding is one), diagnosis groups of
// three or four in the "which is present" and the "which is absent" form, each with exactly one
// option that fits; an excerpt stands for a missing sustained rate only clear of its threshold;
// and over many records, every letter of every closed task right about equally often.
import { describe, expect, it } from 'vitest'
import { countable, eventIn, type ExcerptFacts, type FactsBeat } from '../../src/qa/excerpt-facts.ts'
import { recordQuestions, type RecordDraft } from '../../src/qa/record-questions.ts'
import { diagnosisLabels } from '../../src/qa/diagnosis-labels.ts'
import { isRateEvent } from '../../src/qa/count-words.ts'
import { TASKS_BY_TIER, type TaskType } from '../../src/holtercare/format.ts'
import { ROLE_TASKS } from '../../src/qa/excerpt-roles.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import { ALL, OPTIONS, byGroup, clearOfRate, syntheticFacts, withTasks } from './synthetic-facts.ts'
import { FS, beatsOf, factsOf } from './hand-facts.ts'

const RECORDS = Array.from({ length: 8 }, (_, k) => `r${k}`)
const facts = new Map(RECORDS.map((id) => [id, syntheticFacts(id)]))
const only = (tasks: readonly string[]) => () => new Set(tasks)
const drafts = (tasks: () => ReadonlySet<string>) => [...facts].map(([id, fx]) => ({ fx, d: recordQuestions(id, withTasks(fx, tasks), OPTIONS).drafts }))
const TACHY = 'Sinus Tachycardia'

describe('closed_event_counting groups', () => {
  it.each([
    { name: 'every task', tasks: () => ALL, least: 0 },
    { name: 'counting only', tasks: only(ROLE_TASKS.count), least: 20 },
  ])('$name: 4 excerpts, one option set, 4 different right letters, the counts their truths', ({ tasks, least }) => {
    let groups = 0
    let absent = 0
    for (const { fx, d } of drafts(tasks)) {
      for (const g of byGroup(d, 'closed_event_counting:').values()) {
        groups++
        expect(g).toHaveLength(4)
        expect(new Set(g.map((x) => x.draft.options)).size).toBe(1)
        expect(g.map((x) => x.draft.gold.correct).sort()).toEqual([0, 1, 2, 3])
        expect(new Set(g.map((x) => x.excerpt)).size).toBe(4)
        const values = g[0].draft.gold.choices!.map(Number)
        expect(values).toEqual([...values].sort((a, b) => a - b))
        for (const x of g) {
          const f = fx[x.excerpt]
          const ev = x.draft.gold.event!
          expect(countable(f, ev)).toBe(true)
          expect(x.draft.gold.value).toBe(eventIn(f, ev)?.occurrences.length ?? 0)
          if (eventIn(f, ev)) continue
          absent++
          expect(values).toContain(0)
          if (isRateEvent(ev, DEFAULT_VOCABULARY)) expect(clearOfRate(f, ev, OPTIONS.presenceMarginBpm)).toBe(true)
        }
      }
    }
    expect(groups).toBeGreaterThan(least)
    if (least) expect(absent).toBeGreaterThan(least / 2)
  })
})

// Excerpts with three of four findings each (premature atrial and ventricular beats, atrial
// fibrillation and flutter), the one each lacks turning with k, so "which is absent" groups form.
function labelRich(count: number): ExcerptFacts[] {
  return Array.from({ length: count }, (_, k) => {
    const text = 'NNNNSNNNNNNNNVNNNNNNNNNNNNNNNN'.replace(k % 4 === 0 ? 'S' : k % 4 === 1 ? 'V' : '-', 'N')
    const beats = beatsOf(text, 10_000 + 100_000 * k, `rich${k}`)
    const span = (rhythm: string, a: number, b: number) => ({ rhythm, startSample: beats[a].sample, startMs: beats[a].timeMs, endSample: beats[b].sample, endMs: beats[b].timeMs })
    return factsOf(beats, [...(k % 4 === 2 ? [] : [span('AFIB', 6, 10)]), ...(k % 4 === 3 ? [] : [span('AFL', 18, 25)])])
  })
}

describe('closed_diagnosis groups', () => {
  const rich = labelRich(16)
  const runs = [
    ...drafts(() => ALL),
    ...drafts(only(ROLE_TASKS.diagnosis)),
    ...['a', 'b', 'c', 'd', 'e', 'f'].map((seed) => ({ fx: rich, d: recordQuestions('rich', withTasks(rich, only(ROLE_TASKS.diagnosis)), { ...OPTIONS, seed }).drafts })),
  ]
  it('3 or 4 excerpts sharing the options, one answer each; present form: one option among the labels; absent form: one not among them', () => {
    const forms = new Map<string, number>()
    for (const { fx, d } of runs) {
      for (const [group, g] of byGroup(d, 'closed_diagnosis:')) {
        const form = group.split(':')[1]
        forms.set(form, (forms.get(form) ?? 0) + 1)
        expect([3, 4]).toContain(g.length)
        expect(new Set(g.map((x) => x.draft.options)).size).toBe(1)
        expect(g.map((x) => x.draft.gold.correct).sort()).toEqual(Array.from({ length: g.length }, (_, i) => i))
        for (const x of g) {
          const { choices, correct, labels } = x.draft.gold
          expect(x.draft.question).toMatch(form === 'absent' ? /absent|not contain|missing/ : /^(?!.*(absent|not contain|missing))/)
          expect(choices).toHaveLength(g.length)
          expect(labels).toEqual(diagnosisLabels(fx[x.excerpt]))
          const fits = choices!.filter((c) => (form === 'present' ? labels!.includes(c) : !labels!.includes(c)))
          expect(fits).toEqual([choices![correct!]])
        }
      }
    }
    expect(forms.get('present')).toBeGreaterThan(10)
    expect(forms.get('absent')).toBeGreaterThan(1)
  })
})

describe('sustained rates in pairs', () => {
  // Beats at `bpm` for each stretch of seconds, from `fromMs`.
  // With `lengthMs`, the excerpt spans that long from 1 s before `fromMs` (groups take excerpts of one length).
  const rateExcerpt = (fromMs: number, stretches: [number, number][], lengthMs?: number) => {
    const beats: FactsBeat[] = []
    let t = fromMs
    for (const [seconds, bpm] of stretches) for (const end = t + seconds * 1000; t < end; t += 60_000 / bpm) {
      const sample = Math.round((t / 1000) * FS)
      beats.push({ sample, timeMs: (sample * 1000) / FS, label: 'N' })
    }
    return factsOf(beats, [], lengthMs === undefined ? undefined : [fromMs - 1000, fromMs - 1000 + lengthMs])
  }
  const onset = rateExcerpt(10_000, [[20, 75], [40, 120]]) // tachycardia starting inside
  const near = rateExcerpt(100_000, [[60, 97]]) // 3 bpm under the threshold
  const clear = rateExcerpt(200_000, [[60, 75]])
  const asked = (fx: ExcerptFacts[], margin: number) => recordQuestions('rate', withTasks(fx, only(ROLE_TASKS.pair)), { ...OPTIONS, presenceMarginBpm: margin }).drafts
  const members = (d: RecordDraft[]) => [...new Set(d.map((x) => x.excerpt))].sort()

  it('an excerpt without the rate is its partner only when presenceMarginBpm clear of the threshold', () => {
    expect(eventIn(onset, TACHY)?.boundary).toBe(false)
    expect([near, clear].map((f) => eventIn(f, TACHY))).toEqual([null, null])
    expect(asked([onset, near], 5)).toEqual([])
    expect(members(asked([onset, near], 2))).toEqual([0, 1])
    expect(members(asked([onset, near, clear], 5))).toEqual([0, 2])
    const d = asked([near, onset, clear], 5)
    expect(d.filter((x) => x.draft.task === 'closed_presence').map((x) => [x.excerpt, x.draft.gold.value])).toEqual([[1, 'yes'], [2, 'no']])
    // A sustained rate is counted, never timed.
    expect(d.filter((x) => x.draft.task === 'open_event_counting').map((x) => x.draft.gold.value)).toEqual([1, 0])
    expect(d.some((x) => x.draft.task === 'open_event_timing')).toBe(false)
  })

  it('a counting group takes its 0 from an excerpt clear of the threshold only', () => {
    const L = 200_000
    const episodes = (n: number) => rateExcerpt(400_000 * (n + 1), Array.from({ length: n }, () => [[20, 75], [35, 120]] as [number, number][]).flat().concat([[20, 75]]), L)
    const counts = [1, 2, 3].map(episodes)
    expect(counts.map((f) => eventIn(f, TACHY)?.occurrences.length)).toEqual([1, 2, 3])
    const nearL = rateExcerpt(100_000, [[185, 97]], L)
    const clearL = rateExcerpt(2_000_000, [[185, 75]], L)
    const counted = (fx: ExcerptFacts[]) => recordQuestions('rate', withTasks(fx, only(ROLE_TASKS.count)), OPTIONS).drafts.filter((x) => x.draft.gold.event === TACHY)
    expect(counted([nearL, ...counts])).toEqual([])
    // An excerpt of another length is no member either: its span would tell its count.
    expect(counted([clear, ...counts])).toEqual([])
    const d = counted([nearL, ...counts, clearL])
    expect(d.map((x) => [x.excerpt, x.draft.gold.value])).toEqual([[1, 1], [2, 2], [3, 3], [4, 0]])
  })

  it('on synthetic records, every excerpt standing for a missing rate is clear of it', () => {
    let checked = 0
    for (const { fx, d } of drafts(only(ROLE_TASKS.pair))) {
      for (const x of d) {
        const ev = x.draft.gold.event!
        if (!isRateEvent(ev, DEFAULT_VOCABULARY) || eventIn(fx[x.excerpt], ev)) continue
        checked++
        expect(clearOfRate(fx[x.excerpt], ev, OPTIONS.presenceMarginBpm)).toBe(true)
      }
    }
    expect(checked).toBeGreaterThan(5)
  })
})

describe('letters of the closed tasks over many records', () => {
  // Tallies of the right letter per task and option count, over enough records for 60 items of
  // the rarest closed task (the extremum: its block drawn about one time in ten, its decoy draw often dropped).
  const letters = new Map<string, number[]>()
  for (let k = 0; k < 112; k++) {
    const id = `bal${k}`
    for (const x of recordQuestions(id, withTasks(syntheticFacts(id)), OPTIONS).drafts) {
      const { correct, choices } = x.draft.gold
      if (correct === undefined) continue
      const key = `${x.draft.task}/${choices!.length}`
      const tally = letters.get(key) ?? Array<number>(choices!.length).fill(0)
      tally[correct]++
      letters.set(key, tally)
    }
  }
  // Groups and pairs give every letter exactly as often; decoy draws only in expectation (3.3
  // standard errors either side, about one in a thousand by chance).
  const EXACT = new Set(['closed_presence', 'closed_event_counting', 'closed_diagnosis'])

  it.each(TASKS_BY_TIER['Closed-QA'])('%s', (task) => {
    const keys = [...letters.keys()].filter((k) => k.startsWith(`${task}/`))
    expect(keys.length).toBeGreaterThan(0)
    let total = 0
    for (const key of keys) {
      const tally = letters.get(key)!
      const n = tally.reduce((a, b) => a + b, 0)
      total += n
      const p = 1 / tally.length
      if (EXACT.has(task)) expect(new Set(tally).size).toBe(1)
      else for (const c of tally) expect(Math.abs(c / n - p)).toBeLessThan(3.3 * Math.sqrt((p * (1 - p)) / n))
    }
    expect(total).toBeGreaterThan(60)
  })
})
