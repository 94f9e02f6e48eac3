// How report numbers are written in tables (view.ts, markdown.ts): percent-scale metrics with
// one decimal, MAE with one decimal (counts) or none (ms), intervals in brackets, p-values with
// three significant digits. A metric with no value is null (a dash in markdown) unless it has a
// note, which is shown instead ("unavailable", "not computed"). Pure.
import type { MetricValue } from './report-types.ts'
import type { MetricKey } from './task-metrics.ts'
import { taskModule } from '../qa/tasks/index.ts'

/** A number with `digits` decimals, or null. */
export function num(x: number | null | undefined, digits = 1): string | null {
  return typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : null
}

/** Decimals for a metric's values: MAE of ms timestamps needs none. */
export function digitsFor(key: MetricKey, task: string): number {
  return (key === 'mae' && taskModule(task)?.unit === 'ms') ? 0 : 1
}

/** A metric cell: "72.3 [60.1, 80.2]", "72.3", the note's first words, or null. */
export function metricCell(m: MetricValue | undefined, digits = 1): string | null {
  if (!m) return null
  if (m.value === null) return m.note ? m.note.split(':')[0] : null
  const v = num(m.value, digits)!
  if (!m.ci || m.ci.low === null || m.ci.high === null) return v
  return `${v} [${num(m.ci.low, digits)}, ${num(m.ci.high, digits)}]`
}

/** A p-value: 0.0312, 1.00e-5. */
export function pValue(p: number): string {
  if (p >= 0.001) return p.toFixed(4)
  return p.toExponential(2)
}

/** A share in percent with one decimal. */
export function percent(x: number | null | undefined): string | null {
  return typeof x === 'number' && Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : null
}
