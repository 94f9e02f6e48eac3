// The holter-dsp baseline: a transparent signal-processing answerer. It reads the question's text
// (question-read.ts: the task type, the event named, fastest or slowest, the options, the span)
// and the facts of the detector's beats in the item's excerpt (ctx.detectorFacts, the same
// src/qa/excerpt-facts.ts the gold is computed with, but from the detector's beats), never the
// item's answer or gold. Each task is answered with the generator's own measure: presence and
// counts from the event's occurrences, times from its onsets, the extreme rate from hr-extreme.ts,
// diagnoses from diagnosis-labels.ts, evidence from evidence-text.ts, reports from
// report-figures.ts and report-text.ts (at a fixed seed). Closed items take the option nearest
// the measure (list distance, ties to the earlier option). Without facts, or where the question
// names nothing it can measure, it answers as the blind baseline without train (blind.ts); the
// answer does not say so (the infer stage records that the facts were missing).
import type { Baseline, BaselineContext } from '../model.ts'
import type { QaItem } from '../../core/items.ts'
import { argBest } from '../../audit/answerers.ts'
import { listDistance, parseNumericOptions } from '../../qa/option-numbers.ts'
import { diagnosisLabels } from '../../qa/diagnosis-labels.ts'
import { absentEvidence, presentEvidence } from '../../qa/evidence-text.ts'
import { eventIn, type ExcerptFacts } from '../../qa/excerpt-facts.ts'
import { hrExtreme } from '../../qa/hr-extreme.ts'
import { reportFigures } from '../../qa/report-figures.ts'
import { answerWith, type TaskAnswers } from './answer-by-task.ts'
import { createBlindBaseline } from './blind.ts'
import { mentionedLabels, readQuestion, type Question } from './question-read.ts'
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

// A question asking which option is absent rather than present, read in its last sentence only
// (the patient sentence may say "the sex is not recorded").
const ASKS_ABSENT = /\b(absent|missing|not present|not seen|not shown|not contain|does not show|doesn't show|NOT)\b/
// An extremum question about one beat's RR interval rather than a window's average (rate-words.ts).
const ASKS_BEAT = /\b(?:shortest|longest) RR interval\b|\bbeat-to-beat rate\b|\binstantaneous\b/i
const lastSentence = (text: string) => text.trim().split(/(?<=[.?!])\s+/).at(-1) ?? ''

function dspAnswers(facts: ExcerptFacts, ctx: BaselineContext): TaskAnswers {
  const occurrences = (q: Question) => (q.event === null ? null : (eventIn(facts, q.event)?.occurrences ?? []))
  const extreme = (q: Question) => (q.extremum === null ? null : hrExtreme(facts, q.extremum, ASKS_BEAT.test(q.stem) ? 'beat' : 'average', 0))
  // The numeric option nearest to `values` (list distance), or null when options or values are missing.
  const nearest = (options: readonly string[], values: number[] | null) => {
    const lists = parseNumericOptions(options)
    return lists && values?.length ? argBest(lists.length, (i) => listDistance(lists[i], values)) : null
  }
  const yes = (q: Question) => (q.event === null ? null : eventIn(facts, q.event) !== null)
  return {
    option(q, options) {
      switch (q.task) {
        case 'closed_presence': {
          const y = yes(q)
          const i = y === null ? -1 : options.findIndex((o) => new RegExp(`^${y ? 'yes' : 'no'}\\b`, 'i').test(o.trim()))
          return i < 0 ? null : i
        }
        case 'closed_event_counting':
          return nearest(options, q.event === null ? null : [occurrences(q)!.length])
        case 'closed_event_timing':
          return nearest(options, occurrences(q)?.map((o) => o.timeMs) ?? null)
        case 'closed_HR_extremum_timing': {
          const x = extreme(q)
          return nearest(options, x ? [x.timeMs] : null)
        }
        case 'closed_diagnosis':
          return diagnosisOption(diagnosisLabels(facts), options.map((o) => mentionedLabels(o, ctx.vocabulary)), ASKS_ABSENT.test(lastSentence(q.stem)))
        default:
          return null
      }
    },
    yes,
    count: (q) => occurrences(q)?.length ?? null,
    times: (q) => occurrences(q)?.map((o) => o.timeMs) ?? null,
    extreme: (q) => {
      const x = extreme(q)
      return x ? { timeMs: x.timeMs, bpm: x.bpm } : null
    },
    labels: (q) => (q.task === 'closed_diagnosis' ? diagnosisLabels(facts) : facts.events.map((e) => e.name)),
    evidence: (q, present) => {
      if (q.event === null) return null
      const found = eventIn(facts, q.event)
      return present && found ? presentEvidence(facts, found) : absentEvidence(facts, q.event)
    },
    report: (_q, kind) => reportFromFigures(reportFigures(facts, ctx.avgBeats), kind, 'holter-dsp'),
  }
}

/** The option whose labels best match the detected ones (Jaccard; `absent`: the least overlap), ties to the earlier; null when no option names a label. */
export function diagnosisOption(detected: readonly string[], options: readonly string[][], absent: boolean): number | null {
  if (options.every((o) => o.length === 0)) return null
  const have = new Set(detected)
  return argBest(options.length, (i) => {
    const o = options[i]
    if (o.length === 0) return null
    const both = o.filter((l) => have.has(l)).length
    return absent ? both / o.length : -both / (o.length + have.size - both)
  })
}
