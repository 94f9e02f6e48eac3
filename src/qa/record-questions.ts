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
import { TASK_TYPES, type TaskType } from '../holtercare/format.ts'
import { hrExtreme, type Extremum, type RateBasis } from './hr-extreme.ts'
import { labelGroups, numericGroups, pairs, shuffled } from './option-groups.ts'
import { assignRoles, type Role } from './excerpt-roles.ts'
import { countWords, isRateEvent } from './count-words.ts'
import type { VocabularyEvent } from './vocabulary.ts'
import { closedPresence } from './tasks/closed-presence.ts'
import { closedEventCounting } from './tasks/closed-event-counting.ts'
import { closedEventTiming, spanPosition, timingTruth } from './tasks/closed-event-timing.ts'
import { closedHrExtremumTiming } from './tasks/closed-hr-extremum-timing.ts'
import { closedDiagnosis, type DiagnosisForm } from './tasks/closed-diagnosis.ts'
import { openEventCounting } from './tasks/open-event-counting.ts'
import { openEventTiming } from './tasks/open-event-timing.ts'
import { openHrExtremumTiming } from './tasks/open-hr-extremum-timing.ts'
import { openDiagnosis } from './tasks/open-diagnosis.ts'
import { openEvidenceReasoning } from './tasks/open-evidence-reasoning.ts'
import { reportStatisticalOverview } from './tasks/report-statistical-overview.ts'
import { reportGeneralSummary } from './tasks/report-general-summary.ts'

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
}

export interface Excerpted {
  facts: ExcerptFacts
  /** The tasks asked about this excerpt (its set's). */
  tasks: ReadonlySet<TaskType>
}

export interface RecordDraft {
  excerpt: number
  draft: QaDraft
}

const BEAT_EVENT = (facts: ExcerptFacts, name: string, vocab: readonly VocabularyEvent[]) => !isRateEvent(name, vocab) && eventIn(facts, name)?.kind !== 'rhythm'

/** Every item of a record, in excerpt order then task order. */
export function recordQuestions(recordId: string, excerpts: readonly Excerpted[], o: QuestionOptions): RecordDraft[] {
  const rng = (purpose: string) => createSeededRandom(`${o.seed}:${recordId}:${purpose}`)
  const out: RecordDraft[] = []
  const add = (excerpt: number, draft: QaDraft | null) => draft && out.push({ excerpt, draft })
  const fx = (i: number) => excerpts[i].facts
  const has = (i: number, t: TaskType) => excerpts[i].tasks.has(t)
  const onceEvents = (i: number) => fx(i).events.filter((e) => BEAT_EVENT(fx(i), e.name, o.vocabulary) && timingTruth(fx(i), e.name) !== null).map((e) => e.name)
  const roles = assignRoles(excerpts.map((e, i) => ({ tasks: e.tasks, canTime: onceEvents(i).length > 0, canDiagnose: diagnosisLabels(fx(i)).length > 0 })), rng('roles'))
  const withRole = (r: Role) => roles.flatMap((x, i) => (x === r ? [i] : []))

  const used = new Set<number>()
  for (const same of byLength(withRole('pair'), fx)) pairBlocks(same, fx, has, o, rng, add, used)
  for (const same of byLength(withRole('count'), fx)) countGroups(same, fx, o, rng(`closed_event_counting:${fx(same[0]).endMs - fx(same[0]).startMs}`), add, used)
  // What a block could not use goes to the diagnosis groups, then to the extremum items.
  const spare = (i: number) => !used.has(i) && (roles[i] === 'pair' || roles[i] === 'count')
  const canDx = (i: number) => has(i, 'closed_diagnosis') && diagnosisLabels(fx(i)).length > 0
  for (const same of byLength(excerpts.flatMap((_, i) => (roles[i] === 'diagnosis' || (spare(i) && canDx(i)) ? [i] : [])), fx)) diagnosisGroups(same, fx, o.minDiagnosisOptions, rng(`closed_diagnosis:${fx(same[0]).endMs - fx(same[0]).startMs}`), add, used)
  const extremumIdx = excerpts.flatMap((_, i) => (roles[i] === 'extremum' || (!used.has(i) && roles[i] !== 'timing' && roles[i] !== null) ? [i] : []))

  // Timing: the truth positions of every timing-eligible (excerpt, event) of the record are where decoys go.
  const timingIdx = withRole('timing')
  const truthsAt = excerpts.flatMap((e, i) => (!e.tasks.has('closed_event_timing') ? [] : onceEvents(i)).map((ev) => ({ i, p: spanPosition(fx(i), timingTruth(fx(i), ev)!) })))
  for (const i of timingIdx) {
    const r = rng(`closed_event_timing:${i}`)
    const ev = shuffled(onceEvents(i), r)[0]
    add(i, closedEventTiming(fx(i), ev, countWords(ev, o.vocabulary), truthsAt.filter((t) => t.i !== i).map((t) => t.p), r))
  }

  extremumItems(excerpts, extremumIdx, o, rng, add)
  excerpts.forEach((e, i) => {
    if (e.tasks.has('open_diagnosis')) add(i, openDiagnosis(fx(i), rng(`open_diagnosis:${i}`)))
    if (e.tasks.has('report_statistical_overview')) add(i, reportStatisticalOverview(fx(i), o.avgBeats, rng(`report_statistical_overview:${i}`)))
    if (e.tasks.has('report_general_summary')) add(i, reportGeneralSummary(fx(i), o.avgBeats, rng(`report_general_summary:${i}`)))
  })
  // Excerpt order, then the tasks' order; a task's items keep the order they were made in.
  const rank = (t: TaskType) => TASK_TYPES.indexOf(t)
  return out.sort((a, b) => a.excerpt - b.excerpt || rank(a.draft.task) - rank(b.draft.task))
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
function pairBlocks(idx: number[], fx: (i: number) => ExcerptFacts, has: (i: number, t: TaskType) => boolean, o: QuestionOptions, rng: (p: string) => SeededRandom, add: Add, used: Set<number>): void {
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
      const both = (t: TaskType) => pair.every((i) => has(i, t))
      const group = `pair:${ev}:${len}:${k}`
      const options = r.below(2) ? null : r.below(2) ? ['Yes', 'No'] : ['No', 'Yes']
      const timeable = both('open_event_timing') && BEAT_EVENT(fx(pair[0]), ev, o.vocabulary) && pair.every((i) => (eventIn(fx(i), ev)?.occurrences.length ?? 0) <= o.maxList)
      for (const i of pair) {
        if (both('closed_presence')) add(i, closedPresence(fx(i), ev, options, group, r))
        if (both('open_evidence_reasoning')) add(i, openEvidenceReasoning(fx(i), ev, group, r))
        if (both('open_event_counting')) add(i, openEventCounting(fx(i), ev, words, r))
        if (timeable) add(i, openEventTiming(fx(i), ev, words, r))
      }
    })
  }
}

// Counting groups per event, in name order: four excerpts with four different counts share the options.
function countGroups(idx: number[], fx: (i: number) => ExcerptFacts, o: QuestionOptions, r: SeededRandom, add: Add, used: Set<number>): void {
  const names = [...new Set(idx.flatMap((i) => fx(i).events.filter((e) => !e.boundary).map((e) => e.name)))].sort()
  for (const ev of names) {
    const cands = idx.filter((i) => !used.has(i) && countable(fx(i), ev) && (eventIn(fx(i), ev) !== null || clearlyAbsent(fx(i), ev, o.presenceMarginBpm))).map((i) => ({ ref: i, value: eventIn(fx(i), ev)?.occurrences.length ?? 0 }))
    const words = countWords(ev, o.vocabulary)
    numericGroups(cands, 4, r).forEach((g, k) => {
      for (const m of g.members) {
        used.add(m.ref)
        add(m.ref, closedEventCounting(fx(m.ref), ev, words, g.values, m.truth, `closed_event_counting:${ev}:${fx(m.ref).endMs - fx(m.ref).startMs}:${k}`, r))
      }
    })
  }
}

// Diagnosis groups of 4, then smaller down to `min` options: about one in three excerpts is first offered the "which is absent"
// form. A member's candidate answers are tried rarest first (a finding most excerpts share can
// be the answer of one member only), and the grouping that places the most excerpts of a few
// seeded tries is kept.
function diagnosisGroups(idx: number[], fx: (i: number) => ExcerptFacts, min: number, r: SeededRandom, add: Add, used: Set<number>): void {
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
      for (const m of g.members) used.add(m.ref)
      for (const m of g.members) add(m.ref, closedDiagnosis(fx(m.ref), form, g.values, m.truth, `closed_diagnosis:${form}:${fx(m.ref).endMs - fx(m.ref).startMs}:${k}`, r))
    })
  }
}

// Heart-rate extremes of the excerpts `idx`: the extremum and the basis drawn per excerpt; decoys
// placed where the extremes of the same kind lie in the record's other excerpts asking them.
function extremumItems(excerpts: readonly Excerpted[], idx: readonly number[], o: QuestionOptions, rng: (p: string) => SeededRandom, add: Add): void {
  const kinds = excerpts.map((e, i) => {
    const r = rng(`HR_extremum:${i}`)
    const which: Extremum = r.below(2) ? 'fastest' : 'slowest'
    const basis: RateBasis = r.below(2) ? 'average' : 'beat'
    return { which, basis, x: hrExtreme(e.facts, which, basis, o.marginBpm), r }
  })
  const key = (k: { which: Extremum; basis: RateBasis }) => `${k.which}:${k.basis}`
  for (const i of idx) {
    const e = excerpts[i]
    const { x, r } = kinds[i]
    if (!x) continue
    if (e.tasks.has('closed_HR_extremum_timing')) {
      const refs = kinds.flatMap((k, j) => (j !== i && k.x && key(k) === key(kinds[i]) && excerpts[j].tasks.has('closed_HR_extremum_timing') ? [spanPosition(excerpts[j].facts, k.x.index)] : []))
      add(i, closedHrExtremumTiming(e.facts, x, refs, r))
    }
    if (e.tasks.has('open_HR_extremum_timing') && x.clear) add(i, openHrExtremumTiming(e.facts, x, r))
  }
}
