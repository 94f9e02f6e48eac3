// The report of `pipeline qa audit` (docs/qa-checks.md): per closed task (and the yes/no of
// open_evidence_reasoning), each blind answerer's accuracy against chance over the items it
// answered; per open task, the floors of answers that never look at the ECG (floors.ts).
// Priors never come from the items they score: from --train's folder (whose split is then left
// out of the audit), else, with two or more splits, each split from the others ("cross-split"),
// else none. A row is a leak when it beats chance by more than LEAK_POINTS over at least
// MIN_ITEMS items and the excess is unlikely to be noise: its one-sided p-value (normal
// approximation to the sum of Bernoulli trials at each item's chance) is below ALPHA divided by
// the number of rows, so an audit of chance-level answerers flags nothing 95 % of the time,
// however many rows it has. Pure.
import { TASKS_BY_TIER, type HoltercareItem, type TaskType } from '../holtercare/format.ts'
import { answerersFor, type Answerer } from './answerers.ts'
import { learnPriors, YES_NO_TASKS, type ClosedQuestion } from './priors.ts'
import { finderFor, gatherQuestions, type AuditQuestion } from './questions.ts'
import { NAMED_ELSEWHERE, learnedJoin } from './join.ts'
import { OPEN_TASKS, openFloors, type FloorRow, type OpenTaskReport } from './floors.ts'
import type { NameFinder } from './mentions.ts'

export type { OpenTaskReport, FloorRow } from './floors.ts'

/** Points over chance above which an answerer may be flagged. */
export const LEAK_POINTS = 3
/** Items an answerer must have answered for a flag; below it the row is marked few items. */
export const MIN_ITEMS = 100
/** Family-wise error rate of the flags over all rows of one audit. */
export const ALPHA = 0.05

export interface AnswererRow {
  answerer: string
  describe: string
  /** Items the answerer picked an option for (it abstains where it does not apply). */
  items: number
  correct: number
  accuracy: number
  /** Mean of 1/options (1/2 for yes/no) over the items it answered. */
  chance: number
  /** (accuracy - chance) in percentage points. */
  marginPoints: number
  /** One-sided p-value of an accuracy this far above chance by luck alone. */
  pValue: number
  leak: boolean
  fewItems: boolean
  /** Above the margin on enough items, but not beyond what chance explains at this count. */
  withinNoise: boolean
}

export interface ClosedTaskReport {
  task: TaskType
  items: number
  /** Items whose options or answer did not parse (left out). */
  unparsed: number
  chance: number
  answerers: AnswererRow[]
}

export interface AuditReport {
  /** The splits audited. */
  splits: string[]
  /** Where the priors came from: "train" (--train), "cross-split" or "none". */
  priors: 'train' | 'cross-split' | 'none'
  /** Items the priors were learned from (summed over the folds of cross-split). */
  priorItems: number
  /** Splits left out of the audit because the priors came from them. */
  leftOut: string[]
  leakPoints: number
  minItems: number
  alpha: number
  closed: ClosedTaskReport[]
  open: OpenTaskReport[]
  /** Rows flagged as a leak. */
  flagged: number
}

interface Fold {
  audit: { split?: string; item: HoltercareItem }[]
  priors?: HoltercareItem[]
}

function foldsOf(items: readonly { split?: string; item: HoltercareItem }[], train?: readonly HoltercareItem[]): { folds: Fold[]; mode: AuditReport['priors']; leftOut: string[] } {
  if (train) {
    const tags = new Set(train.map((t) => t.tag))
    const leftOut = [...new Set(items.map((i) => i.split ?? i.item.tag).filter((s) => tags.has(s)))]
    return { folds: [{ audit: items.filter((i) => !tags.has(i.split ?? i.item.tag)), priors: [...train] }], mode: 'train', leftOut }
  }
  const splits = [...new Set(items.map((i) => i.split ?? i.item.tag))]
  if (splits.length < 2) return { folds: [{ audit: [...items] }], mode: 'none', leftOut: [] }
  const folds = splits.map((s) => ({ audit: items.filter((i) => (i.split ?? i.item.tag) === s), priors: items.filter((i) => (i.split ?? i.item.tag) !== s).map((i) => i.item) }))
  return { folds, mode: 'cross-split', leftOut: [] }
}

interface Tally { describe: string; items: number; correct: number; chance: number; variance: number }

const chanceOf = (q: ClosedQuestion) => (q.options ? 1 / q.options.length : 1 / 2)

/** Audits items (closed: blind answerers; open: floors), with priors from `train` or the other splits. */
export function auditItems(items: readonly { split?: string; item: HoltercareItem }[], train?: readonly HoltercareItem[]): AuditReport {
  const finder = finderFor([...items.map((i) => i.item), ...(train ?? [])])
  const { folds, mode, leftOut } = foldsOf(items, train)
  const tallies = new Map<TaskType, Map<string, Tally>>()
  const counts = new Map<TaskType, { items: number; unparsed: number; chance: number }>()
  const floors = new Map<TaskType, { items: number; parsed: number; rows: FloorRow[][] }>()
  let priorItems = 0
  for (const fold of folds) {
    const { questions, unparsed } = gatherQuestions(fold.audit, finder)
    const priorQs = fold.priors ? gatherQuestions(fold.priors.map((item) => ({ item })), finder).questions : []
    priorItems += fold.priors?.length ?? 0
    const answerers: Answerer[] = [...answerersFor(fold.priors ? learnPriors(fold.priors) : undefined), NAMED_ELSEWHERE, ...(fold.priors ? [learnedJoin(priorQs)] : [])]
    for (const [task, n] of unparsed) bump(counts, task).unparsed += n
    for (const q of questions) tallyQuestion(q, answerers, tallies, bump(counts, q.task))
    auditOpen(fold, finder, floors)
  }
  const taskOrder = [...TASKS_BY_TIER['Closed-QA'], ...YES_NO_TASKS.filter((t) => !TASKS_BY_TIER['Closed-QA'].includes(t))] as TaskType[]
  // Rows of answerers that abstained on every item of a task are not reported and cannot be a
  // false flag, so they do not lower the level of the others.
  const rowCount = [...tallies.values()].reduce((n, m) => n + [...m.values()].filter((t) => t.items > 0).length, 0)
  const closed = taskOrder.filter((t) => counts.has(t)).map((task): ClosedTaskReport => {
    const c = counts.get(task)!
    const rows = [...(tallies.get(task) ?? new Map<string, Tally>()).entries()].filter(([, t]) => t.items > 0).map(([name, t]) => answererRow(name, t, rowCount))
    return { task, items: c.items, unparsed: c.unparsed, chance: c.items ? c.chance / c.items : 0, answerers: rows }
  })
  const open = OPEN_TASKS.filter((t) => floors.has(t)).map((task) => mergeFloors(task, floors.get(task)!))
  const splits = [...new Set(folds.flatMap((f) => f.audit.map((i) => i.split ?? i.item.tag)))]
  const flagged = closed.reduce((n, t) => n + t.answerers.filter((a) => a.leak).length, 0)
  return { splits, priors: mode, priorItems, leftOut, leakPoints: LEAK_POINTS, minItems: MIN_ITEMS, alpha: ALPHA, closed, open, flagged }
}

function bump(m: Map<TaskType, { items: number; unparsed: number; chance: number }>, task: TaskType) {
  return m.get(task) ?? m.set(task, { items: 0, unparsed: 0, chance: 0 }).get(task)!
}

function tallyQuestion(q: AuditQuestion, answerers: readonly Answerer[], tallies: Map<TaskType, Map<string, Tally>>, count: { items: number; chance: number }): void {
  count.items++
  count.chance += chanceOf(q)
  const byName = tallies.get(q.task) ?? tallies.set(q.task, new Map<string, Tally>()).get(q.task)!
  for (const a of answerers) {
    const pick = a.pick(q)
    const t = byName.get(a.name) ?? byName.set(a.name, { describe: a.describe, items: 0, correct: 0, chance: 0, variance: 0 }).get(a.name)!
    if (pick === null) continue
    const p = chanceOf(q)
    t.items++
    t.chance += p
    t.variance += p * (1 - p)
    if (pick === q.gold) t.correct++
  }
}

/** One answerer over a list of questions, as its row in an audit of `rows` rows. */
export function answererRowOver(a: Answerer, qs: readonly ClosedQuestion[], rows = 1): AnswererRow {
  const t: Tally = { describe: a.describe, items: 0, correct: 0, chance: 0, variance: 0 }
  const tallies = new Map([[qs[0]?.task ?? 'closed_presence', new Map([[a.name, t]])]]) as Map<TaskType, Map<string, Tally>>
  for (const q of qs) tallyQuestion({ ...q, task: qs[0].task }, [a], tallies, { items: 0, chance: 0 })
  return answererRow(a.name, t, rows)
}

/** One answerer's row: accuracy, chance, margin, p-value and flags (`rows`: the audit's row count, for the flag's level). */
export function answererRow(name: string, t: Tally, rows: number): AnswererRow {
  const accuracy = t.items ? t.correct / t.items : 0
  const chance = t.items ? t.chance / t.items : 0
  const marginPoints = (accuracy - chance) * 100
  const pValue = t.variance > 0 ? upperTail((t.correct - t.chance) / Math.sqrt(t.variance)) : t.correct > t.chance ? 0 : 1
  const over = marginPoints > LEAK_POINTS
  const leak = over && t.items >= MIN_ITEMS && pValue < ALPHA / Math.max(1, rows)
  return { answerer: name, describe: t.describe, items: t.items, correct: t.correct, accuracy, chance, marginPoints, pValue, leak, fewItems: over && t.items < MIN_ITEMS, withinNoise: over && t.items >= MIN_ITEMS && !leak }
}

// P(Z > z) for a standard normal (Abramowitz and Stegun 7.1.26 on erfc; error below 1.5e-7).
function upperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2
  const t = 1 / (1 + 0.3275911 * x)
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x)
  return z >= 0 ? erfc / 2 : 1 - erfc / 2
}

function auditOpen(fold: Fold, finder: NameFinder, into: Map<TaskType, { items: number; parsed: number; rows: FloorRow[][] }>): void {
  for (const task of OPEN_TASKS) {
    const items = fold.audit.filter((i) => i.item.task_type === task).map((i) => i.item)
    if (!items.length) continue
    const r = openFloors(task, items, finder, fold.priors)
    const acc = into.get(task) ?? into.set(task, { items: 0, parsed: 0, rows: [] }).get(task)!
    acc.items += r.items
    acc.parsed += r.parsed
    acc.rows.push(r.floors)
  }
}

// The folds' floor rows of one task as one row per floor, weighted by the items each answered.
function mergeFloors(task: TaskType, acc: { items: number; parsed: number; rows: FloorRow[][] }): OpenTaskReport {
  const by = new Map<string, FloorRow>()
  for (const r of acc.rows.flat()) {
    const m = by.get(r.floor)
    if (!m) by.set(r.floor, { ...r })
    else by.set(r.floor, { ...m, items: m.items + r.items, score: (m.score * m.items + r.score * r.items) / (m.items + r.items) })
  }
  return { task, items: acc.items, parsed: acc.parsed, floors: [...by.values()] }
}
