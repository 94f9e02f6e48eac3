// The tables of a score report (the paper's Tables 4, 5, 6, 9-10 and 12, plus counts, win rates,
// ScoreMAE's parameters and problems; Table 11 is in view-modalities.ts), as plain captions,
// columns and rows that both view.ts (HTML) and markdown.ts render. Pure.
import { metricCell, num, pValue, percent, digitsFor } from './report-format.ts'
import type { ReportSystem, ScoreReport, TaskRow } from './report-types.ts'
import { METRIC_LABELS, taskKind, taskMetrics, type MetricKey } from './task-metrics.ts'

export type Cell = string | number | null

export interface ViewTable {
  caption: string
  columns: string[]
  rows: Cell[][]
}

const rowOf = (r: ScoreReport, system: string, task: string) => r.rows.find((x) => x.system === system && x.task === task)
const who = (s: Pick<ReportSystem, 'model' | 'modality'>): Cell[] => [s.model, s.modality]
const TASK_METRIC: Partial<Record<string, MetricKey>> = { count: 'mae', timestamp: 'mae', timestamps: 'timestampF1', labels: 'labelF1', yesno: 'yesNoAccuracy' }

/** Closed-task accuracy per system (Table 4). */
export function closedTable(r: ScoreReport): ViewTable | null {
  const tasks = r.tasks.filter((t) => taskKind(t) === 'choice')
  if (!tasks.length) return null
  const systems = r.systems.filter((s) => tasks.some((t) => rowOf(r, s.system, t)))
  return {
    caption: `Closed tasks: accuracy % [${ciLabel(r)}] (Table 4)`,
    columns: ['model', 'modality', ...tasks],
    rows: systems.map((s) => [...who(s), ...tasks.map((t) => metricCell(rowOf(r, s.system, t)?.metrics.accuracy))]),
  }
}

/** Open-task metrics per system and task (Table 6). */
export function openTable(r: ScoreReport): ViewTable | null {
  const rows = r.rows.filter((x) => x.tier === 'Open-QA')
  if (!rows.length) return null
  return {
    caption: `Open tasks: the task's own metric, ScoreMAE, ROUGE-L and F1-Bio [${ciLabel(r)}] (Table 6)`,
    columns: ['model', 'modality', 'task', 'n', 'metric', 'value', 'ScoreMAE', 'ROUGE-L', 'F1-Bio'],
    rows: rows.map((x) => {
      const own = TASK_METRIC[taskKind(x.task) ?? ''] ?? null
      return [...who(x), x.task, x.n, own ? METRIC_LABELS[own] : null, own ? metricCell(x.metrics[own], digitsFor(own, x.task)) : null,
        metricCell(x.metrics.scoreMae), metricCell(x.metrics.rougeL), metricCell(x.metrics.f1Bio)]
    }),
  }
}

/** The ECG multi-task benchmark's tasks per system: MAE (the task's unit), binary F1 or accuracy. */
export function multitaskTable(r: ScoreReport): ViewTable | null {
  const rows = r.rows.filter((x) => x.tier === 'Multitask')
  if (!rows.length) return null
  return {
    caption: `ECG multi-task benchmark: MAE (lower is better), F1 (female positive) and accuracy % [${ciLabel(r)}]`,
    columns: ['model', 'modality', 'task', 'n', 'metric', 'value'],
    rows: rows.map((x) => {
      const own = taskMetrics(x.task)[0]
      return [...who(x), x.task, x.n, METRIC_LABELS[own], metricCell(x.metrics[own], digitsFor(own, x.task))]
    }),
  }
}

/** Report-task metrics per system and task (Table 5). */
export function reportTable(r: ScoreReport): ViewTable | null {
  const rows = r.rows.filter((x) => taskKind(x.task) === 'report')
  if (!rows.length) return null
  const keys: MetricKey[] = ['scoreGpt', 'bleu1', 'bleu4', 'rougeL', 'f1Bio']
  return {
    caption: `Report tasks [${ciLabel(r)}] (Table 5)`,
    columns: ['model', 'modality', 'task', 'n', ...keys.map((k) => METRIC_LABELS[k])],
    rows: rows.map((x) => [...who(x), x.task, x.n, ...keys.map((k) => metricCell(x.metrics[k]))]),
  }
}

/** Mean sentence BLEU-n with the corpus BLEU-n in parentheses, per system and text task (Tables 9-10). */
export function bleuTable(r: ScoreReport, order: 1 | 4): ViewTable | null {
  const tasks = r.tasks.filter((t) => taskMetrics(t).includes('bleu1'))
  if (!tasks.length) return null
  const [mean, corpus] = order === 1 ? (['bleu1', 'corpusBleu1'] as const) : (['bleu4', 'corpusBleu4'] as const)
  const cell = (x: TaskRow | undefined): Cell => {
    const m = num(x?.metrics[mean]?.value)
    return m === null ? null : `${m} (${num(x?.metrics[corpus]?.value) ?? '-'})`
  }
  return {
    caption: `BLEU-${order}: mean sentence score (corpus score) (Table ${order === 1 ? 9 : 10})`,
    columns: ['model', 'modality', ...tasks],
    rows: r.systems.filter((s) => tasks.some((t) => rowOf(r, s.system, t))).map((s) => [...who(s), ...tasks.map((t) => cell(rowOf(r, s.system, t)))]),
  }
}

/** McNemar p-values of the pairs asked (Table 12). */
export function mcnemarTable(r: ScoreReport): ViewTable | null {
  if (!r.comparisons.length) return null
  return {
    caption: `McNemar's test on the closed items both systems answered (${r.settings.mcnemar.exact ? 'exact binomial' : 'chi-square, continuity-corrected'}) (Table 12)`,
    columns: ['A', 'B', 'task', 'n', 'both right', 'only A right', 'only B right', 'both wrong', 'acc A %', 'acc B %', 'p-value'],
    rows: r.comparisons.map((c) => [c.a, c.b, c.task, c.n, c.table[0][0], c.table[0][1], c.table[1][0], c.table[1][1], num(c.accuracyA), num(c.accuracyB), pValue(c.pValue)]),
  }
}

const TIES: Record<string, string> = { shared: 'a tie for best is a win for each', split: 'a tie for best is shared out', none: 'a tie for best is no one\'s win' }

/** Each system's (or model's) share of contests won. */
export function winRateTable(r: ScoreReport): ViewTable | null {
  const entries = Object.entries(r.winRates.systems)
  if (!entries.length) return null
  const by = Object.entries(r.winRates.metricByTask).map(([t, m]) => `${t}: ${METRIC_LABELS[m]}`).join('; ')
  const perModality = r.winRates.contestKind === 'task-modality'
  const ties = TIES[r.settings.winRateTies] ?? r.settings.winRateTies
  return {
    caption: `Win rate over ${perModality ? 'task x modality contests between models (baselines enter every modality)' : 'tasks'}; ${ties} (${by})`,
    columns: [perModality ? 'model' : 'system', 'wins', 'contests', 'entered', 'win rate'],
    rows: entries.map(([s, w]) => [s, w.wins, w.contests, w.entered, percent(w.rate)]),
  }
}

/** What each row was computed on: items read, cases, and what was not scored. */
export function countsTable(r: ScoreReport): ViewTable {
  return {
    caption: 'Items per system and task: read (scored or unparsed), cases, unparsed, failed, missing, without gold',
    columns: ['model', 'modality', 'task', 'read', 'cases', 'unparsed', 'failed', 'missing', 'no gold'],
    rows: r.rows.map((x) => [...who(x), x.task, x.n, x.cases, x.unparsed, x.failed, x.missing, x.noGold]),
  }
}

/** ScoreMAE's mu and sigma per task, and the baselines they come from. */
export function scoreMaeTable(r: ScoreReport): ViewTable | null {
  if (!r.scoreMae.length) return null
  return {
    caption: `ScoreMAE parameters (baselines declared: ${r.settings.baselines.declared.join(', ')}${r.settings.baselines.default ? ', the default' : ''})`,
    columns: ['task', 'baselines', 'mu', 'sigma', 'note'],
    rows: r.scoreMae.map((s) => [s.task, s.baselines.join(', ') || null, num(s.mu, 2), num(s.sigma, 2), s.note ?? null]),
  }
}

/** What could not be scored. */
export function problemsTable(r: ScoreReport): ViewTable | null {
  if (!r.problems.length) return null
  return { caption: 'Problems', columns: ['kind', 'count', 'message', 'examples'], rows: r.problems.map((p) => [p.kind, p.count ?? null, p.message, p.examples?.join('; ') ?? null]) }
}

/** What the brackets of metric cells are, for captions. */
export function ciLabel(r: ScoreReport): string {
  return `${Math.round(r.settings.bootstrap.level * 100)} % CI, bootstrap over cases`
}
