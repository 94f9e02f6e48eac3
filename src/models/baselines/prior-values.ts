// What the prior baseline learns from train items only: the audit's priors (src/qa/audit-priors.ts,
// over the items' public elements as `pipeline qa audit --train` reads them: correct letters per
// task and option count, the free-text yes/no split), and the values of the open tasks: the
// median count, the median number of event times and where they fall in the excerpt, the median
// offset of the fastest / slowest rate from the excerpt's start, the most frequent label set, the
// yes/no split of evidence answers and a typical report (prior-report.ts). Pure.
import type { QaItem } from '../../core/items.ts'
import { learnPriors, type Priors } from '../../audit/priors.ts'
import { median, parseTimestampAnswer } from '../../qa/option-numbers.ts'
import { publicElement } from '../../holtercare/layout.ts'
import { isTaskType } from '../../holtercare/format.ts'
import { taskKind } from '../../report/task-metrics.ts'
import type { ReportFigures } from '../../qa/report-figures.ts'
import { DEFAULT_VOCABULARY } from '../../qa/vocabulary.ts'
import { askedExtremum, askedSpan, mentionedLabels } from '../../qa/question-read.ts'
import { learnTypicalReport, mostCommon, type TypicalReport } from './prior-report.ts'

export interface ValuePriors {
  audit: Priors
  /** Evidence items answered yes / no in train. */
  evidenceYesNo: { yes: number; no: number }
  /** The median open count (rounded), or null. */
  count: number | null
  /** Open event timing: the median list length and every train time as an offset from its excerpt's start, sorted. */
  timing: { count: number; offsets: number[] } | null
  /** Median offset of the extreme rate from the excerpt's start, by extremum (`any`: both). */
  extremeOffset: { fastest: number | null; slowest: number | null; any: number | null }
  /** The most frequent open diagnosis label set, or null. */
  labels: string[] | null
  report: TypicalReport | null
  /** Per regression task (the ECG multi-task benchmark's), the median train value. */
  values: Map<string, number>
  /** Per classification task, the most frequent train class. */
  classes: Map<string, number>
}

const startOf = (q: QaItem) => askedSpan(q.question)?.startMs ?? q.excerpt.startMs
const orNull = (xs: number[]) => (xs.length ? median(xs) : null)

/** Learns the value priors from train items (their public text, and their gold where the text has lists or figures). */
export function learnValuePriors(train: readonly QaItem[]): ValuePriors {
  const audit = learnPriors(train.filter((q) => isTaskType(q.taskType)).map(publicElement))
  const of = (task: string) => train.filter((q) => q.taskType === task)
  const evidenceYesNo = { yes: 0, no: 0 }
  for (const q of of('open_evidence_reasoning')) {
    const yn = /^(yes|no)\b/i.exec(q.answer.trim())
    if (yn) evidenceYesNo[yn[1].toLowerCase() as 'yes' | 'no']++
  }
  const counts = audit.numbers.get('open_event_counting') ?? []
  const lists = of('open_event_timing').map((q) => ({ start: startOf(q), times: q.gold.timestampsMs ?? [] })).filter((l) => l.times.length)
  const offsets = { fastest: [] as number[], slowest: [] as number[], any: [] as number[] }
  for (const q of train.filter((x) => x.taskType.endsWith('_HR_extremum_timing'))) {
    const t = typeof q.gold.value === 'number' ? q.gold.value : parseTimestampAnswer(q.answer)
    if (t === null) continue
    const which = q.gold.extremum ?? askedExtremum(q.question)
    if (which) offsets[which].push(t - startOf(q))
    offsets.any.push(t - startOf(q))
  }
  const labels = of('open_diagnosis').map((q) => q.gold.labels ?? mentionedLabels(q.answer, DEFAULT_VOCABULARY))
  const reports = train.filter((q) => q.taskType.startsWith('report_') && q.gold.figures).map((q) => ({ figures: q.gold.figures as unknown as ReportFigures, startMs: startOf(q) }))
  return {
    audit,
    evidenceYesNo,
    count: counts.length ? Math.round(median(counts)) : null,
    timing: lists.length ? { count: Math.max(1, Math.round(median(lists.map((l) => l.times.length)))), offsets: lists.flatMap((l) => l.times.map((t) => t - l.start)).sort((a, b) => a - b) } : null,
    extremeOffset: { fastest: orNull(offsets.fastest), slowest: orNull(offsets.slowest), any: orNull(offsets.any) },
    labels: mostCommon(labels, (l) => l.join('|')),
    report: learnTypicalReport(reports),
    ...multitaskPriors(train),
  }
}

// The regression tasks' median and the classification tasks' most frequent class, from train gold.
function multitaskPriors(train: readonly QaItem[]): Pick<ValuePriors, 'values' | 'classes'> {
  const byTask = new Map<string, number[]>()
  for (const q of train) {
    const kind = taskKind(q.taskType)
    if ((kind === 'number' || kind === 'class') && typeof q.gold.value === 'number') (byTask.get(q.taskType) ?? byTask.set(q.taskType, []).get(q.taskType)!).push(q.gold.value)
  }
  const values = new Map<string, number>()
  const classes = new Map<string, number>()
  for (const [task, xs] of byTask) {
    if (taskKind(task) === 'number') values.set(task, median(xs))
    else classes.set(task, Number(mostCommon(xs.map(String), (x) => x)))
  }
  return { values, classes }
}
