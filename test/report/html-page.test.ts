// The self-contained report page: every table, chart and sample item of the view is there;
// all text is escaped (an answer holding markup shows as text, nothing from the view becomes an
// element); strips are embedded as data: URLs; nothing names an http(s) URL, and a CSP forbids
// loading anything; malformed views and unreadable images fail with what to fix.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createCanvas } from '../../src/render/canvas.ts'
import { encodePng } from '../../src/render/png.ts'
import { renderReportHtml } from '../../src/report/html-page.ts'
import type { ReportView } from '../../src/report/html-types.ts'
import { pipelineRejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const EVIL = `<script>alert("x")</script> & 'quotes' <img src=x onerror=alert(1)>`
const dir = tmpDir('report-html-')
const strip = path.join(dir, 'strip.png')
writeFileSync(strip, encodePng(createCanvas(6, 4, [200, 10, 10])))

function view(): ReportView {
  return {
    title: `Scores ${EVIL}`,
    subtitle: 'Bench of two models',
    sections: [
      {
        heading: 'Closed tasks',
        intro: `First paragraph ${EVIL}\n\nSecond paragraph`,
        tables: [
          { caption: `Table 4 ${EVIL}`, columns: ['Model', 'rhythm', `beats ${EVIL}`], rows: [['holter-dsp', 81.25, null], [EVIL, 0.1 + 0.2, 12]], note: `CI 95 % ${EVIL}` },
          { caption: 'Unparsed answers', columns: ['Model', 'unparsed'], rows: [['random', 0]] },
        ],
        charts: [{ id: 'closed', title: `Accuracy ${EVIL}`, kind: 'bars-with-ci', yLabel: 'Accuracy (%)', data: [{ task: EVIL, model: 'holter-dsp', value: 81, low: 70, high: 90 }, { task: EVIL, model: 'random', value: 25, low: null, high: null }] }],
        samples: [
          { task: 'rhythm', question: `Which rhythm? ${EVIL}`, gold: 'A', image: strip, answers: [{ model: 'holter-dsp', answer: `Answer: A ${EVIL}`, score: 'correct' }, { model: 'random', answer: 'C', score: 'wrong' }] },
          { task: 'rhythm', question: 'No image here', gold: 'B', answers: [{ model: 'random', answer: 'B', score: 'correct' }] },
        ],
      },
      { heading: 'Open tasks', tables: [], charts: [{ id: 'open.mae', title: 'MAE', kind: 'bars-with-ci', yLabel: 'MAE (beats)', data: [{ task: 'count', model: 'random', value: 3, low: 1, high: 4 }] }], samples: [] },
    ],
    signatures: [{ metric: 'accuracy', signature: `acc|parser:v1|${EVIL}` }],
  }
}

const count = (html: string, re: RegExp) => html.match(re)?.length ?? 0

describe('renderReportHtml', () => {
  it('holds every table, chart and sample item of the view', async () => {
    const html = await renderReportHtml(view(), { embedImages: true })
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true)
    expect(count(html, /<table class="report-table">/g)).toBe(2)
    expect(html).toContain('<caption>Unparsed answers</caption>')
    expect(count(html, /<figure class="chart" id="chart-(closed|open\.mae)"/g)).toBe(2)
    expect(count(html, /<figure class="chart"[^>]*>\n<figcaption[^>]*class="sr-only">[^<]*<\/figcaption>\n<svg /g)).toBe(2)
    expect(count(html, /<table class="chart-data">/g)).toBe(2)
    expect(count(html, /<article class="sample"/g)).toBe(2)
    expect(count(html, /<table class="answers">/g)).toBe(2)
    expect(count(html, /<section id="section-\d+"/g)).toBe(2)
    expect(html).toContain('<section id="signatures"')
    expect(html).toContain('<td class="num">81.25</td>')
    expect(html).toContain('<td class="num">0.3</td>') // float noise trimmed
    expect(html).toContain('<td class="na" title="not available">–</td>')
    expect(html).toContain('<p>Second paragraph</p>')
  })

  it('escapes all text from the view: no element or attribute comes from it', async () => {
    const html = await renderReportHtml(view())
    expect(html).not.toMatch(/<script|<img src=x/i)
    expect(html).not.toContain('onerror=alert(1)>')
    // Outside the SVGs even quotes are entities (Vega leaves ' as is in its text, which is safe there).
    expect(html.replace(/<svg [\s\S]*?<\/svg>/g, '')).not.toContain(`'quotes'`)
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; &lt;img src=x onerror=alert(1)&gt;'
    expect(html).toContain(`<title>Scores ${escaped}</title>`)
    expect(html).toContain(`<caption>Table 4 ${escaped}</caption>`)
    expect(html).toContain(`<th scope="row">${escaped}</th>`)
    expect(html).toContain(`<td class="text">Answer: A ${escaped}</td>`)
    expect(html).toContain(`<code>acc|parser:v1|${escaped}</code>`)
    // Vega escapes the same strings in the SVG's own text.
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
  })

  it('embeds the strip as a data: URL with an alt text, and only where the sample has one', async () => {
    const html = await renderReportHtml(view(), { embedImages: true })
    const imgs = html.match(/<img [^>]*>/g) ?? []
    expect(imgs).toHaveLength(1)
    const b64 = encodePng(createCanvas(6, 4, [200, 10, 10])).toString('base64')
    expect(imgs[0]).toContain(`src="data:image/png;base64,${b64}"`)
    expect(imgs[0]).toMatch(/alt="ECG strip shown to the models for rhythm item 1"/)
  })

  it('names no http(s) URL, loads no script, font or stylesheet, and forbids loading anything but data: images', async () => {
    const html = await renderReportHtml(view())
    expect(html).not.toMatch(/https?:\/\//i)
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|@import|@font-face|url\(/i)
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`)
    expect(count(html, /<style>/g)).toBe(1)
  })

  it('links the strip by file: URL when asked not to embed, and lets the CSP allow it', async () => {
    const html = await renderReportHtml(view(), { embedImages: false })
    expect(html).toContain(`src="file://${strip}"`)
    expect(html).toContain("img-src data: file:;")
    expect(html).not.toContain('data:image/png')
  })

  it('is the same page for the same view', async () => {
    expect(await renderReportHtml(view())).toBe(await renderReportHtml(view()))
  })

  it('fails naming what to fix: a missing or non-PNG strip, a short row, a repeated chart id', async () => {
    const v = view()
    v.sections[0].samples[0].image = path.join(dir, 'gone.png')
    const missing = await pipelineRejection(renderReportHtml(v))
    expect(missing.code).toBe('E_FILE_MISSING')
    expect(missing.message).toMatch(/cannot read the sample strip image .*gone\.png.*re-render the run's strips or leave the sample's image out/)

    const text = path.join(dir, 'not.png')
    writeFileSync(text, 'hello')
    v.sections[0].samples[0].image = text
    expect((await pipelineRejection(renderReportHtml(v))).message).toMatch(/not\.png is not a PNG/)

    const short = view()
    short.sections[0].tables[1].rows.push(['x'])
    const row = await pipelineRejection(renderReportHtml(short))
    expect(row.code).toBe('E_INTERNAL')
    expect(row.message).toBe('report table "Unparsed answers": row 2 has 1 cells for 2 columns; fix the report view')

    const twice = view()
    twice.sections[1].charts[0].id = 'closed'
    expect((await pipelineRejection(renderReportHtml(twice))).message).toMatch(/chart id "closed" is used twice/)
  })
})
