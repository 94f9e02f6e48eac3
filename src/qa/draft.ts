// What a task generator makes of an excerpt: the question and answer text and the structured
// gold beside them ("Structured gold"), so scoring never parses our own sentences and
// every gold says which beats it came from.
import type { QaGold } from '../core/items.ts'

export type { QaGold }

export interface QaDraft {
  /** The task's type (its module's, src/qa/tasks/index.ts). */
  task: string
  /** The task's own question (without the patient and span sentences). */
  question: string
  /** Inline options ("A. ...; B. ..."), closed tasks with options. */
  options?: string
  answer: string
  gold: QaGold
}
