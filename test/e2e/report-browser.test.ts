// The HTML report in a real browser (issue 15's check): a report written from a hand-made view,
// with a strip drawn by the repo's renderer, is opened from disk in headless Debian chromium via
// playwright-core. The page logs no console error and makes no request outside file:/data:,
// every table and chart is there and drawn, and the sample strip is loaded. A full-page
// screenshot is saved beside the report; UPDATE_SCREENSHOT=1 also copies it to
// docs/report-screenshot.png (the README's picture), and REPORT_ARTIFACTS_DIR=<dir> keeps the
// whole report folder there (CI artifact), since the temp dir is removed after the test.
//
// Chromium: CHROMIUM_PATH, else /usr/bin/chromium (`.ci/run` installs Debian's package). Without
// it the test is skipped with a message, except under CI, where it fails.
import { copyFileSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drawStrip } from '../../src/render/draw-strip.ts'
import { encodePng } from '../../src/render/png.ts'
import type { ReportView } from '../../src/report/html-types.ts'
import { writeReport } from '../../src/report/html-write.ts'
import { ROOT } from '../helpers/shared.ts'
import { syntheticEcg } from '../helpers/synthetic-ecg.ts'
import { tmpDir } from '../helpers/tmp.ts'

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const HAVE = existsSync(CHROMIUM)
if (!HAVE && !process.env.CI) console.warn(`chromium not found at ${CHROMIUM}: skipping the report browser test (apt-get install chromium, or set CHROMIUM_PATH; under CI it fails instead)`)

/** A strip as the render stages draw it: 10 s of synthetic ECG, one lead. */
function writeStrip(file: string): { width: number; height: number } {
  const fs = 250
  const canvas = drawStrip({ samples: [syntheticEcg(fs, 10)], labels: ['MLII'], fs, startSample: 0, startMs: 0, windowSec: 10, title: 'r100' })
  writeFileSync(file, encodePng(canvas))
  return { width: canvas.width, height: canvas.height }
}

function reportView(strip: string): ReportView {
  const models = ['holter-dsp', 'blind', 'random']
  const tasks = ['rhythm', 'beat-type', 'hr-trend']
  const acc = [[84, 71, 66], [41, 38, 35], [25, 24, 33]]
  return {
    title: 'Holter bench: scores of 3 models',
    subtitle: 'bench-mitdb, text modality; 95 % bootstrap intervals over cases',
    sections: [
      {
        heading: 'Closed tasks (Table 4)',
        intro: 'Accuracy in percent; unparsed answers count as wrong.',
        tables: [
          { caption: 'Accuracy per task and model (%)', columns: ['Model', ...tasks], rows: models.map((m, i) => [m, ...acc[i]]) },
          { caption: 'Unparsed answers', columns: ['Model', 'unparsed'], rows: [['holter-dsp', 0], ['blind', 3], ['random', null]], note: 'random never answers in free text.' },
        ],
        charts: [
          {
            id: 'closed-accuracy', title: 'Closed-task accuracy', kind: 'bars-with-ci', yLabel: 'Accuracy (%)',
            data: models.flatMap((model, i) => tasks.map((task, j) => ({ task, model, value: acc[i][j], low: i === 2 ? null : acc[i][j] - 6, high: i === 2 ? null : acc[i][j] + 5 }))),
          },
        ],
        samples: [
          {
            task: 'rhythm', question: 'Which rhythm is shown? A) sinus rhythm B) atrial fibrillation C) ventricular tachycardia', gold: 'A',
            image: strip,
            answers: [{ model: 'holter-dsp', answer: 'A', score: 'correct' }, { model: 'blind', answer: 'The answer is <B>.', score: 'wrong' }, { model: 'random', answer: 'C', score: 'wrong' }],
          },
        ],
      },
      {
        heading: 'Open tasks (Table 6)',
        tables: [{ caption: 'MAE and ScoreMAE', columns: ['Model', 'MAE (beats)', 'ScoreMAE'], rows: [['holter-dsp', 1.5, 88.1], ['blind', 6.25, 41.7]] }],
        charts: [{ id: 'open-mae', title: 'Beat-count MAE', kind: 'bars-with-ci', yLabel: 'MAE (beats)', data: [{ task: 'beat-count', model: 'holter-dsp', value: 1.5, low: 1.1, high: 2 }, { task: 'beat-count', model: 'blind', value: 6.25, low: 5, high: 7.5 }] }],
        samples: [{ task: 'beat-count', question: 'How many beats are in this strip?', gold: '12', answers: [{ model: 'holter-dsp', answer: '12 beats', score: 'error 0' }, { model: 'blind', answer: 'About 20.', score: 'error 8' }] }],
      },
    ],
    signatures: [{ metric: 'accuracy', signature: 'acc|parser:1|unparsed:wrong' }, { metric: 'ScoreMAE', signature: 'scoremae|baselines:random,prior|mu:5.1|sigma:2.3' }],
  }
}

describe.runIf(HAVE || process.env.CI)('the HTML report in headless chromium', () => {
  let browser: Browser

  beforeAll(async () => {
    if (HAVE) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true })
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('opens from disk without errors, with every table, chart and the sample strip', async () => {
    if (!HAVE) throw new Error(`chromium is missing at ${CHROMIUM} under CI; .ci/run installs it (scripts/ensure-chromium.sh), or set CHROMIUM_PATH`)
    const dir = tmpDir('report-browser-')
    const strip = path.join(dir, 'strip.png')
    const stripSize = writeStrip(strip)
    const view = reportView(strip)
    const out = path.join(dir, 'report')
    const { index } = await writeReport(out, view)

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const errors: string[] = []
    const requests: string[] = []
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
    page.on('pageerror', (e) => void errors.push(e.message))
    page.on('request', (r) => void requests.push(r.url()))
    await page.goto(pathToFileURL(index).href, { waitUntil: 'load' })

    const found = await page.evaluate(() => ({
      captions: [...document.querySelectorAll('table.report-table > caption')].map((c) => c.textContent),
      charts: [...document.querySelectorAll('figure.chart')].map((f) => {
        const svg = f.querySelector('svg')
        const box = svg?.getBoundingClientRect()
        return { id: f.id, width: box?.width ?? 0, height: box?.height ?? 0, bars: svg?.querySelectorAll('[aria-roledescription="bar"]').length ?? 0 }
      }),
      images: [...document.querySelectorAll('article.sample img')].map((i) => {
        const img = i as HTMLImageElement
        return { complete: img.complete, naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, alt: img.alt }
      }),
      samples: document.querySelectorAll('article.sample').length,
      answer: document.querySelector('article.sample table.answers tr:nth-child(2) td')?.textContent,
    }))
    expect(errors).toEqual([])
    expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([])
    expect(found.captions).toEqual(view.sections.flatMap((s) => s.tables.map((t) => t.caption)))
    const charts = view.sections.flatMap((s) => s.charts)
    expect(found.charts.map((c) => c.id)).toEqual(charts.map((c) => `chart-${c.id}`))
    found.charts.forEach((c, i) => {
      expect(c.width).toBeGreaterThan(100)
      expect(c.height).toBeGreaterThan(100)
      expect(c.bars).toBe(charts[i].data.length)
    })
    expect(found.samples).toBe(2)
    expect(found.images).toEqual([{ complete: true, naturalWidth: stripSize.width, naturalHeight: stripSize.height, alt: 'ECG strip shown to the models for rhythm item 1' }])
    expect(found.answer).toBe('The answer is <B>.')

    const shot = path.join(out, 'screenshot.png')
    await page.screenshot({ path: shot, fullPage: true })
    await page.close()
    if (process.env.UPDATE_SCREENSHOT === '1') copyFileSync(shot, path.join(ROOT, 'docs/report-screenshot.png'))
    if (process.env.REPORT_ARTIFACTS_DIR) {
      mkdirSync(process.env.REPORT_ARTIFACTS_DIR, { recursive: true })
      cpSync(out, path.join(process.env.REPORT_ARTIFACTS_DIR, 'report-browser'), { recursive: true })
    }
    expect(existsSync(shot)).toBe(true)
  })
})
