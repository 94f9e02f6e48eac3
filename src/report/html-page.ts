// The report as one self-contained HTML page: inline CSS, each chart's SVG inline,
// sample strips as data: URLs, no script, no external font or URL. A Content-Security-Policy
// meta tag forbids loading anything else, so a page that shows correctly offline is guaranteed
// not to depend on the network. All text from the view is escaped (html-escape.ts).
import { PipelineError } from '../core/errors.ts'
import { escapeHtml, paragraphs } from './html-escape.ts'
import { chartsOf, renderChartFigure, renderChartSvgs } from './html-charts.ts'
import { renderSample, sampleImageSources } from './html-samples.ts'
import { REPORT_CSS } from './html-style.ts'
import { renderSignatures, renderTable } from './html-tables.ts'
import type { ReportSection, ReportView } from './html-types.ts'

export interface ReportHtmlOptions {
  /** Sample images as data: URLs (default), or file: URLs that work only on this machine. */
  embedImages?: boolean
  /** Chart SVGs already rendered (by id), e.g. by writeReport, which also makes PNGs from them. */
  svgs?: ReadonlyMap<string, string>
}

/** The HTML of the report page for `view`. */
export async function renderReportHtml(view: ReportView, options: ReportHtmlOptions = {}): Promise<string> {
  const embed = options.embedImages ?? true
  chartsOf(view) // ids valid and unique, before any rendering
  const svgs = options.svgs ?? (await renderChartSvgs(view))
  const images = await sampleImageSources(view, embed)
  const csp = `default-src 'none'; img-src data:${embed ? '' : ' file:'}; style-src 'unsafe-inline'`
  const nav = view.sections.map((s, i) => `<li><a href="#section-${i + 1}">${escapeHtml(s.heading)}</a></li>`)
  if (view.signatures.length > 0) nav.push('<li><a href="#signatures">Metric signatures</a></li>')
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(view.title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${escapeHtml(view.title)}</h1>`,
    view.subtitle ? paragraphs(view.subtitle, 'subtitle') : '',
    nav.length > 1 ? `<nav aria-label="Sections"><ul>${nav.join('')}</ul></nav>` : '',
    '</header>',
    '<main>',
    ...view.sections.map((s, i) => renderSection(s, i + 1, svgs, images)),
    renderSignatures(view.signatures),
    '</main>',
    '</body>',
    '</html>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n')
}

function renderSection(section: ReportSection, n: number, svgs: ReadonlyMap<string, string>, images: ReadonlyMap<string, string>): string {
  const id = `section-${n}`
  const samples = section.samples.map((s, i) => renderSample(s, `${id}-sample-${i + 1}`, i + 1, s.image === undefined ? undefined : images.get(s.image)))
  return [
    `<section id="${id}" aria-labelledby="${id}-h">`,
    `<h2 id="${id}-h">${escapeHtml(section.heading)}</h2>`,
    section.intro ? paragraphs(section.intro) : '',
    ...section.tables.map(renderTable),
    ...section.charts.map((c) => renderChartFigure(c, svgOf(svgs, c.id))),
    samples.length > 0 ? `<h3>Sample items</h3>\n${samples.join('\n')}` : '',
    '</section>',
  ]
    .filter(Boolean)
    .join('\n')
}

function svgOf(svgs: ReadonlyMap<string, string>, id: string): string {
  const svg = svgs.get(id)
  if (svg === undefined) throw new PipelineError('E_INTERNAL', `no SVG was rendered for chart "${id}": options.svgs must hold every chart of the view`, { chart: id })
  return svg
}
