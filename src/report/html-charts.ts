// The report's charts in the page: each chart's SVG inline in a <figure>, with its data as a
// table under <details> (the text alternative for screen readers and for copying numbers). The
// caption is for screen readers only: the SVG shows the same title, which the PNG needs too.
import { PipelineError } from '../core/errors.ts'
import { renderChartSvg } from './chart-render.ts'
import { chartSpec, validateChart } from './chart-spec.ts'
import { cellText, escapeHtml } from './html-escape.ts'
import type { ReportChart, ReportView } from './html-types.ts'

/** Every chart of the view, in order, validated; E_INTERNAL when one is invalid or two share an id (ids name elements and files). */
export function chartsOf(view: ReportView): ReportChart[] {
  const charts = view.sections.flatMap((s) => s.charts)
  const seen = new Set<string>()
  for (const c of charts) {
    validateChart(c)
    if (seen.has(c.id)) throw new PipelineError('E_INTERNAL', `report chart id "${c.id}" is used twice; chart ids must be unique (they name charts/<id>.png)`, { chart: c.id })
    seen.add(c.id)
  }
  return charts
}

/** Each chart's SVG keyed by chart id, rendered one after another. */
export async function renderChartSvgs(view: ReportView): Promise<Map<string, string>> {
  const svgs = new Map<string, string>()
  for (const chart of chartsOf(view)) svgs.set(chart.id, await renderChartSvg(chartSpec(chart)))
  return svgs
}

/** A chart as <figure class="chart" id="chart-<id>">: caption, inline SVG, data table. */
export function renderChartFigure(chart: ReportChart, svg: string): string {
  const rows = chart.data.map((d) => {
    const ci = d.low === null || d.high === null ? '–' : `${cellText(d.low)} – ${cellText(d.high)}`
    return `<tr><td>${escapeHtml(d.task)}</td><td>${escapeHtml(d.model)}</td><td class="num">${escapeHtml(cellText(d.value))}</td><td class="num">${escapeHtml(ci)}</td></tr>`
  })
  return [
    `<figure class="chart" id="chart-${chart.id}" aria-labelledby="chart-${chart.id}-caption">`,
    `<figcaption id="chart-${chart.id}-caption" class="sr-only">${escapeHtml(chart.title)}</figcaption>`,
    inlineSvg(svg),
    `<details><summary>Data of this chart</summary><div class="table-wrap"><table class="chart-data">`,
    `<caption>${escapeHtml(chart.title)}: ${escapeHtml(chart.yLabel)} per task and model</caption>`,
    `<thead><tr><th scope="col">Task</th><th scope="col">Model</th><th scope="col">${escapeHtml(chart.yLabel)}</th><th scope="col">Interval</th></tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody></table></div></details>`,
    '</figure>',
  ].join('\n')
}

// Inline <svg> in HTML needs no namespace declarations; dropping them from the opening tag keeps
// the page free of any http(s) string, which the tests check to prove nothing is fetched.
function inlineSvg(svg: string): string {
  return svg.replace(/^<svg\b[^>]*>/, (open) => open.replace(/ xmlns(?::\w+)?="[^"]*"/g, ''))
}
