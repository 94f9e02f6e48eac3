// The paper's Table 11 end to end: `pipeline score --qa <public valid split> --predictions <file>`
// where the lines name one model in two modalities ("model": "gpt", "modality": "text" / "video")
// and a baseline (modality "none"). In text the model gives every item's gold answer; in video
// only the even-indexed items', "I cannot tell." otherwise (wrong on closed tasks). report.md
// then has the Table 11 section with video minus text per task, and index.html its chart.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import type { ScoreReport } from '../../src/report/report-types.ts'
import { runCli } from '../helpers/child.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const dir = tmpDir('hp-score-modalities-')

describeShared('pipeline score --qa with one model in text and in video', () => {
  const valid = sharedPath('data/holtercare-qa/valid')
  const out = path.join(dir, 'report')
  /** Items per closed task, from the folder. */
  const closedSizes = new Map<string, number>()
  let md = ''
  let report: ScoreReport

  beforeAll(async () => {
    const lines: string[] = []
    for (const tier of readdirSync(valid)) {
      for (const file of readdirSync(path.join(valid, tier))) {
        const items = JSON.parse(readFileSync(path.join(valid, tier, file), 'utf8')) as { task_type: string; qa_pair: { answer: string } }[]
        if (tier === 'Closed-QA') closedSizes.set(items[0].task_type, items.length)
        items.forEach((x, index) => {
          const line = (model: string, modality: string, prediction: string) => lines.push(JSON.stringify({ task_type: x.task_type, index, prediction, model, modality }))
          line('gpt', 'text', x.qa_pair.answer)
          line('gpt', 'video', index % 2 === 0 ? x.qa_pair.answer : 'I cannot tell.')
          line('random', 'none', 'A')
        })
      }
    }
    const preds = path.join(dir, 'preds.jsonl')
    writeFileSync(preds, lines.join('\n') + '\n')
    const r = await runCli(['score', '--qa', valid, '--predictions', preds, '--out', out, '--resamples', '200', '--samples', '0'])
    expect(r.code, r.stderr).toBe(0)
    md = readFileSync(path.join(out, 'report.md'), 'utf8')
    report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ScoreReport
  }, 120_000)

  it('labels the model\'s two systems by modality and leaves the baseline as it is', () => {
    expect(report.systems.map((s) => [s.system, s.model, s.modality])).toEqual([['gpt (text)', 'gpt', 'text'], ['gpt (video)', 'gpt', 'video'], ['random', 'random', 'none']])
  })

  it('writes Table 11 in report.md: each task\'s deciding metric in text and video, and video minus text', () => {
    expect(md).toContain('## Modalities')
    expect(md).toContain('**Table 11: one model shown different modalities (text, video)')
    expect(md).toContain('| task | model | metric | text | video | difference (video - text) |')
    expect(closedSizes.size).toBe(5)
    for (const [task, n] of closedSizes) {
      // The even-indexed items of 0..n-1 are right in video, all in text.
      const video = (100 * Math.ceil(n / 2)) / n
      const row = md.split('\n').find((l) => l.startsWith(`| ${task} | gpt | Acc |`))
      expect(row, task).toMatch(new RegExp(`^\\| ${task} \\| gpt \\| Acc \\| 100\\.0 \\[100\\.0, 100\\.0\\] \\| ${video.toFixed(1).replace('.', '\\.')} \\[\\d+\\.\\d, \\d+\\.\\d\\] \\| ${(video - 100).toFixed(1).replace('.', '\\.')} \\[-?[\\d.]+, [-+]?[\\d.]+\\] \\|$`))
    }
    // Counting: video reads only its even-indexed answers, all gold, so both MAEs are 0.
    expect(md).toMatch(/^\| open_event_counting \| gpt \| MAE \| 0\.0 \[0\.0, 0\.0\] \| 0\.0 \[0\.0, 0\.0\] \| 0\.0 \[0\.0, 0\.0\] \|$/m)
    expect(md).toMatch(/^\| open_event_timing \| gpt \| Time-F1 \| 100\.0 \[100\.0, 100\.0\] \| \d+\.\d \[[\d.]+, [\d.]+\] \| -\d+\.\d \[-[\d.]+, -[\d.]+\] \|$/m)
    const section = md.slice(md.indexOf('## Modalities'), md.indexOf('\n## ', md.indexOf('## Modalities') + 1))
    expect(section).not.toContain('| random |')
  })

  it('draws the comparison chart in index.html and as charts/chart-modalities.png', () => {
    const html = readFileSync(path.join(out, 'index.html'), 'utf8')
    expect(html).toContain('<figure class="chart" id="chart-chart-modalities"')
    expect(html).toContain('<td>gpt (video)</td>')
    expect(existsSync(path.join(out, 'charts', 'chart-modalities.png'))).toBe(true)
  })
})
