// The holter-dsp baseline: a transparent signal-processing answerer. It reads the question's text
// (question-read.ts: the task type, the event named, fastest or slowest, the options, the span)
// and the facts of the detector's beats in the item's excerpt (ctx.detectorFacts, the same
// src/qa/excerpt-facts.ts the gold is computed with, but from the detector's beats), never the
// item's answer or gold. Each task is answered with the generator's own measure: presence and
// counts from the event's occurrences, times from its onsets, the extreme rate from hr-extreme.ts,
// diagnoses from diagnosis-labels.ts, evidence from evidence-text.ts, reports from
// report-figures.ts and report-text.ts (at a fixed seed), the mean RR and the rhythm class from
// rhythm-class.ts. Closed items take the option the task's module picks from the measure (the
// nearest by list distance, ties to the earlier option). Without facts, or where the question
// names nothing it can measure, it answers as the blind baseline without train (blind.ts); the
// answer does not say so (the infer stage records that the facts were missing).
import type { Baseline, BaselineContext } from '../model.ts'
import type { QaItem } from '../../core/items.ts'
import { diagnosisLabels } from '../../qa/diagnosis-labels.ts'
import { absentEvidence, presentEvidence } from '../../qa/evidence-text.ts'
import { eventIn, type ExcerptFacts } from '../../qa/excerpt-facts.ts'
import { hrExtreme } from '../../qa/hr-extreme.ts'
import { meanRrMs, rhythmClass } from '../../qa/rhythm-class.ts'
import { reportFigures } from '../../qa/report-figures.ts'
import { answerWith, type TaskAnswers } from './answer-by-task.ts'
import { createBlindBaseline } from './blind.ts'
import { readQuestion, type Question } from '../../qa/question-read.ts'
import { reportFromFigures } from './prior-report.ts'

/** The holter-dsp baseline. */
export function createHolterDspBaseline(): Baseline {
  const blind = createBlindBaseline()
  return {
    name: 'holter-dsp',
    answer(item: QaItem, ctx: BaselineContext): string {
      const facts = ctx.detectorFacts
      const own = facts ? answerWith(dspAnswers(facts, ctx), readQuestion(item, ctx.vocabulary), ctx.vocabulary) : null
      return own ?? blind.answer(item, ctx)
    },
  }
}

// An extremum question about one beat's RR interval rather than a window's average (rate-words.ts).
const ASKS_BEAT = /\b(?:shortest|longest) RR interval\b|\bbeat-to-beat rate\b|\binstantaneous\b/i

function dspAnswers(facts: ExcerptFacts, ctx: BaselineContext): TaskAnswers {
  const occurrences = (q: Question) => (q.event === null ? null : (eventIn(facts, q.event)?.occurrences ?? []))
  const extreme = (q: Question) => (q.extremum === null ? null : hrExtreme(facts, q.extremum, ASKS_BEAT.test(q.stem) ? 'beat' : 'average', 0))
  const yes = (q: Question) => (q.event === null ? null : eventIn(facts, q.event) !== null)
  return {
    yes,
    count: (q) => occurrences(q)?.length ?? null,
    times: (q) => occurrences(q)?.map((o) => o.timeMs) ?? null,
    extreme: (q) => {
      const x = extreme(q)
      return x ? { timeMs: x.timeMs, bpm: x.bpm } : null
    },
    labels: (_q, closed) => (closed ? diagnosisLabels(facts) : facts.events.map((e) => e.name)),
    evidence: (q, present) => {
      if (q.event === null) return null
      const found = eventIn(facts, q.event)
      return present && found ? presentEvidence(facts, found) : absentEvidence(facts, q.event)
    },
    report: (_q, kind) => reportFromFigures(reportFigures(facts, ctx.avgBeats), kind, 'holter-dsp'),
    // The mean RR of the detected beats; age and sex are not in the signal it measures.
    estimate: (_q, task) => (task === 'rr_interval' ? meanRrMs(facts) : null),
    // The detector labels beats but not rhythms: a rhythm without a reference name is read as sinus.
    classify: (_q, task) => {
      if (task !== 'report_label') return null
      const c = rhythmClass(facts, { assumeSinus: true })
      return 'cls' in c ? c.cls : null
    },
  }
}

