// One dispatch for every baseline: a baseline says which option, yes or no, what count, which
// times, which labels, what report, what value (TaskAnswers), and the task's module turns that
// into the task's answer sentence. A closed item with inline options is always answered by an
// option, whatever its task: the baseline's own pick when it has one (random, prior, blind),
// else the module's pick from the measure (holter-dsp); a closed item without options
// (free-text presence, or a malformed one) is answered in text like its open counterpart. Pure.
import type { VocabularyEvent } from '../../qa/vocabulary.ts'
import type { Question } from '../../qa/question-read.ts'
import { closedText } from '../../qa/answer-text.ts'
import { taskModule } from '../../qa/tasks/index.ts'
import type { TaskAnswers } from '../../qa/tasks/task-module.ts'

export type { TaskAnswers }

/** The answer to `q` from `a`, or null when `a` cannot answer it. */
export function answerWith(a: TaskAnswers, q: Question, vocab: readonly VocabularyEvent[]): string | null {
  const m = q.task === null ? null : taskModule(q.task)
  if (q.options) {
    const i = a.option ? a.option(q, q.options) : (m?.pick?.(a, q, q.options, vocab) ?? null)
    return i === null ? null : closedText(q.options, i)
  }
  return m ? m.answer(a, q, vocab) : null
}
