// Vega-Lite specs for the report's charts (per-task scores with CIs per model).
//
// A chart is a spec, not hand-drawn SVG: Vega-Lite lays out axes, legends and label collisions,
// and the same spec gives the inline SVG of index.html and the PNG files (chart-render.ts).
// The spec is deterministic: data inline and in the given order, tasks and models as explicit
// scale domains in order of first appearance (never sorted by value), a fixed palette, and no
// size or font taken from the environment.
import type { TopLevelSpec } from 'vega-lite'
import { PipelineError } from '../core/errors.ts'
import type { ReportChart } from './html-types.ts'

/** Width of one bar (px); a task's group is this times the number of models. */
const BAR_PX = 18
const HEIGHT_PX = 240
/** Tableau 10, then Tableau 20 when more than ten models share a chart. */
const FEW = 'tableau10'
const MANY = 'tableau20'
/** A chart id names an HTML element and a file (charts/<id>.png). */
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/** Throws E_INTERNAL when the chart cannot be drawn faithfully (bad id, kind, or numbers). */
export function validateChart(chart: ReportChart): void {
  const fail = (message: string, context: Record<string, unknown> = {}): never => {
    throw new PipelineError('E_INTERNAL', `report chart "${chart.id}": ${message}`, { chart: chart.id, ...context })
  }
  if (!ID.test(chart.id)) fail('the id must be 1-100 letters, digits, ".", "_" or "-", starting with a letter or digit (it names charts/<id>.png); fix the report view')
  if (chart.kind !== 'bars-with-ci') fail(`unknown kind "${String(chart.kind)}"; expected "bars-with-ci"`)
  chart.data.forEach((d, i) => {
    if (!Number.isFinite(d.value)) fail(`data[${i}] (${d.task}, ${d.model}): value is ${d.value}, expected a finite number; leave the bar out instead`, { index: i })
    if ((d.low === null) !== (d.high === null)) fail(`data[${i}] (${d.task}, ${d.model}): low and high must both be numbers or both null`, { index: i })
    if (d.low !== null && d.high !== null && !(Number.isFinite(d.low) && Number.isFinite(d.high) && d.low <= d.high)) {
      fail(`data[${i}] (${d.task}, ${d.model}): interval [${d.low}, ${d.high}] is not finite with low <= high`, { index: i })
    }
  })
}

/** Values in order of first appearance, without repeats. */
function firstSeen(values: string[]): string[] {
  return [...new Set(values)]
}

/** The Vega-Lite spec of a 'bars-with-ci' chart: bars grouped by task, one colour per model, a whisker from low to high where present. */
export function chartSpec(chart: ReportChart): TopLevelSpec {
  validateChart(chart)
  const tasks = firstSeen(chart.data.map((d) => d.task))
  const models = firstSeen(chart.data.map((d) => d.model))
  const y = { type: 'quantitative' as const, scale: { domain: yDomain(chart), nice: true }, title: chart.yLabel }
  const whisker = { filter: 'isValid(datum.low) && isValid(datum.high)' }
  const cap = (field: 'low' | 'high') => ({
    transform: [whisker],
    mark: { type: 'tick' as const, orient: 'horizontal' as const, color: '#222', size: BAR_PX / 2, thickness: 1 },
    encoding: { y: { ...y, field } },
  })
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    description: `${chart.title}: ${chart.yLabel} per task and model${chart.data.some((d) => d.low !== null) ? ', with confidence intervals' : ''}`,
    title: chart.title,
    background: 'white',
    width: { step: BAR_PX, for: 'offset' },
    height: HEIGHT_PX,
    data: { values: chart.data.map((d) => ({ ...d })) },
    encoding: {
      x: { field: 'task', type: 'nominal', title: null, scale: { domain: tasks, paddingInner: 0.25 }, axis: { labelAngle: -30, labelLimit: 240 } },
      xOffset: { field: 'model', type: 'nominal', scale: { domain: models } },
    },
    layer: [
      { mark: 'bar', encoding: { y: { ...y, field: 'value' }, color: { field: 'model', type: 'nominal', title: 'Model', scale: { domain: models, scheme: models.length > 10 ? MANY : FEW } } } },
      { transform: [whisker], mark: { type: 'rule', color: '#222' }, encoding: { y: { ...y, field: 'low' }, y2: { field: 'high' } } },
      cap('low'),
      cap('high'),
    ],
    config: {
      font: 'sans-serif',
      title: { fontSize: 14, fontWeight: 'normal', anchor: 'start' },
      axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal' },
      legend: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal' },
    },
  }
}

// The value axis starts at 0 and reaches the highest bar or whisker, so every layer shares one
// scale whose extent does not depend on which layer Vega-Lite unions first.
function yDomain(chart: ReportChart): [number, number] {
  let lo = 0
  let hi = 0
  for (const d of chart.data) {
    lo = Math.min(lo, d.value, d.low ?? 0)
    hi = Math.max(hi, d.value, d.high ?? 0)
  }
  return [lo, hi === lo ? lo + 1 : hi]
}
