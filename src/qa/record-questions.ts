// A record's questions from the facts of its excerpts (pure): which items each task makes, and
// how the closed ones are balanced across excerpts (option-groups.ts): presence and evidence in
// yes/no pairs per event, counts and diagnoses in groups sharing one option set, timing options
// shifted around the truth with its rank drawn from a deck. Random choices come from seeded
// streams named by record and purpose, so a rerun gives the same items and a task added later
// does not reshuffle the others.
import { createSeededRandom, type SeededRandom } from '../excerpts/seeded-random.ts'
import { countable, eventIn, type ExcerptFacts } from './excerpt-facts.ts'
import type { QaDraft } from './draft.ts'
import { diagnosisLabels } from './diagnosis-labels.ts'
import { TASK_TYPES, type TaskType } from './holtercare-format.ts'
import { hrExtreme } from './hr-extreme.ts'
import { createDeck, labelGroups, numericGroups, pairs, shuffled } from './option-groups.ts'
import { closedPresence } from './tasks/closed-presence.ts'
import { closedEventCounting } from './tasks/closed-event-counting.ts'
import { closedEventTiming } from './tasks/closed-event-timing.ts'
import { closedHrExtremumTiming } from './tasks/closed-hr-extremum-timing.ts'
import { closedDiagnosis } from './tasks/closed-diagnosis.ts'
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
  /** The extreme rate must beat every window sharing no beat with it by this much. */
  marginBpm: number
  /** Longest list of times a timing item asks for. */
  maxList: number
  /** Event-based items of one task per excerpt (open counting and timing, closed timing). */
  perExcerpt: number
  /** Yes/no pairs per event and task in a record. */
  pairsPerEvent: number
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

/** Every item of a record, in excerpt order then task order. */
export function recordQuestions(recordId: string, excerpts: readonly Excerpted[], o: QuestionOptions): RecordDraft[] {
  const rng = (purpose: string) => createSeededRandom(`${o.seed}:${recordId}:${purpose}`)
  const out: RecordDraft[] = []
  const add = (excerpt: number, draft: QaDraft | null) => draft && out.push({ excerpt, draft })
  const withTask = (t: TaskType) => excerpts.flatMap((e, i) => (e.tasks.has(t) ? [i] : []))
  const events = (idx: number[]) => [...new Set(idx.flatMap((i) => excerpts[i].facts.events.map((e) => e.name)))]
  const fx = (i: number) => excerpts[i].facts

  for (const task of ['closed_presence', 'open_evidence_reasoning'] as const) {
    const idx = withTask(task)
    for (const ev of events(idx)) {
      const r = rng(`${task}:${ev}`)
      pairs(idx.filter((i) => eventIn(fx(i), ev)), idx.filter((i) => !eventIn(fx(i), ev)), o.pairsPerEvent, r).forEach(([yes, no], k) => {
        const group = `${task}:${ev}:${k}`
        if (task === 'open_evidence_reasoning') {
          for (const i of [yes, no]) add(i, openEvidenceReasoning(fx(i), ev, group, r))
          return
        }
        const options = r.below(2) ? null : r.below(2) ? ['Yes', 'No'] : ['No', 'Yes']
        for (const i of [yes, no]) add(i, closedPresence(fx(i), ev, options, group, r))
      })
    }
  }

  const countIdx = withTask('closed_event_counting')
  for (const ev of events(countIdx)) {
    const r = rng(`closed_event_counting:${ev}`)
    const cands = countIdx.filter((i) => countable(fx(i), ev)).map((i) => ({ ref: i, value: eventIn(fx(i), ev)?.occurrences.length ?? 0 }))
    const counts = countIdx.map((i) => eventIn(fx(i), ev)).find((e) => e)!.counts
    numericGroups(cands, 4, r).forEach((g, k) => {
      for (const m of g.members) add(m.ref, closedEventCounting(fx(m.ref), ev, counts, g.values, m.truth, `closed_event_counting:${ev}:${k}`, r))
    })
  }

  const timingRank = rankDeck(rng('closed_event_timing:deck'))
  for (const i of withTask('closed_event_timing')) {
    const r = rng(`closed_event_timing:${i}`)
    const once = fx(i).events.filter((e) => !e.boundary && e.occurrences.length === 1 && e.occurrences[0].beats.length > 0).map((e) => e.name)
    for (const ev of shuffled(once, r).slice(0, o.perExcerpt)) add(i, timingRank((rank) => closedEventTiming(fx(i), ev, rank, r)))
  }

  const hrRank = rankDeck(rng('closed_HR_extremum_timing:deck'))
  for (const i of withTask('closed_HR_extremum_timing')) {
    const r = rng(`closed_HR_extremum_timing:${i}`)
    const x = hrExtreme(fx(i), r.below(2) ? 'fastest' : 'slowest', o.avgBeats, o.marginBpm)
    if (x) add(i, hrRank((rank) => closedHrExtremumTiming(fx(i), x, rank, o.avgBeats, r)))
  }

  const dx = withTask('closed_diagnosis').flatMap((i) => {
    const labels = diagnosisLabels(fx(i))
    return labels.length ? [{ ref: i, truths: labels, present: new Set(labels) }] : []
  })
  const dr = rng('closed_diagnosis')
  labelGroups(dx, 4, 2, dr).forEach((g, k) => {
    for (const m of g.members) add(m.ref, closedDiagnosis(fx(m.ref), g.values, m.truth, `closed_diagnosis:${k}`, dr))
  })

  for (const i of withTask('open_event_counting')) {
    const r = rng(`open_event_counting:${i}`)
    for (const ev of shuffled(fx(i).events.filter((e) => !e.boundary).map((e) => e.name), r).slice(0, o.perExcerpt)) add(i, openEventCounting(fx(i), ev, r))
  }
  for (const i of withTask('open_event_timing')) {
    const r = rng(`open_event_timing:${i}`)
    for (const ev of timable(fx(i), o, r)) add(i, openEventTiming(fx(i), ev, r))
  }
  for (const i of withTask('open_HR_extremum_timing')) {
    const r = rng(`open_HR_extremum_timing:${i}`)
    const x = hrExtreme(fx(i), r.below(2) ? 'fastest' : 'slowest', o.avgBeats, o.marginBpm)
    if (x?.clear) add(i, openHrExtremumTiming(fx(i), x, o.avgBeats, r))
  }
  for (const i of withTask('open_diagnosis')) add(i, openDiagnosis(fx(i), rng(`open_diagnosis:${i}`)))
  for (const i of withTask('report_statistical_overview')) add(i, reportStatisticalOverview(fx(i), o.avgBeats, rng(`report_statistical_overview:${i}`)))
  for (const i of withTask('report_general_summary')) add(i, reportGeneralSummary(fx(i), o.avgBeats, rng(`report_general_summary:${i}`)))
  // Excerpt order, then the tasks' order; a task's items keep the order they were made in.
  const rank = (t: TaskType) => TASK_TYPES.indexOf(t)
  return out.sort((a, b) => a.excerpt - b.excerpt || rank(a.draft.task) - rank(b.draft.task))
}

// Makes an item at the truth's rank from a deck of the 4 ranks; a rank whose item cannot be made
// (too few decoys on one side) goes to the next item, so the ranks of the items made stay balanced.
function rankDeck(r: SeededRandom): (make: (rank: number) => QaDraft | null) => QaDraft | null {
  const deck = createDeck(4, r)
  const returned: number[] = []
  return (make) => {
    const rank = returned.pop() ?? deck()
    const d = make(rank)
    if (!d) returned.push(rank)
    return d
  }
}

// Events of an excerpt a timing item can ask about: present, onsets inside, at most maxList of them; perExcerpt at random.
function timable(facts: ExcerptFacts, o: QuestionOptions, r: SeededRandom): string[] {
  const ok = facts.events.filter((e) => !e.boundary && e.occurrences.length >= 1 && e.occurrences.length <= o.maxList).map((e) => e.name)
  return shuffled(ok, r).slice(0, o.perExcerpt)
}
