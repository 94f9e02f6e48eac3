import { describe, expect, it } from 'vitest'
import { aggregate } from '../../src/report/aggregate.ts'
import { reportMarkdown } from '../../src/report/markdown.ts'
import type { ScoreReport } from '../../src/report/report-types.ts'
import type { ItemScore, ScoreQa } from '../../src/report/score-types.ts'
import { reportView } from '../../src/report/view.ts'

// BLEU statistics of an answer with no n-gram (the text metrics here are set by hand).
const NO_STATS = { counts: [0, 0, 0, 0], totals: [0, 0, 0, 0], sysLen: 0, refLen: 0 }

function item(task: string, model: string, n: number, part: Partial<ItemScore>): ItemScore {
  return { qaId: `${task}:${n}`, caseId: `c${n % 4}`, task, model, modality: model === 'gpt' ? 'text' : 'none', status: 'scored', hyp: 'There are 2 PVCs.', ref: 'There are 3 PVCs.', ...part }
}

// Two systems over a closed, an open numeric, an open timing and a report task.
function fixture(): { report: ScoreReport; qa: Map<string, ScoreQa> } {
  const items: ItemScore[] = []
  const qa = new Map<string, ScoreQa>()
  const text = { bleu1: 75, bleu4: 40, rougeL: 75, stats: NO_STATS }
  for (let n = 0; n < 8; n++) {
    for (const [task, part] of [
      ['closed_presence', (m: string) => ({ correct: m === 'holter-dsp' || n % 2 === 0, read: 'yes' })],
      ['open_event_counting', (m: string) => ({ absError: m === 'holter-dsp' ? 0 : 2, read: '2', text })],
      ['open_event_timing', (m: string) => ({ counts: m === 'holter-dsp' ? { tp: 1, fp: 0, fn: 0 } : { tp: 0, fp: 1, fn: 1 }, text })],
      ['report_general_summary', () => ({ text })],
    ] as const) {
      const base = item(task, 'holter-dsp', n, {})
      qa.set(base.qaId, { id: base.qaId, caseId: base.caseId, taskType: task, question: `Question ${n} | with a pipe?`, answer: 'There are 3 PVCs.', gold: {}, image: `/abs/${n}.png` })
      items.push(item(task, 'holter-dsp', n, part('holter-dsp')), item(task, 'gpt', n, n === 7 ? { status: 'failed', reason: 'http-500' } : part('gpt')))
    }
  }
  const report = aggregate(items, qa, { title: 'Scores of bench', tool: { name: 'holter-pipeline', version: '0.1.0' }, sources: { runs: ['/runs/bench'] }, seed: 1, resamples: 200, vocabularySize: 24, compare: [['holter-dsp', 'gpt']] })
  return { report, qa }
}

describe('report.md', () => {
  const { report } = fixture()
  const md = reportMarkdown(report)

  it('has the paper\'s tables in order, then win rates, counts and the signatures last', () => {
    const headings = [...md.matchAll(/^## (.*)$/gm)].map((m) => m[1])
    expect(headings).toEqual(['Closed tasks', 'Open tasks', 'Reports', 'BLEU', 'Paired tests', 'Win rates', 'Counts and parameters', 'Signatures'])
    for (const table of ['(Table 4)', '(Table 6)', '(Table 5)', '(Table 9)', '(Table 10)', '(Table 12)']) expect(md).toContain(table)
    expect(md.startsWith('# Scores of bench\n')).toBe(true)
  })

  it('writes closed accuracy per system with its case-bootstrap interval', () => {
    expect(md).toContain('| model | modality | closed_presence |')
    expect(md).toMatch(/^\| holter-dsp \| none \| 100\.0 \[100\.0, 100\.0\] \|$/m)
    expect(md).toMatch(/^\| gpt \| text \| \d+\.\d \[\d+\.\d, \d+\.\d\] \|$/m)
  })

  it('writes open metrics with ScoreMAE and the models that F1-Bio and ScoreGPT need as missing', () => {
    expect(md).toMatch(/^\| holter-dsp \| none \| open_event_counting \| 8 \| MAE \| 0\.0 \[0\.0, 0\.0\] \| \d+\.\d/m)
    expect(md).toMatch(/\| open_event_timing \| 8 \| Time-F1 \| 100\.0 /)
    expect(md).toMatch(/\| report_general_summary \| 8 \| not computed \| 75\.0 \[75\.0, 75\.0\] \| 40\.0 /)
    expect(md).toContain('| unavailable |')
    expect(md).toContain('F1-Bio: unavailable: no embedding model configured')
  })

  it('writes the McNemar p-values of the pairs asked and counts failed items', () => {
    const row = md.split('\n').find((l) => l.startsWith('| holter-dsp | gpt | closed_presence |'))!
    // gpt failed one of 8; of the 7 both answered holter-dsp is right on all, gpt on 4 (n even).
    expect(row).toBe('| holter-dsp | gpt | closed_presence | 7 | 4 | 3 | 0 | 0 | 100.0 | 57.1 | 0.2500 |')
    expect(md).toMatch(/^\| gpt \| text \| closed_presence \| 7 \| 4 \| 0 \| 1 \| 0 \| 0 \|$/m)
  })

  it('lists every signature at the end as code', () => {
    const tail = md.slice(md.indexOf('## Signatures'))
    for (const key of Object.keys(report.signatures)) expect(tail).toContain(`- ${key}: \``)
    expect(tail).toContain('- bootstrap: `bootstrap|unit:case|ci:percentile|level:0.95|n:200|seed:1|rng:mulberry32`')
  })

  it('escapes pipes inside cells', () => {
    const view = reportView({ ...report, problems: [{ kind: 'x', message: 'a | b' }] })
    const problems = view.sections.flatMap((s) => s.tables).find((t) => t.caption === 'Problems')!
    expect(problems.rows[0]).toEqual(['x', null, 'a | b', null])
    expect(reportMarkdown({ ...report, problems: [{ kind: 'x', message: 'a | b' }] })).toContain('| x | - | a \\| b | - |')
  })
})

describe('reportView', () => {
  const { report } = fixture()
  const view = reportView(report)

  it('gives the HTML report sections with tables, bar charts with intervals and samples with images', () => {
    expect(view.title).toBe('Scores of bench')
    const closed = view.sections.find((s) => s.heading === 'Closed tasks')!
    expect(closed.charts).toEqual([expect.objectContaining({ id: 'chart-closed', kind: 'bars-with-ci', yLabel: 'accuracy %' })])
    expect(closed.charts[0].data).toContainEqual({ task: 'closed_presence', model: 'holter-dsp', value: 100, low: 100, high: 100 })
    expect(closed.samples.length).toBe(3)
    expect(closed.samples[0]).toMatchObject({ task: 'closed_presence', gold: 'There are 3 PVCs.', image: expect.stringMatching(/^\/abs\//) })
    expect(closed.samples[0].answers.map((a) => a.model)).toEqual(['holter-dsp', 'gpt'])
    const open = view.sections.find((s) => s.heading === 'Open tasks')!
    expect(new Set(open.charts[0].data.map((d) => d.task))).toEqual(new Set(['open_event_counting', 'open_event_timing']))
    for (const s of view.sections) for (const t of s.tables) for (const r of t.rows) expect(r).toHaveLength(t.columns.length)
  })

  it('lists the signatures after the sections and says what was scored', () => {
    expect(view.signatures).toContainEqual({ metric: 'mcnemar', signature: report.signatures.mcnemar })
    expect(view.signatures.map((s) => s.metric)).toEqual(Object.keys(report.signatures))
    expect(view.subtitle).toMatch(/^Scored runs: \/runs\/bench; 2 systems, 4 tasks/)
  })
})
