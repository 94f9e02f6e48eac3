// What a baseline reads off a QA item's public text (docs/qa.md "The 12 tasks"): its task type,
// inline options, the event it asks about, fastest or slowest, and the excerpt's span. It reads
// `taskType` and `question` (the public element's task_type and question), `id`, and the
// excerpt's span only when the question states none; never the answer or the gold, so a
// baseline sees what a model sees. Pure.
//
// The event is the vocabulary name (compared lower-case, as inText writes it in running text,
// a plural "s" allowed) that ends last in the question's stem, the longest on a tie: the task's
// own question comes after the patient and span sentences, and "Polymorphic Ventricular
// Tachycardia" must win over the "Ventricular Tachycardia" inside it.
import type { QaItem } from '../core/items.ts'
import type { TaskType } from '../holtercare/format.ts'
import { splitOptions } from '../holtercare/options.ts'
import type { VocabularyEvent } from './vocabulary.ts'
import { askedEvent } from './named-findings.ts'
import { taskModule } from './tasks/index.ts'

export { askedEvent, mentionedLabels } from './named-findings.ts'

/** A QA item as a baseline reads it. */
export interface Question {
  /** The item's id (seeds per item). */
  id: string
  task: TaskType | null
  /** The question without its inline options. */
  stem: string
  /** The inline option texts, or null when the question has none. */
  options: string[] | null
  /** The vocabulary event the question names, or null. */
  event: string | null
  extremum: 'fastest' | 'slowest' | null
  /** The excerpt's span in record ms, from the span sentence (else the item's excerpt). */
  span: { startMs: number; endMs: number }
}

/** Reads the public text of an item. */
export function readQuestion(item: Pick<QaItem, 'id' | 'taskType' | 'question' | 'excerpt'>, vocab: readonly VocabularyEvent[]): Question {
  const split = splitOptions(item.question)
  const stem = split ? split.stem : item.question
  return {
    id: item.id,
    task: taskModule(item.taskType) ? (item.taskType as TaskType) : null,
    stem,
    options: split ? split.options.map((o) => o.text) : null,
    event: askedEvent(stem, vocab),
    extremum: askedExtremum(stem),
    span: askedSpan(item.question) ?? { startMs: item.excerpt.startMs, endMs: item.excerpt.endMs },
  }
}

const FASTEST = /\b(fastest|highest|maximum)\b/g
const SLOWEST = /\b(slowest|lowest|minimum)\b/g

/** Whether a question asks for the fastest or the slowest rate (the later word when both occur), or null. */
export function askedExtremum(text: string): 'fastest' | 'slowest' | null {
  const last = (re: RegExp) => Math.max(-1, ...[...text.toLowerCase().matchAll(re)].map((m) => m.index))
  const [f, s] = [last(FASTEST), last(SLOWEST)]
  return f < 0 && s < 0 ? null : f > s ? 'fastest' : 'slowest'
}

/** The span the question states ("... 123 ms to 456 ms ..."), or null. */
export function askedSpan(text: string): { startMs: number; endMs: number } | null {
  const m = /(\d+(?:\.\d+)?) ms to (\d+(?:\.\d+)?) ms/.exec(text)
  return m ? { startMs: Number(m[1]), endMs: Number(m[2]) } : null
}
