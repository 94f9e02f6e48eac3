// The closed questions of a set of items with what the join answerers read beside each: the
// other questions about the same excerpt (excerpt-key.ts), each reduced to its task, its own
// sentences with names and numbers masked, and the findings its text and options name; and
// the finding the question itself asks about. Pure.
import { taskModule } from '../qa/tasks/index.ts'
import { splitOptions, type HoltercareItem, type TaskType } from '../holtercare/format.ts'
import { excerptKey, statedSpan } from './excerpt-key.ts'
import { createNameFinder, type NameFinder } from './mentions.ts'
import { closedQuestion, type ClosedQuestion, type Sibling } from './priors.ts'

/** A finder over the vocabulary and every diagnosis option of `items`. */
export function finderFor(items: Iterable<HoltercareItem>): NameFinder {
  const extra: string[] = []
  for (const it of items) if (taskModule(it.task_type)?.options === 'labels') for (const o of splitOptions(it.qa_pair.question)?.options ?? []) extra.push(o.text)
  return createNameFinder(extra)
}

// The sentences of a question that are its own: not the opening patient sentence, not the span.
function ownText(stem: string): string {
  const sentences = stem.split(/(?<=[.?!])\s+/)
  return sentences.filter((s, i) => (i > 0 || sentences.length === 1) && !statedSpan(s)).join(' ')
}

function sibling(item: HoltercareItem, finder: NameFinder): Sibling {
  const split = taskModule(item.task_type)?.kind === 'yesno' ? null : splitOptions(item.qa_pair.question)
  const text = ownText(split ? split.stem : item.qa_pair.question)
  const names = finder.find(text)
  let template = text.toLowerCase()
  for (const n of names) template = template.split(n).join('<e>')
  return { task: item.task_type, template: template.replace(/\d[\d,.]*/g, '#'), names, optionNames: split ? split.options.flatMap((o) => finder.find(o.text)) : [] }
}

export interface AuditQuestion extends ClosedQuestion {
  split?: string
}

/** The closed (and yes/no) questions of `items` with their siblings and target; `unparsed` counts closed items that did not parse. */
export function gatherQuestions(items: readonly { split?: string; item: HoltercareItem }[], finder: NameFinder): { questions: AuditQuestion[]; unparsed: Map<TaskType, number> } {
  const byKey = new Map<string, number[]>()
  items.forEach(({ item }, i) => {
    const k = excerptKey(item.id, item.qa_pair.question)
    ;(byKey.get(k) ?? byKey.set(k, []).get(k)!).push(i)
  })
  const sibs = items.map(({ item }) => sibling(item, finder))
  const questions: AuditQuestion[] = []
  const unparsed = new Map<TaskType, number>()
  items.forEach(({ split, item }, i) => {
    const isClosed = item.task_type.startsWith('closed_')
    if (!isClosed && taskModule(item.task_type)?.kind !== 'yesno') return
    const q = closedQuestion(item)
    if (!q) {
      if (isClosed) unparsed.set(item.task_type, (unparsed.get(item.task_type) ?? 0) + 1)
      return
    }
    const others = byKey.get(excerptKey(item.id, item.qa_pair.question))!.filter((j) => j !== i).map((j) => sibs[j])
    questions.push({ ...q, ...(split !== undefined ? { split } : {}), siblings: others, target: sibs[i].names[0] ?? null })
  })
  return { questions, unparsed }
}
