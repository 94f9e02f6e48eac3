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
import type { QaItem } from '../../core/items.ts'
import { isTaskType, splitOptions, type TaskType } from '../../holtercare/format.ts'
import { NORMAL_SINUS_RHYTHM, type VocabularyEvent } from '../../qa/vocabulary.ts'

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
    task: isTaskType(item.taskType) ? item.taskType : null,
    stem,
    options: split ? split.options.map((o) => o.text) : null,
    event: askedEvent(stem, vocab),
    extremum: askedExtremum(stem),
    span: askedSpan(item.question) ?? { startMs: item.excerpt.startMs, endMs: item.excerpt.endMs },
  }
}

/** The vocabulary event a question names (the one ending last, longest on a tie), or null. */
export function askedEvent(text: string, vocab: readonly VocabularyEvent[]): string | null {
  let best: { name: string; end: number; length: number } | null = null
  for (const e of vocab) {
    const at = lastMention(text, e.name)
    if (at < 0) continue
    const end = at + e.name.length
    if (!best || end > best.end || (end === best.end && e.name.length > best.length)) best = { name: e.name, end, length: e.name.length }
  }
  return best?.name ?? null
}

/** The vocabulary names (and Normal Sinus Rhythm) a text mentions, in vocabulary order. */
export function mentionedLabels(text: string, vocab: readonly VocabularyEvent[]): string[] {
  const found = [...vocab.map((e) => e.name), NORMAL_SINUS_RHYTHM].filter((n) => lastMention(text, n) >= 0)
  // A name met only inside a longer mentioned one ("Ventricular Flutter" in "Ventricular Flutter (Coarse)") is not mentioned by itself.
  const longer = (n: string) => found.filter((m) => m !== n && m.toLowerCase().includes(n.toLowerCase()))
  return found.filter((n) => lastMention(longer(n).reduce((t, m) => t.toLowerCase().replaceAll(m.toLowerCase(), ' '), text), n) >= 0)
}

// Where `name` last occurs in `text` as whole words (case-insensitive, a plural "s" allowed), or -1.
function lastMention(text: string, name: string): number {
  const hay = text.toLowerCase()
  const needle = name.toLowerCase()
  for (let at = hay.lastIndexOf(needle); at >= 0; at = at > 0 ? hay.lastIndexOf(needle, at - 1) : -1) {
    const before = hay[at - 1] ?? ' '
    let after = hay[at + needle.length] ?? ' '
    if (after === 's') after = hay[at + needle.length + 1] ?? ' '
    if (!/[a-z0-9-]/.test(before) && !/[a-z0-9]/.test(after)) return at
  }
  return -1
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
