// The generic structure a score report is shown from (report/index.html): a title and
// sections, each with tables, charts and sample items. The HTML report (src/report/html-*.ts) and
// its charts (chart-*.ts) render this and nothing else, and markdown.ts prints its tables, so
// every reader sees the same numbers. This shape is a contract between those files: add fields,
// do not rename or remove them.
//   - table:  caption, column names, rows of cells (a string, a number, or null for "no value").
//             Metric cells are preformatted strings such as "72.3 [60.1, 80.2]" (value and the
//             95 % bootstrap interval over cases).
//   - chart:  kind 'bars-with-ci': one bar per (task, model) with its interval; `low`/`high` are
//             null when there is no interval. `yLabel` names the axis; all values of a chart
//             share one scale (0-100 for every chart made here).
//   - sample: one item in full: question, gold answer, the absolute path of its first image
//             input (the excerpt's strip) when it has one, and every model's answer with its
//             per-item score in words.
//   - signatures: what each metric computed (key and text), shown after the sections.
// Pure.
import { closedTable, openTable, multitaskTable, reportTable, bleuTable, mcnemarTable, winRateTable, countsTable, scoreMaeTable, problemsTable, type ViewTable } from './view-tables.ts'
import { modalityChart, modalityTables } from './view-modalities.ts'
import type { ScoreReport } from './report-types.ts'
import { taskKind, tierName, type MetricKey } from './task-metrics.ts'

export type { Cell, ViewTable } from './view-tables.ts'

export interface ViewChart {
  /** Unique in the view, usable as a file name (`<id>.png`). */
  id: string
  title: string
  kind: 'bars-with-ci'
  yLabel: string
  data: { task: string; model: string; value: number; low: number | null; high: number | null }[]
}

export interface ViewSample {
  task: string
  question: string
  gold: string
  /** Absolute path of the item's first image. */
  image?: string
  answers: { model: string; answer: string; score: string }[]
}

export interface ViewSection {
  heading: string
  tables: ViewTable[]
  charts: ViewChart[]
  samples: ViewSample[]
}

export interface ReportView {
  title: string
  /** What was scored and how, in one paragraph. */
  subtitle: string
  sections: ViewSection[]
  signatures: { metric: string; signature: string }[]
}

// The percent-scale metric a task's bar shows.
const CHART_METRIC: Record<string, MetricKey> = { choice: 'accuracy', count: 'scoreMae', timestamp: 'scoreMae', timestamps: 'timestampF1', labels: 'labelF1', yesno: 'yesNoAccuracy', report: 'rougeL' }

/** The sections of a report (closed, open and report tasks, BLEU, modalities, paired tests, win rates, counts, parameters, problems) and its signatures. */
export function reportView(r: ScoreReport): ReportView {
  const tier = (t: string) => tierName(t) === 'Multitask' ? 'multitask' : taskKind(t) === 'choice' ? 'closed' : taskKind(t) === 'report' ? 'report' : 'open'
  const section = (heading: string, tables: (ViewTable | null)[], charts: (ViewChart | null)[] = [], samples: ViewSample[] = []): ViewSection | null => {
    const t = tables.filter((x): x is ViewTable => x !== null)
    const c = charts.filter((x): x is ViewChart => x !== null)
    return t.length || c.length || samples.length ? { heading, tables: t, charts: c, samples } : null
  }
  const sections = [
    section('Closed tasks', [closedTable(r)], [chart(r, 'closed', 'Closed tasks: accuracy', 'accuracy %')], samplesOf(r, (t) => tier(t) === 'closed')),
    section('Open tasks', [openTable(r)], [chart(r, 'open', 'Open tasks: ScoreMAE, timestamp F1, label F1, yes/no accuracy', 'score (0-100)')], samplesOf(r, (t) => tier(t) === 'open')),
    section('Reports', [reportTable(r)], [chart(r, 'report', r.settings.scoreGpt.startsWith('not computed') ? 'Reports: ROUGE-L' : 'Reports: ROUGE-L (ScoreGPT in the table)', 'ROUGE-L F')], samplesOf(r, (t) => tier(t) === 'report')),
    section('ECG multi-task benchmark', [multitaskTable(r)], [], samplesOf(r, (t) => tier(t) === 'multitask')),
    section('BLEU', [bleuTable(r, 1), bleuTable(r, 4)]),
    section('Modalities', modalityTables(r), [modalityChart(r)]),
    section('Paired tests', [mcnemarTable(r)]),
    section('Win rates', [winRateTable(r)]),
    section('Counts and parameters', [countsTable(r), scoreMaeTable(r), problemsTable(r)]),
  ]
  return {
    title: r.title,
    subtitle: reportSummary(r).join(' '),
    sections: sections.filter((s): s is ViewSection => s !== null),
    signatures: Object.entries(r.signatures).map(([metric, signature]) => ({ metric, signature })),
  }
}

/** What was scored and how, in three sentences (the view's subtitle, report.md's opening). */
export function reportSummary(r: ScoreReport): string[] {
  const src = r.sources.runs ? `runs: ${r.sources.runs.join(', ')}` : `QA folder ${r.sources.qa}, predictions ${r.sources.predictions}`
  const s = r.settings
  return [
    `Scored ${src}; ${r.systems.length} systems, ${r.tasks.length} tasks (${r.tool.name} ${r.tool.version}).`,
    `Intervals: ${Math.round(s.bootstrap.level * 100)} % percentile bootstrap over cases, ${s.bootstrap.resamples} resamples, seed ${s.seed}. Unparsed answers are wrong for accuracy, predict nothing for F1 and are left out of MAE; failed and missing predictions are counted, not scored.`,
    `F1-Bio: ${s.f1Bio}. ScoreGPT: ${s.scoreGpt}.`,
  ]
}

function chart(r: ScoreReport, which: 'closed' | 'open' | 'report', title: string, yLabel: string): ViewChart | null {
  const data: ViewChart['data'] = []
  for (const row of r.rows) {
    const kind = taskKind(row.task)
    const inTier = which === 'closed' ? kind === 'choice' : which === 'report' ? kind === 'report' : kind !== null && kind !== 'choice' && kind !== 'report'
    if (!inTier) continue
    const m = row.metrics[CHART_METRIC[kind!]]
    if (!m || m.value === null) continue
    data.push({ task: row.task, model: row.system, value: m.value, low: m.ci?.low ?? null, high: m.ci?.high ?? null })
  }
  return data.length ? { id: `chart-${which}`, title, kind: 'bars-with-ci', yLabel, data } : null
}

function samplesOf(r: ScoreReport, keep: (task: string) => boolean): ViewSample[] {
  return r.samples.filter((s) => keep(s.task)).map((s) => ({
    task: s.task, question: s.question, gold: s.gold, ...(s.image ? { image: s.image } : {}),
    answers: s.answers.map((a) => ({ model: a.system, answer: a.answer, score: a.score })),
  }))
}
