// The paper's Table 11 (one model shown the recording as text and as video), for any modalities:
// per model scored in two or more (modality-differences.ts says which), each task's deciding
// metric in each modality, the difference with its paired interval (report.modalities), and a
// chart of the percent-scale ones. Baselines have the one modality `none` and never appear. Pure.
import { ciLabel, type Cell, type ViewTable } from './view-tables.ts'
import { digitsFor, metricCell, num } from './report-format.ts'
import type { ScoreReport, TaskRow } from './report-types.ts'
import { LOWER_IS_BETTER, METRIC_LABELS, type MetricKey } from './task-metrics.ts'
import type { ViewChart } from './view.ts'
import { multimodalModels } from './modality-differences.ts'

type Multimodal = ReturnType<typeof multimodalModels>[number]

// MAE is in the task's unit (events, ms); every other metric is 0-100 (report-types.ts).
const OWN_UNIT: ReadonlySet<MetricKey> = new Set(['mae'])

/** One table per list of modalities (usually one: text, video) of the models scored in several; [] when none was. */
export function modalityTables(r: ScoreReport): ViewTable[] {
  const groups = new Map<string, Multimodal[]>()
  for (const m of multimodal(r)) {
    const key = m.systems.map((s) => s.modality).join('\u0000')
    groups.set(key, [...(groups.get(key) ?? []), m])
  }
  return [...groups.values()].map((models) => modalityTable(r, models))
}

/** The percent-scale deciding metric of each task, one bar per system of each model scored in several modalities; null when there is none. */
export function modalityChart(r: ScoreReport): ViewChart | null {
  const data: ViewChart['data'] = []
  let leftOut = false
  for (const task of r.tasks) {
    for (const m of multimodal(r)) {
      const metric = metricOf(r, task, m)
      if (!metric) continue
      if (OWN_UNIT.has(metric)) {
        leftOut = true
        continue
      }
      for (const s of m.systems) {
        const v = rowOf(r, s.system, task)?.metrics[metric]
        if (v && v.value !== null) data.push({ task, model: s.system, value: v.value, low: v.ci?.low ?? null, high: v.ci?.high ?? null })
      }
    }
  }
  if (!data.length) return null
  const title = `One model, different modalities: each task's deciding metric${leftOut ? ' (MAE tasks in the table only)' : ''}`
  return { id: 'chart-modalities', title, kind: 'bars-with-ci', yLabel: 'score (0-100)', data }
}

function modalityTable(r: ScoreReport, models: Multimodal[]): ViewTable {
  const modalities = models[0].systems.map((s) => s.modality)
  const [first, ...later] = modalities
  const rows: Cell[][] = []
  const used = new Set<MetricKey>()
  for (const task of r.tasks) {
    for (const m of models) {
      const metric = metricOf(r, task, m)
      if (!metric) continue
      used.add(metric)
      const values = m.systems.map((s) => rowOf(r, s.system, task)?.metrics[metric])
      const digits = digitsFor(metric, task)
      rows.push([task, m.model, METRIC_LABELS[metric], ...values.map((v) => metricCell(v, digits)),
        ...m.systems.slice(1).map((s, k) => differenceCell(r, m.systems[0].system, s.system, task, metric, values[0]?.value, values[k + 1]?.value, digits))])
    }
  }
  const lower = [...used].filter((k) => LOWER_IS_BETTER.has(k)).map((k) => METRIC_LABELS[k])
  return {
    caption: `Table 11: one model shown different modalities (${modalities.join(', ')}): each task's deciding metric [${ciLabel(r)}]; `
      + `difference = ${later.map((l) => `${l} - ${first}`).join(', ')} [paired ${ciLabel(r)}: the same cases drawn for both]${lower.length ? `; for ${lower.join(', ')} lower is better` : ''}`,
    columns: ['task', 'model', 'metric', ...modalities, ...later.map((l) => `difference (${l} - ${first})`)],
    rows,
  }
}

// Models with rows in two or more modalities (modality-differences.ts), their systems in the report's order.
function multimodal(r: ScoreReport): Multimodal[] {
  return multimodalModels(r.systems.filter((s) => r.rows.some((x) => x.system === s.system)))
}

// "b - a [low, high]" from the report's paired difference; the bare difference of the two values
// when the report has none for this pair (a report.json written before it had them).
function differenceCell(r: ScoreReport, a: string, b: string, task: string, metric: MetricKey, va: number | null | undefined, vb: number | null | undefined, digits: number): string | null {
  const d = (r.modalities ?? []).find((x) => x.a === a && x.b === b && x.task === task && x.metric === metric)
  if (!d) return signed(difference(va, vb), digits)
  const value = signed(d.difference, digits)
  if (value === null || d.ci.low === null || d.ci.high === null) return value
  return `${value} [${signed(d.ci.low, digits)}, ${signed(d.ci.high, digits)}]`
}

// The metric deciding the task (win rates'), else the first metric of the model's first row on it.
function metricOf(r: ScoreReport, task: string, m: Multimodal): MetricKey | null {
  const rows = m.systems.map((s) => rowOf(r, s.system, task)).filter((x): x is TaskRow => x !== undefined)
  if (!rows.length) return null
  return r.winRates.metricByTask[task] ?? (Object.keys(rows[0].metrics)[0] as MetricKey | undefined) ?? null
}

const rowOf = (r: ScoreReport, system: string, task: string) => r.rows.find((x) => x.system === system && x.task === task)

function difference(a: number | null | undefined, b: number | null | undefined): number | null {
  return typeof a === 'number' && typeof b === 'number' ? b - a : null
}

// "+3.2", "-1.0", "0.0": the sign says which modality scored higher.
function signed(x: number | null, digits: number): string | null {
  const s = num(x, digits)
  if (s === null) return null
  if (Number(s) === 0) return (0).toFixed(digits)
  return x! > 0 ? `+${s}` : s
}
