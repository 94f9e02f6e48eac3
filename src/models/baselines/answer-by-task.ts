// One dispatch for every baseline: a baseline says which option, yes or no, what count, which
// times, which labels, what report (TaskAnswers), and this turns that into the task's answer
// sentence (answer-text.ts). A closed item with inline options is always answered by an option,
// whatever its task; a closed item without options (free-text presence, or a malformed one) is
// answered like its open counterpart. Pure.
import type { VocabularyEvent } from '../../qa/vocabulary.ts'
import type { Question } from './question-read.ts'
import { closedText, countNoun, countText, diagnosisText, evidenceText, extremeText, timingText, yesNoText } from './answer-text.ts'

/** What a baseline answers, per kind of question; null where it cannot tell (the caller falls back). */
export interface TaskAnswers {
  /** The index of the option to pick. */
  option(q: Question, options: readonly string[]): number | null
  yes(q: Question): boolean | null
  count(q: Question): number | null
  /** Event times in record ms (open event timing). */
  times(q: Question): number[] | null
  extreme(q: Question): { timeMs: number; bpm: number | null } | null
  labels(q: Question): string[] | null
  /** The measured evidence behind a yes/no (open_evidence_reasoning); absent or null: none stated. */
  evidence?(q: Question, yes: boolean): string | null
  report(q: Question, kind: 'overview' | 'summary'): string | null
}

/** The answer to `q` from `a`, or null when `a` cannot answer it. */
export function answerWith(a: TaskAnswers, q: Question, vocab: readonly VocabularyEvent[]): string | null {
  if (q.options) {
    const i = a.option(q, q.options)
    return i === null ? null : closedText(q.options, i)
  }
  const or = <T>(v: T | null, text: (v: T) => string) => (v === null ? null : text(v))
  switch (q.task) {
    case 'closed_presence':
      return or(a.yes(q), (yes) => yesNoText(yes, q.event))
    case 'open_evidence_reasoning':
      return or(a.yes(q), (yes) => evidenceText(yes, q.event, a.evidence?.(q, yes) ?? null))
    case 'closed_event_counting':
    case 'open_event_counting':
      return or(a.count(q), (n) => countText(n, q.event, countNoun(q.event, vocab, q.stem)))
    case 'closed_event_timing':
    case 'open_event_timing':
      return or(a.times(q), (t) => timingText(t, q.event))
    case 'closed_HR_extremum_timing':
    case 'open_HR_extremum_timing':
      return or(a.extreme(q), (x) => extremeText(q.extremum, x.timeMs, x.bpm))
    case 'closed_diagnosis':
    case 'open_diagnosis':
      return or(a.labels(q), diagnosisText)
    case 'report_statistical_overview':
      return a.report(q, 'overview')
    case 'report_general_summary':
      return a.report(q, 'summary')
    default:
      return null
  }
}
