// Chart spec -> SVG (Vega in Node) -> PNG (resvg), for the report's inline plots and PNG files.
//
// Vega renders headless with renderer 'none' and toSVG(): no canvas package and no DOM. Without
// the optional `canvas` package (this project does not install it) Vega estimates text widths
// from the font size, so the SVG is the same on every machine. resvg draws text only with the
// fonts it is given: we give it the DejaVu Sans shipped in ./fonts (free licence, see
// fonts/LICENSE-DejaVu.txt) and no system fonts, so the PNG bytes are the same everywhere too.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Resvg } from '@resvg/resvg-js'
import * as vega from 'vega'
import { compile, type TopLevelSpec } from 'vega-lite'
import { PipelineError } from '../core/errors.ts'

const FONT_FAMILY = 'DejaVu Sans'
// From src/report/ (sources) or dist/ (the CLI bundle, beside which the package ships src/).
const FONT_CANDIDATES = ['./fonts/DejaVuSans.ttf', '../src/report/fonts/DejaVuSans.ttf']

/** Absolute path of the shipped DejaVu Sans; E_FILE_MISSING when the package lost it. */
export function chartFontPath(): string {
  for (const rel of FONT_CANDIDATES) {
    const file = fileURLToPath(new URL(rel, import.meta.url))
    if (existsSync(file)) return file
  }
  throw new PipelineError('E_FILE_MISSING', 'the plot font src/report/fonts/DejaVuSans.ttf is missing; reinstall holter-pipeline (the font ships with its sources)', { file: 'src/report/fonts/DejaVuSans.ttf' })
}

/** The SVG markup of a Vega-Lite spec, rendered headless. */
export async function renderChartSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' })
  try {
    return await view.toSVG()
  } catch (cause) {
    throw new PipelineError('E_INTERNAL', `Vega could not render the chart "${String(spec.title ?? '')}": ${(cause as Error).message}`, {}, { cause })
  } finally {
    view.finalize()
  }
}

/** PNG bytes of an SVG at `scale` times its size, text drawn with the shipped font only. */
export function svgToPng(svg: string, scale = 2): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    font: { loadSystemFonts: false, fontFiles: [chartFontPath()], defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
  })
  return resvg.render().asPng()
}
