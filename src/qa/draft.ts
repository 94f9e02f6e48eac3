// What a task generator makes of an excerpt: the question and answer text and the structured
// gold beside them ("Structured gold"), so scoring never parses our own sentences and
// every gold says which beats it came from.
import type { QaGold } from '../core/items.ts'
import type { TaskType } from '../holtercare/format.ts'

export type { QaGold }

export interface QaDraft {
  task: TaskType
  /** The task's own question (without the patient and span sentences). */
  question: string
  /** Inline options ("A. ...; B. ..."), closed tasks with options. */
  options?: string
  answer: string
  gold: QaGold
}
