// What an answer that never looks at the ECG scores on the open tasks: the floor a model's
// open-task scores are to be read against. Numeric tasks, by MAE: the priors' median; for a
// count also the priors' median for the finding the question names (a count of PVCs is not a
// count of pauses) and zero; for a time also the middle of the stated span. Text tasks, by
// ROUGE-L F1: the answer most often given in the priors' split, and the one most often given
// for the finding the question names. Priors come from a split the audit does not score;
// without one, only what needs none (zero, the span's middle). Pure.
import { TASKS, taskModule } from '../qa/tasks/index.ts'
import type { HoltercareItem, TaskType } from '../holtercare/format.ts'
import { median, mean } from '../qa/option-numbers.ts'
import { rougeL } from '../metrics/rouge-l.ts'
import { statedSpan } from './excerpt-key.ts'
import { openNumber } from './priors.ts'
import type { NameFinder } from './mentions.ts'

export interface FloorRow {
  /** What is answered. */
  floor: string
  metric: 'MAE' | 'ROUGE-L F1'
  /** Items it answered (it abstains where it has nothing to say). */
  items: number
  /** Mean over those items: MAE in the task's unit, ROUGE-L in points. */
  score: number
}

export interface OpenTaskReport {
  task: TaskType
  items: number
  /** Items whose gold number parsed (numeric tasks). */
  parsed: number
  floors: FloorRow[]
}

const PUBLIC_OPEN = TASKS.filter((t) => t.tier === 'Open-QA' || t.tier === 'Report-Generation')
const numeric = (t: (typeof TASKS)[number]) => t.kind === 'count' || t.kind === 'timestamp'
const kindOf = (task: string) => taskModule(task)?.kind
const NUMERIC = new Set<string>(PUBLIC_OPEN.filter(numeric).map((t) => t.type))

/** The open tasks the floors cover, in report order: the numeric ones, then those scored as text. */
export const OPEN_TASKS: readonly TaskType[] = [...PUBLIC_OPEN.filter(numeric), ...PUBLIC_OPEN.filter((t) => !numeric(t))].map((t) => t.type)

function row(floor: string, metric: FloorRow['metric'], values: (number | null)[]): FloorRow | null {
  const got = values.filter((v): v is number => v !== null)
  return got.length ? { floor, metric, items: got.length, score: mean(got) } : null
}

function mode(texts: readonly string[]): string | null {
  const c = new Map<string, number>()
  let best: string | null = null
  for (const t of texts) {
    const n = (c.get(t) ?? 0) + 1
    c.set(t, n)
    if (best === null || n > c.get(best)! || (n === c.get(best)! && t < best)) best = t
  }
  return best
}

/** The floors of one open task over `items`, with priors from `priors` when given. */
export function openFloors(task: TaskType, items: readonly HoltercareItem[], finder: NameFinder, priors?: readonly HoltercareItem[]): OpenTaskReport {
  const target = (it: HoltercareItem) => finder.find(it.qa_pair.question)[0] ?? ''
  const prior = (priors ?? []).filter((p) => p.task_type === task)
  const floors: (FloorRow | null)[] = []
  let parsed = 0
  if (NUMERIC.has(task)) {
    const gold = items.map(openNumber)
    parsed = gold.filter((g) => g !== null).length
    const mae = (guess: (it: HoltercareItem) => number | null) => items.map((it, i) => (gold[i] === null ? null : (() => { const g = guess(it); return g === null ? null : Math.abs(g - gold[i]!) })()))
    const pv = prior.map((p) => ({ t: target(p), v: openNumber(p) })).filter((x): x is { t: string; v: number } => x.v !== null)
    if (pv.length) {
      const all = median(pv.map((x) => x.v))
      floors.push(row('priors\' median', 'MAE', mae(() => all)))
      if (kindOf(task) === 'count') {
        const byTarget = new Map<string, number[]>()
        for (const x of pv) (byTarget.get(x.t) ?? byTarget.set(x.t, []).get(x.t)!).push(x.v)
        floors.push(row('priors\' median for the finding named', 'MAE', mae((it) => { const v = byTarget.get(target(it)); return v ? median(v) : all })))
      }
    }
    if (kindOf(task) === 'count') {
      floors.push(row('zero', 'MAE', mae(() => 0)))
    } else {
      floors.push(row('middle of the stated span', 'MAE', mae((it) => { const s = statedSpan(it.qa_pair.question); return s ? (s.startMs + s.endMs) / 2 : null })))
    }
  } else if (prior.length) {
    const answers = prior.map((p) => p.qa_pair.answer)
    const top = mode(answers)!
    const byTarget = new Map<string, string[]>()
    for (const p of prior) (byTarget.get(target(p)) ?? byTarget.set(target(p), []).get(target(p))!).push(p.qa_pair.answer)
    const rouge = (guess: (it: HoltercareItem) => string) => items.map((it) => 100 * rougeL(guess(it), it.qa_pair.answer).f)
    floors.push(row('the priors\' most frequent answer', 'ROUGE-L F1', rouge(() => top)))
    // Per finding only where the question names one: a diagnosis or a report is asked of every excerpt alike.
    if (kindOf(task) !== 'labels' && kindOf(task) !== 'report') floors.push(row('the priors\' most frequent answer for the finding named', 'ROUGE-L F1', rouge((it) => mode(byTarget.get(target(it)) ?? []) ?? top)))
  }
  return { task, items: items.length, parsed, floors: floors.filter((f): f is FloorRow => f !== null) }
}
