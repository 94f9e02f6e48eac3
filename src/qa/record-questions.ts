// A record's questions from the facts of its excerpts (pure). Each excerpt hosts one block of
// questions chosen by what it holds (excerpt-roles.ts: a present/absent pair about one finding,
// a counting group, a timing item, a diagnosis group), so no question gives another away, plus
// the questions asked of every excerpt whatever it holds (open diagnosis, heart-rate extremes,
// reports). Closed options are balanced across the record's excerpts (option-groups.ts) or drawn
// exchangeable with the truth (decoy-beats.ts). Random choices come from seeded streams named
// by record and purpose, so a rerun gives the same items and one task's draws do not move
// another's.
import { createSeededRandom, type SeededRandom } from '../excerpts/seeded-random.ts'
import { countable, eventIn, type ExcerptFacts } from './excerpt-facts.ts'
import type { QaDraft } from './draft.ts'
import { diagnosisLabels } from './diagnosis-labels.ts'
import { hrExtreme, type Extremum, type RateBasis } from './hr-extreme.ts'
import { labelGroups, numericGroups, pairs, shuffled } from './option-groups.ts'
import { assignRoles, type Role } from './excerpt-roles.ts'
import { countWords, isRateEvent } from './count-words.ts'
import type { Patient } from './phrasing.ts'
import type { VocabularyEvent } from './vocabulary.ts'
import { spanPosition, timingTruth } from './tasks/closed-event-timing.ts'
import type { DiagnosisForm } from './tasks/closed-diagnosis.ts'
import { TASKS, tasksIn } from './tasks/index.ts'

type ExtremumTask = ReturnType<typeof tasksIn<'extremum'>>[number]

export interface QuestionOptions {
  seed: string
  avgBeats: number
  /** Decoy moments of an extremum item are at least this much slower (faster); an open one needs every other moment this clear. */
  marginBpm: number
  /** An excerpt said to lack a sustained rate keeps at least this far from its threshold. */
  presenceMarginBpm: number
  /** Longest list of times a timing item asks for. */
  maxList: number
  /** Present/absent pairs per event in a record. */
  pairsPerEvent: number
  /** Fewest options a diagnosis item may have (groups of 4 are tried first, then down to this). */
  minDiagnosisOptions: number
  vocabulary: readonly VocabularyEvent[]
  /** The patient as the header gives them (the tasks that ask age or sex). */
  patient?: Patient
}

export interface Excerpted {
  facts: ExcerptFacts
  /** The tasks asked about this excerpt (its set's). */
  tasks: ReadonlySet<string>
}

export interface RecordDraft {
  excerpt: number
  draft: QaDraft
}

/** What a record's questions are, and the items its excerpts could not carry: per task, how many and why. */
export interface RecordQuestions {
  drafts: RecordDraft[]
  leftOut: Map<string, Map<string, number>>
}

const BEAT_EVENT = (facts: ExcerptFacts, name: string, vocab: readonly VocabularyEvent[]) => !isRateEvent(name, vocab) && eventIn(facts, name)?.kind !== 'rhythm'

/** Every item of a record, in excerpt order then task order, and what was left out. */
export function recordQuestions(recordId: string, excerpts: readonly Excerpted[], o: QuestionOptions): RecordQuestions {
  const rng = (purpose: string) => createSeededRandom(`${o.seed}:${recordId}:${purpose}`)
  const out: RecordDraft[] = []
  const add = (excerpt: number, draft: QaDraft | null) => draft && out.push({ excerpt, draft })
  const fx = (i: number) => excerpts[i].facts
  const has = (i: number, t: string) => excerpts[i].tasks.has(t)
  const leftOut = new Map<string, Map<string, number>>()
  const onceEvents = (i: number) => fx(i).events.filter((e) => BEAT_EVENT(fx(i), e.name, o.vocabulary) && timingTruth(fx(i), e.name) !== null).map((e) => e.name)
  const roles = assignRoles(excerpts.map((e, i) => ({ tasks: e.tasks, canTime: onceEvents(i).length > 0, canDiagnose: diagnosisLabels(fx(i)).length > 0 })), rng('roles'))
  const withRole = (r: Role) => roles.flatMap((x, i) => (x === r ? [i] : []))

  const used = new Set<number>()
  for (const same of byLength(withRole('pair'), fx)) pairBlocks(same, fx, has, o, rng, add, used)
  for (const same of byLength(withRole('count'), fx)) countGroups(same, fx, has, o, rng, add, used)
  // What a block could not use goes to the diagnosis groups, then to the extremum items.
  const spare = (i: number) => !used.has(i) && (roles[i] === 'pair' || roles[i] === 'count')
  const canDx = (i: number) => tasksIn('diagnosis').some((t) => has(i, t.type)) && diagnosisLabels(fx(i)).length > 0
  for (const same of byLength(excerpts.flatMap((_, i) => (roles[i] === 'diagnosis' || (spare(i) && canDx(i)) ? [i] : [])), fx)) diagnosisGroups(same, fx, has, o.minDiagnosisOptions, rng, add, used)
  const extremumIdx = excerpts.flatMap((_, i) => (roles[i] === 'extremum' || (!used.has(i) && roles[i] !== 'timing' && roles[i] !== null) ? [i] : []))

  // Timing: the truth positions of every timing-eligible (excerpt, event) of the record are where decoys go.
  for (const t of tasksIn('timing')) {
    const truthsAt = excerpts.flatMap((e, i) => (!e.tasks.has(t.type) ? [] : onceEvents(i)).map((ev) => ({ i, p: spanPosition(fx(i), timingTruth(fx(i), ev)!) })))
    for (const i of withRole('timing')) {
      if (!has(i, t.type)) continue
      const ev = shuffled(onceEvents(i), rng(`timing:${i}`))[0]
      add(i, t.ask.make(fx(i), { event: ev, words: countWords(ev, o.vocabulary), references: truthsAt.filter((x) => x.i !== i).map((x) => x.p), rng: rng(`${t.type}:${i}`) }))
    }
  }

  extremumItems(excerpts, extremumIdx, o, rng, add)
  const patient = o.patient ?? {}
  excerpts.forEach((e, i) => {
    for (const t of tasksIn('every')) {
      if (!e.tasks.has(t.type)) continue
      const why = (reason: string) => {
        const m = leftOut.get(t.type) ?? leftOut.set(t.type, new Map()).get(t.type)!
        m.set(reason, (m.get(reason) ?? 0) + 1)
      }
      add(i, t.ask.make(fx(i), { avgBeats: o.avgBeats, patient, vocabulary: o.vocabulary, rng: rng(`${t.type}:${i}`), leftOut: why }))
    }
  })
  // Excerpt order, then the tasks' order; a task's items keep the order they were made in.
  const order = new Map<string, number>(TASKS.map((t, k) => [t.type, k]))
  const rank = (t: string) => order.get(t) ?? order.size
  return { drafts: out.sort((a, b) => a.excerpt - b.excerpt || rank(a.draft.task) - rank(b.draft.task)), leftOut }
}

type Add = (excerpt: number, draft: QaDraft | null) => void

// Whether an excerpt can stand for "the event is absent": absent, and for a sustained rate, clear of its threshold.
// An excerpt with no stretch long enough to hold a sustained rate cannot stand for its absence:
// only its length would be telling.
function clearlyAbsent(facts: ExcerptFacts, ev: string, margin: number): boolean {
  if (eventIn(facts, ev)) return false
  const rate = facts.sustainedRates.find((s) => s.event === ev)
  if (!rate) return true
  return rate.bpm !== null && (rate.above ? rate.thresholdBpm - rate.bpm >= margin : rate.bpm - rate.thresholdBpm >= margin)
}

// Excerpts of one length together: a longer excerpt holds more findings, so pairing or grouping
// excerpts of different lengths would let the stated span tell which is which.
function byLength(idx: readonly number[], fx: (i: number) => ExcerptFacts): number[][] {
  const out = new Map<number, number[]>()
  for (const i of idx) {
    const len = fx(i).endMs - fx(i).startMs
    ;(out.get(len) ?? out.set(len, []).get(len)!).push(i)
  }
  return [...out.keys()].sort((a, b) => a - b).map((k) => out.get(k)!)
}

// Present/absent pairs per event, rarest first so rare events find partners; every question of a
// pair is asked of both its excerpts or of neither, so what is asked says nothing.
function pairBlocks(idx: number[], fx: (i: number) => ExcerptFacts, has: (i: number, t: string) => boolean, o: QuestionOptions, rng: (p: string) => SeededRandom, add: Add, used: Set<number>): void {
  const len = fx(idx[0]).endMs - fx(idx[0]).startMs
  const present = (i: number, ev: string) => { const e = eventIn(fx(i), ev); return e !== null && !e.boundary }
  const names = [...new Set(idx.flatMap((i) => fx(i).events.filter((e) => !e.boundary).map((e) => e.name)))]
  const tally = (ev: string) => idx.filter((i) => present(i, ev)).length
  for (const ev of names.sort((a, b) => tally(a) - tally(b) || (a < b ? -1 : 1))) {
    const r = rng(`pair:${ev}:${len}`)
    const yes = idx.filter((i) => !used.has(i) && present(i, ev))
    const no = idx.filter((i) => !used.has(i) && clearlyAbsent(fx(i), ev, o.presenceMarginBpm))
    const words = countWords(ev, o.vocabulary)
    pairs(yes, no, o.pairsPerEvent, r).forEach((pair, k) => {
      for (const i of pair) used.add(i)
      const group = `pair:${ev}:${len}:${k}`
      const options = r.below(2) ? null : r.below(2) ? ['Yes', 'No'] : ['No', 'Yes']
      // Each task draws its phrasings from its own stream, so adding a task moves no other's.
      const ask = (t: string, i: number) => ({ event: ev, words, options, group, maxList: o.maxList, vocabulary: o.vocabulary, rng: rng(`${t}:${group}:${i}`) })
      for (const t of tasksIn('pair')) {
        if (!pair.every((i) => has(i, t.type) && (t.ask.canAsk?.(fx(i), ask(t.type, i)) ?? true))) continue
        for (const i of pair) add(i, t.ask.make(fx(i), ask(t.type, i)))
      }
    })
  }
}

// Counting groups per event, in name order: four excerpts with four different counts share the options.
function countGroups(idx: number[], fx: (i: number) => ExcerptFacts, has: (i: number, t: string) => boolean, o: QuestionOptions, rng: (p: string) => SeededRandom, add: Add, used: Set<number>): void {
  const len = fx(idx[0]).endMs - fx(idx[0]).startMs
  const names = [...new Set(idx.flatMap((i) => fx(i).events.filter((e) => !e.boundary).map((e) => e.name)))].sort()
  for (const t of tasksIn('count')) {
    const r = rng(`${t.type}:${len}`)
    for (const ev of names) {
      const cands = idx.filter((i) => !used.has(i) && has(i, t.type) && countable(fx(i), ev) && (eventIn(fx(i), ev) !== null || clearlyAbsent(fx(i), ev, o.presenceMarginBpm))).map((i) => ({ ref: i, value: eventIn(fx(i), ev)?.occurrences.length ?? 0 }))
      const words = countWords(ev, o.vocabulary)
      numericGroups(cands, 4, r).forEach((g, k) => {
        const group = `${t.type}:${ev}:${len}:${k}`
        for (const m of g.members) {
          used.add(m.ref)
          add(m.ref, t.ask.make(fx(m.ref), { event: ev, words, values: g.values, truth: m.truth, group, rng: rng(`${group}:${m.ref}`) }))
        }
      })
    }
  }
}

// Diagnosis groups of 4, then smaller down to `min` options: about one in three excerpts is first offered the "which is absent"
// form. A member's candidate answers are tried rarest first (a finding most excerpts share can
// be the answer of one member only), and the grouping that places the most excerpts of a few
// seeded tries is kept.
function diagnosisGroups(all: number[], fx: (i: number) => ExcerptFacts, has: (i: number, t: string) => boolean, min: number, rng: (p: string) => SeededRandom, add: Add, used: Set<number>): void {
  const len = fx(all[0]).endMs - fx(all[0]).startMs
  for (const t of tasksIn('diagnosis')) {
    const idx = all.filter((i) => !used.has(i) && has(i, t.type))
    if (idx.length) diagnosisGroupsOf(t, idx, fx, min, rng(`${t.type}:${len}`), rng, add, used)
  }
}

function diagnosisGroupsOf(t: ReturnType<typeof tasksIn<'diagnosis'>>[number], idx: number[], fx: (i: number) => ExcerptFacts, min: number, r: SeededRandom, rng: (p: string) => SeededRandom, add: Add, used: Set<number>): void {
  const labels = new Map(idx.map((i) => [i, diagnosisLabels(fx(i))]))
  const universe = [...new Set([...labels.values()].flat())]
  const seen = (f: string) => [...labels.values()].filter((l) => l.includes(f)).length
  const rarest = (fs: string[]) => [...fs].sort((a, b) => seen(a) - seen(b) || (a < b ? -1 : 1))
  const absentTry = new Set(shuffled(idx, r).slice(0, Math.round(idx.length / 3)))
  const make = (form: DiagnosisForm, members: number[]) => {
    const cands = members.map((i) => {
      const present = new Set(labels.get(i))
      const absent = universe.filter((u) => !present.has(u))
      return form === 'present' ? { ref: i, truths: rarest([...present]), present } : { ref: i, truths: rarest(absent).reverse(), present: new Set(absent) }
    })
    let best: ReturnType<typeof labelGroups<number>> = []
    for (let t = 0; t < 8; t++) {
      const g = labelGroups(cands, 4, min, r)
      if (g.reduce((n, x) => n + x.members.length, 0) > best.reduce((n, x) => n + x.members.length, 0)) best = g
    }
    return best
  }
  const absentGroups = make('absent', idx.filter((i) => absentTry.has(i)))
  const inAbsent = new Set(absentGroups.flatMap((g) => g.members.map((m) => m.ref)))
  const presentGroups = make('present', idx.filter((i) => !inAbsent.has(i)))
  for (const [form, groups] of [['absent', absentGroups], ['present', presentGroups]] as const) {
    groups.forEach((g, k) => {
      const group = `${t.type}:${form}:${fx(g.members[0].ref).endMs - fx(g.members[0].ref).startMs}:${k}`
      for (const m of g.members) used.add(m.ref)
      for (const m of g.members) add(m.ref, t.ask.make(fx(m.ref), { form, values: g.values, truth: m.truth, group, rng: rng(`${group}:${m.ref}`) }))
    })
  }
}

// Heart-rate extremes of the excerpts `idx`: the extremum and the basis drawn per excerpt; decoys
// placed where the extremes of the same kind lie in the record's other excerpts asking them, each
// weighted by how often that excerpt's own draw keeps its item.
function extremumItems(excerpts: readonly Excerpted[], idx: readonly number[], o: QuestionOptions, rng: (p: string) => SeededRandom, add: Add): void {
  const kinds = excerpts.map((e, i) => {
    const r = rng(`HR_extremum:${i}`)
    const which: Extremum = r.below(2) ? 'fastest' : 'slowest'
    const basis: RateBasis = r.below(2) ? 'average' : 'beat'
    return { which, basis, x: hrExtreme(e.facts, which, basis, o.marginBpm) }
  })
  const key = (k: { which: Extremum; basis: RateBasis }) => `${k.which}:${k.basis}`
  const at = kinds.map((k, j) => (k.x ? spanPosition(excerpts[j].facts, k.x.index) : NaN))
  // The other excerpts asking the same kind of extreme, whose truths are where decoys go.
  const refs = (t: ExtremumTask, i: number) => kinds.flatMap((k, j) => (j !== i && k.x && key(k) === key(kinds[i]) && excerpts[j].tasks.has(t.type) ? [j] : []))
  // How often excerpt j's own draw keeps its item, from a stream of its own (decoy-beats.ts).
  const kept = new Map<string, number>()
  const keep = (t: ExtremumTask, j: number): number => {
    const id = `${t.type}:${j}`
    let r = kept.get(id)
    if (r === undefined) {
      const x = kinds[j].x!
      r = (t.ask.canAsk?.(x) ?? true) ? t.ask.keepRate!(excerpts[j].facts, { x, references: refs(t, j).map((m) => at[m]), rng: rng(`keep:${id}`) }) : 0
      kept.set(id, r)
    }
    return r
  }
  for (const i of idx) {
    const e = excerpts[i]
    const { x } = kinds[i]
    if (!x) continue
    for (const t of tasksIn('extremum')) {
      if (!e.tasks.has(t.type) || !(t.ask.canAsk?.(x) ?? true)) continue
      const others = refs(t, i)
      const weights = t.ask.keepRate ? others.map((j) => keep(t, j)) : undefined
      add(i, t.ask.make(e.facts, { x, references: others.map((j) => at[j]), weights, rng: rng(`${t.type}:${i}`) }))
    }
  }
}
