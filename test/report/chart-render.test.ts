// Charts rendered in Node: Vega's SVG holds one bar per data row, a whisker per interval, the
// labels (escaped), and no element ids (several charts share one page); the PNG decodes at the
// SVG's size times the scale, its text is drawn with the shipped font, and the same chart gives
// the same bytes every time.
import { describe, expect, it } from 'vitest'
import { chartFontPath, renderChartSvg, svgToPng } from '../../src/report/chart-render.ts'
import { chartSpec } from '../../src/report/chart-spec.ts'
import type { ReportChart } from '../../src/report/html-types.ts'
import { decodePng } from '../../src/render/png.ts'

const chart: ReportChart = {
  id: 'per-task',
  title: 'Per-task scores',
  kind: 'bars-with-ci',
  yLabel: 'Accuracy (%)',
  data: [
    { task: 'rhythm', model: 'holter-dsp', value: 82, low: 75, high: 88 },
    { task: 'rhythm', model: 'random', value: 25, low: null, high: null },
    { task: 'beats <&>', model: 'holter-dsp', value: 64, low: 55, high: 72 },
    { task: 'beats <&>', model: 'random', value: 22, low: 15, high: 30 },
  ],
}

/** The width and height attributes of the SVG's root element. */
function svgSize(svg: string): { width: number; height: number } {
  const m = /^<svg\b[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"/.exec(svg)
  if (!m) throw new Error('no width/height on the root <svg>')
  return { width: Number(m[1]), height: Number(m[2]) }
}

function darkPixels(png: Buffer): number {
  const { data } = decodePng(png)
  let n = 0
  for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] + data[i + 1] + data[i + 2] < 200) n++
  return n
}

describe('renderChartSvg', () => {
  it('draws one bar per row, a whisker per interval, the title, axis title, tasks and models (escaped)', async () => {
    const svg = await renderChartSvg(chartSpec(chart))
    expect(svg.match(/aria-roledescription="bar"/g)).toHaveLength(4)
    expect(svg.match(/aria-roledescription="rule mark"/g)).toHaveLength(3)
    expect(svg.match(/aria-roledescription="tick"/g)).toHaveLength(6)
    for (const text of ['Per-task scores', 'Accuracy (%)', 'rhythm', 'beats &lt;&amp;&gt;', 'holter-dsp', 'random']) expect(svg).toContain(`>${text}</text>`)
    expect(svg).not.toContain('beats <&>')
    expect(svg).not.toMatch(/\bid="/)
    expect(svg).not.toMatch(/<script|<image|href=/)
  })

  it('gives the same SVG for the same chart', async () => {
    expect(await renderChartSvg(chartSpec(chart))).toBe(await renderChartSvg(chartSpec(structuredClone(chart))))
  })
})

describe('svgToPng', () => {
  it('decodes at the SVG size times the scale, and is byte-identical across renders', async () => {
    const svg = await renderChartSvg(chartSpec(chart))
    const { width, height } = svgSize(svg)
    const png = svgToPng(svg)
    const image = decodePng(png)
    expect(Math.abs(image.width - width * 2)).toBeLessThan(1)
    expect(Math.abs(image.height - height * 2)).toBeLessThan(1)
    expect(svgToPng(await renderChartSvg(chartSpec(chart))).equals(png)).toBe(true)
    const one = decodePng(svgToPng(svg, 1))
    expect(Math.abs(one.width - width)).toBeLessThan(1)
  })

  it('draws text with the shipped font (resvg draws no text without one)', () => {
    const text = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"><rect width="120" height="30" fill="white"/><text x="4" y="20" font-family="sans-serif" font-size="16">Accuracy</text></svg>'
    const blank = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"><rect width="120" height="30" fill="white"/></svg>'
    expect(chartFontPath()).toMatch(/src\/report\/fonts\/DejaVuSans\.ttf$/)
    expect(darkPixels(svgToPng(blank, 1))).toBe(0)
    expect(darkPixels(svgToPng(text, 1))).toBeGreaterThan(50)
  })
})
