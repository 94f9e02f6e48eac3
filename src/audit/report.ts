// The report of `pipeline qa audit` (docs/qa-checks.md): per closed task, each blind answerer's
// accuracy against chance over the items it answered; per open numeric task, the MAE of constant
// answers. An answerer is flagged when it beats chance by more than LEAK_POINTS over at least
// MIN_ITEMS items; with fewer items the row says "few items" instead. Pure.
import { TASKS_BY_TIER, type HoltercareItem, type TaskType } from '../qa/holtercare-format.ts'
import { answerersFor, type Answerer } from './answerers.ts'
import { OPEN_NUMERIC_TASKS, closedQuestion, learnPriors, openNumber, type ClosedQuestion } from './priors.ts'
import { mean, median } from '../qa/option-numbers.ts'

/** Points over chance above which an answerer is flagged. */
export const LEAK_POINTS = 5
/** Items an answerer must have answered for a flag; below it the row is marked few items. */
export const MIN_ITEMS = 100

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
  leak: boolean
  fewItems: boolean
}

export interface ClosedTaskReport {
  task: TaskType
  items: number
  /** Items whose options or answer did not parse (left out). */
  unparsed: number
  chance: number
  answerers: AnswererRow[]
}

export interface ConstantRow {
  /** "train median", "train mean" or "audited median (self)". */
  constant: string
  value: number
  mae: number
}

export interface OpenTaskReport {
  task: TaskType
  items: number
  parsed: number
  parseRate: number
  constants: ConstantRow[]
}

export interface AuditReport {
  splits: string[]
  trainItems: number | null
  leakPoints: number
  minItems: number
  closed: ClosedTaskReport[]
  open: OpenTaskReport[]
  /** Rows flagged as a leak (few-items rows excepted). */
  flagged: number
}

/** Audits items (closed: blind answerers; open numeric: constant answers), with priors from `train` when given. */
export function auditItems(items: readonly { split?: string; item: HoltercareItem }[], train?: readonly HoltercareItem[]): AuditReport {
  const priors = train ? learnPriors(train) : undefined
  const answerers = answerersFor(priors)
  const byTask = new Map<TaskType, HoltercareItem[]>()
  for (const { item } of items) (byTask.get(item.task_type) ?? byTask.set(item.task_type, []).get(item.task_type)!).push(item)
  const closed = TASKS_BY_TIER['Closed-QA'].filter((t) => byTask.has(t)).map((t) => closedTask(t, byTask.get(t)!, answerers))
  const open = OPEN_NUMERIC_TASKS.filter((t) => byTask.has(t)).map((t) => openTask(t, byTask.get(t)!, priors?.numbers.get(t)))
  const splits = [...new Set(items.map((i) => i.split).filter((s): s is string => s !== undefined))]
  const flagged = closed.reduce((n, t) => n + t.answerers.filter((a) => a.leak).length, 0)
  return { splits, trainItems: train ? train.length : null, leakPoints: LEAK_POINTS, minItems: MIN_ITEMS, closed, open, flagged }
}

const chanceOf = (q: ClosedQuestion) => (q.options ? 1 / q.options.length : 1 / 2)

function closedTask(task: TaskType, items: HoltercareItem[], answerers: Answerer[]): ClosedTaskReport {
  const qs = items.map(closedQuestion).filter((q): q is ClosedQuestion => q !== null)
  const rows = answerers.map((a) => answererRow(a, qs)).filter((r) => r.items > 0)
  return { task, items: qs.length, unparsed: items.length - qs.length, chance: qs.length ? mean(qs.map(chanceOf)) : 0, answerers: rows }
}

/** One answerer over a task's questions: accuracy, chance over what it answered, margin and flags. */
export function answererRow(a: Answerer, qs: readonly ClosedQuestion[]): AnswererRow {
  let items = 0
  let correct = 0
  let chanceSum = 0
  for (const q of qs) {
    const pick = a.pick(q)
    if (pick === null) continue
    items++
    chanceSum += chanceOf(q)
    if (pick === q.gold) correct++
  }
  const accuracy = items ? correct / items : 0
  const chance = items ? chanceSum / items : 0
  const marginPoints = (accuracy - chance) * 100
  const over = marginPoints > LEAK_POINTS
  return { answerer: a.name, describe: a.describe, items, correct, accuracy, chance, marginPoints, leak: over && items >= MIN_ITEMS, fewItems: over && items < MIN_ITEMS }
}

function openTask(task: TaskType, items: HoltercareItem[], trainNumbers?: number[]): OpenTaskReport {
  const values = items.map(openNumber).filter((v): v is number => v !== null)
  const constants: ConstantRow[] = []
  const mae = (c: number) => mean(values.map((v) => Math.abs(v - c)))
  if (values.length) {
    if (trainNumbers?.length) {
      constants.push({ constant: 'train median', value: median(trainNumbers), mae: 0 }, { constant: 'train mean', value: mean(trainNumbers), mae: 0 })
    } else {
      constants.push({ constant: 'audited median (self)', value: median(values), mae: 0 })
    }
    for (const c of constants) c.mae = mae(c.value)
  }
  return { task, items: items.length, parsed: values.length, parseRate: items.length ? values.length / items.length : 0, constants }
}
