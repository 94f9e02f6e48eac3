// writeReport: index.html plus one PNG per chart, each the PNG of the very SVG inlined in the page.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodePng } from '../../src/render/png.ts'
import { svgToPng } from '../../src/report/chart-render.ts'
import { writeReport } from '../../src/report/html-write.ts'
import type { ReportView } from '../../src/report/html-types.ts'
import { filesUnder, tmpDir } from '../helpers/tmp.ts'

const chart = (id: string) => ({ id, title: id, kind: 'bars-with-ci' as const, yLabel: 'Score', data: [{ task: 't', model: 'm', value: 1, low: 0.5, high: 1.5 }] })
const view: ReportView = {
  title: 'Report',
  sections: [{ heading: 'A', tables: [{ caption: 'c', columns: ['x'], rows: [[1]] }], charts: [chart('a'), chart('b-2')], samples: [] }],
  signatures: [],
}

describe('writeReport', () => {
  it('writes index.html and charts/<id>.png, the PNGs made from the SVGs in the page', async () => {
    const dir = path.join(tmpDir('report-write-'), 'out', 'report')
    const written = await writeReport(dir, view)
    expect(filesUnder(dir)).toEqual(['charts/a.png', 'charts/b-2.png', 'index.html'])
    expect(written).toEqual({ index: path.join(dir, 'index.html'), charts: [path.join(dir, 'charts/a.png'), path.join(dir, 'charts/b-2.png')] })
    const html = readFileSync(written.index, 'utf8')
    const svgs: string[] = html.match(/<svg [\s\S]*?<\/svg>/g) ?? []
    expect(svgs).toHaveLength(2)
    // The page drops the namespace declarations that a standalone SVG file needs; put them back.
    const standalone = svgs[0].replace('<svg ', '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ')
    expect(readFileSync(written.charts[0]).equals(svgToPng(standalone))).toBe(true)
    expect(decodePng(readFileSync(written.charts[1])).width).toBeGreaterThan(50)
  })

  it('writes no charts folder when the view has no chart', async () => {
    const dir = tmpDir('report-write-')
    await writeReport(dir, { ...view, sections: [{ ...view.sections[0], charts: [] }] })
    expect(filesUnder(dir)).toEqual(['index.html'])
    expect(existsSync(path.join(dir, 'charts'))).toBe(false)
  })
})
