// Writes a report folder: index.html (self-contained, html-page.ts) and charts/<id>.png, one PNG
// per chart made from the same SVG that is inlined in the page. index.html is written last, so
// its presence means the charts beside it are complete.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { svgToPng } from './chart-render.ts'
import { renderChartSvgs } from './html-charts.ts'
import { renderReportHtml } from './html-page.ts'
import type { ReportView } from './html-types.ts'

export interface WrittenReport {
  /** Absolute path of index.html. */
  index: string
  /** Absolute paths of the chart PNGs, in the view's order. */
  charts: string[]
}

/** Writes `dir`/index.html and `dir`/charts/<id>.png for `view`; returns their paths. */
export async function writeReport(dir: string, view: ReportView): Promise<WrittenReport> {
  const root = path.resolve(dir)
  const svgs = await renderChartSvgs(view)
  const html = await renderReportHtml(view, { embedImages: true, svgs })
  const charts: string[] = []
  if (svgs.size > 0) await mkdir(path.join(root, 'charts'), { recursive: true })
  else await mkdir(root, { recursive: true })
  for (const [id, svg] of svgs) {
    const file = path.join(root, 'charts', `${id}.png`)
    await writeFile(file, svgToPng(svg))
    charts.push(file)
  }
  const index = path.join(root, 'index.html')
  await writeFile(index, html)
  return { index, charts }
}
