// The prior baseline: answers every item from what train items say, never from the item's own
// options' values or the ECG. Closed items: the letter most often correct in train for the task
// and option count (else for the task with any option count, among the letters this item has;
// else A). Yes/no: the more frequent train answer (yes on a tie). Open items: the train's
// typical values (prior-values.ts); without any, the fixed defaults below. The ECG multi-task
// benchmark's tasks: the train median value, or the most frequent train class.
import type { Baseline, BaselineContext } from '../model.ts'
import type { QaItem } from '../../core/items.ts'
import { LETTERS } from '../../holtercare/format.ts'
import { mostFrequent } from '../../audit/priors.ts'
import { answerWith, type TaskAnswers } from './answer-by-task.ts'
import { genericReport } from '../../qa/answer-text.ts'
import { readQuestion, type Question } from '../../qa/question-read.ts'
import { learnValuePriors, type ValuePriors } from './prior-values.ts'
import { reportFromFigures } from './prior-report.ts'

/** The count answered without a train count: the public release's most frequent true count. */
export const DEFAULT_COUNT = 1

/** The values answered without train values: a resting adult's (an RR of 800 ms is 75 bpm). */
export const DEFAULT_VALUES: Readonly<Record<string, number>> = { rr_interval: 800, age: 60 }

/** A prior baseline learned from `train` (train items only: the caller keeps test items out). */
export function createPriorBaseline(train: readonly QaItem[]): Baseline {
  const p = learnValuePriors(train)
  return {
    name: 'prior',
    answer: (item: QaItem, ctx: BaselineContext) => answerWith(priorAnswers(p), readQuestion(item, ctx.vocabulary), ctx.vocabulary) ?? '',
  }
}

/** The answers of the prior baseline (the blind baseline takes its open answers). */
export function priorAnswers(p: ValuePriors): TaskAnswers {
  const within = (q: Question, offset: number) => Math.round(q.span.startMs + Math.min(Math.max(0, q.span.endMs - q.span.startMs), Math.max(0, offset)))
  const mid = (q: Question) => within(q, (q.span.endMs - q.span.startMs) / 2)
  return {
    option: (q, options) => letterPrior(p, q.task ?? '', options.length),
    yes: (q) => {
      const ev = p.evidenceYesNo
      const yn = q.task === 'open_evidence_reasoning' && ev.yes + ev.no > 0 ? ev : (p.audit.yesNo.get('closed_presence') ?? { yes: 0, no: 0 })
      return yn.yes >= yn.no
    },
    count: () => p.count ?? DEFAULT_COUNT,
    times: (q) => {
      if (!p.timing) return [mid(q)]
      const { count, offsets } = p.timing
      return Array.from({ length: count }, (_, i) => within(q, offsets[Math.min(offsets.length - 1, Math.floor(((i + 0.5) / count) * offsets.length))]))
    },
    extreme: (q) => {
      const o = p.extremeOffset
      const offset = (q.extremum ? o[q.extremum] : null) ?? o.any
      return { timeMs: offset === null ? mid(q) : within(q, offset), bpm: null }
    },
    labels: () => p.labels ?? [],
    estimate: (_q, task) => p.values.get(task) ?? DEFAULT_VALUES[task] ?? null,
    // Without train classes, the first class (sinus rhythm; male).
    classify: (_q, task) => p.classes.get(task) ?? 0,
    report: (q, kind) => (p.report ? reportFromFigures(p.report(q.span), kind, 'prior') : genericReport(q.span, kind)),
  }
}

// The most frequent correct letter for the task and option count, else for the task over any
// option count among the first n letters, else A.
function letterPrior(p: ValuePriors, task: string, n: number): number {
  const letters = LETTERS.slice(0, n)
  const exact = mostFrequent(p.audit.letters.get(`${task}/${n}`), letters)
  if (exact !== null) return letters.indexOf(exact as (typeof LETTERS)[number])
  const pooled = new Map<string, number>()
  for (const [key, counts] of p.audit.letters) if (key.startsWith(`${task}/`)) for (const [l, c] of counts) pooled.set(l, (pooled.get(l) ?? 0) + c)
  const any = mostFrequent(pooled, letters)
  return any === null ? 0 : letters.indexOf(any as (typeof LETTERS)[number])
}
