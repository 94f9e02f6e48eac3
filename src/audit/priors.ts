// What the audit's train-based answerers learn from a train split (docs/qa-checks.md): per
// closed task, the correct letter by option count, yes/no for free-text presence, how often each
// option text is the correct answer and how often a distractor; per open numeric task, the gold
// numbers. Option texts are compared trimmed and lower-cased. Pure.
import { TASKS, taskModule } from '../qa/tasks/index.ts'
import { LETTERS, splitAnswer, splitOptions, type HoltercareItem, type TaskType } from '../holtercare/format.ts'
import { parseCountAnswer, parseTimestampAnswer } from '../qa/option-numbers.ts'

/** Another question about the same excerpt, as a join answerer reads it. */
export interface Sibling {
  task: TaskType
  /** Its own sentences (without the patient and span sentences), names and numbers masked. */
  template: string
  /** The findings its text names, and those its options name. */
  names: readonly string[]
  optionNames: readonly string[]
}

/** A closed item as the answerers see it: option texts (null: free-text yes/no) and the gold. */
export interface ClosedQuestion {
  task: TaskType
  question: string
  options: string[] | null
  /** Index of the correct option, or yes/no for a free-text presence item. */
  gold: number | 'yes' | 'no'
  /** The other questions about the same excerpt, where the audit gathered them (join.ts). */
  siblings?: readonly Sibling[]
  /** The finding the question names first, where the audit looked (join.ts). */
  target?: string | null
}

/** Tasks whose answer opens with yes or no, audited like a closed task (evidence asks yes/no, then why). */
export const YES_NO_TASKS: readonly TaskType[] = TASKS.filter((t) => t.options === 'yesno' || t.kind === 'yesno').map((t) => t.type)

/** The closed question of an item, or null when its options or answer do not parse. */
export function closedQuestion(item: HoltercareItem): ClosedQuestion | null {
  const { question, answer } = item.qa_pair
  const split = item.task_type === 'open_evidence_reasoning' ? null : splitOptions(question)
  if (!split) {
    if (!YES_NO_TASKS.includes(item.task_type)) return null
    const yn = /^(yes|no)\b/i.exec(answer.trim())
    return yn ? { task: item.task_type, question, options: null, gold: yn[1].toLowerCase() as 'yes' | 'no' } : null
  }
  const a = splitAnswer(answer)
  const gold = a ? split.options.findIndex((o) => o.letter === a.letter) : -1
  return gold < 0 ? null : { task: item.task_type, question, options: split.options.map((o) => o.text), gold }
}

export const normText = (s: string) => s.trim().toLowerCase()

/** What the train split says. */
export interface Priors {
  /** Correct-letter counts by `task/optionCount`. */
  letters: Map<string, Map<string, number>>
  /** Yes/no answers per task (free-text presence, evidence). */
  yesNo: Map<TaskType, { yes: number; no: number }>
  /** Per task: how often a normalised option text is correct, and how often a distractor. */
  correct: Map<TaskType, Map<string, number>>
  distractor: Map<TaskType, Map<string, number>>
  /** Per open numeric task: the parsed gold numbers. */
  numbers: Map<TaskType, number[]>
  items: number
}

/** Parses the gold number of an open numeric task, or null (other tasks: null). */
export function openNumber(item: HoltercareItem): number | null {
  const kind = taskModule(item.task_type)?.kind
  if (kind === 'count') return parseCountAnswer(item.qa_pair.answer)
  if (kind === 'timestamp') return parseTimestampAnswer(item.qa_pair.answer)
  return null
}

export const OPEN_NUMERIC_TASKS: readonly TaskType[] = TASKS.filter((t) => t.tier === 'Open-QA' && (t.kind === 'count' || t.kind === 'timestamp')).map((t) => t.type)

/** Learns the priors from train items. */
export function learnPriors(train: readonly HoltercareItem[]): Priors {
  const p: Priors = { letters: new Map(), yesNo: new Map(), correct: new Map(), distractor: new Map(), numbers: new Map(), items: train.length }
  const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1)
  const sub = <K, V>(m: Map<K, V>, k: K, make: () => V) => m.get(k) ?? m.set(k, make()).get(k)!
  for (const item of train) {
    const n = openNumber(item)
    if (n !== null) sub(p.numbers, item.task_type, () => [] as number[]).push(n)
    const q = closedQuestion(item)
    if (!q) continue
    if (q.options === null) {
      sub(p.yesNo, q.task, () => ({ yes: 0, no: 0 }))[q.gold as 'yes' | 'no']++
      continue
    }
    bump(sub(p.letters, `${q.task}/${q.options.length}`, () => new Map<string, number>()), LETTERS[q.gold as number])
    q.options.forEach((t, i) => bump(sub(i === q.gold ? p.correct : p.distractor, q.task, () => new Map<string, number>()), normText(t)))
  }
  return p
}

/** The most frequent key of a count map (ties: the first in `order`), or null when empty. */
export function mostFrequent(counts: Map<string, number> | undefined, order: readonly string[]): string | null {
  let best: string | null = null
  for (const k of order) if ((counts?.get(k) ?? 0) > 0 && (best === null || counts!.get(k)! > counts!.get(best)!)) best = k
  return best
}
