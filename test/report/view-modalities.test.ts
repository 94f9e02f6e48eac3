// The paper's Table 11 in the view: one model scored in text and in video beside two baselines,
// through aggregate() as `pipeline score` builds it. Per task the deciding metric in each modality
// and the difference (video minus text), MAE tasks in the table but not in the 0-100 chart, and
// neither when no model was scored in two modalities.
import { describe, expect, it } from 'vitest'
import { aggregate } from '../../src/report/aggregate.ts'
import { reportMarkdown } from '../../src/report/markdown.ts'
import { metricCell } from '../../src/report/report-format.ts'
import type { ScoreReport } from '../../src/report/report-types.ts'
import type { ItemScore } from '../../src/report/score-types.ts'
import { modalityChart, modalityTables } from '../../src/report/view-modalities.ts'
import { reportView } from '../../src/report/view.ts'

// BLEU statistics of an answer with no n-gram (the text metrics here are set by hand).
const NO_STATS = { counts: [0, 0, 0, 0], totals: [0, 0, 0, 0], sysLen: 0, refLen: 0 }

const TASKS = ['closed_presence', 'open_event_counting', 'open_event_timing', 'report_general_summary'] as const
type Task = (typeof TASKS)[number]

// How well each system answers item n of a task: text better than video on every task.
const HOW: Record<string, (task: Task, n: number) => Partial<ItemScore>> = {
  'gpt\u0000text': (task) => ({ closed_presence: { correct: true }, open_event_counting: { absError: 1 }, open_event_timing: { counts: { tp: 1, fp: 0, fn: 0 } }, report_general_summary: {} }[task]),
  'gpt\u0000video': (task, n) => ({ closed_presence: { correct: n % 2 === 0 }, open_event_counting: { absError: 3 }, open_event_timing: { counts: { tp: 0, fp: 1, fn: 1 } }, report_general_summary: {} }[task]),
  'random\u0000none': (task, n) => ({ closed_presence: { correct: n % 4 === 0 }, open_event_counting: { absError: 4 }, open_event_timing: { counts: { tp: 0, fp: 1, fn: 1 } }, report_general_summary: {} }[task]),
  'holter-dsp\u0000none': (task) => ({ closed_presence: { correct: true }, open_event_counting: { absError: 0 }, open_event_timing: { counts: { tp: 1, fp: 0, fn: 0 } }, report_general_summary: {} }[task]),
}
const ROUGE: Record<string, number> = { text: 80, video: 60, none: 10 }

// Systems as [name, modality] or [name, modality, API model id].
function report(systems: ([string, string] | [string, string, string])[]): ScoreReport {
  const items: ItemScore[] = []
  for (const task of TASKS) {
    for (let n = 0; n < 8; n++) {
      for (const [model, modality, modelId] of systems) {
        const text = task === 'closed_presence' ? undefined : { bleu1: 50, bleu4: 20, rougeL: ROUGE[modality], stats: NO_STATS }
        items.push({ qaId: `${task}:${n}`, caseId: `c${n % 4}`, task, model, ...(modelId ? { modelId } : {}), modality, status: 'scored', hyp: 'h', ref: 'r', ...(text ? { text } : {}), ...(HOW[`${model}\u0000${modality}`] ?? HOW[`gpt\u0000${modality}`])(task, n) })
      }
    }
  }
  return aggregate(items, new Map(), { title: 'Text versus video', tool: { name: 'holter-pipeline', version: '0.1.0' }, sources: { runs: ['/runs/a'] }, seed: 1, resamples: 200, vocabularySize: 24, samplesPerTask: 0 })
}

const both = report([['random', 'none'], ['gpt', 'text'], ['gpt', 'video'], ['holter-dsp', 'none']])
const cell = (system: string, task: string) => metricCell(both.rows.find((r) => r.system === system && r.task === task)!.metrics[both.winRates.metricByTask[task]])

describe('Table 11: one model shown different modalities', () => {
  it('has per task the deciding metric in text and video with intervals, and video minus text', () => {
    const [table, ...more] = modalityTables(both)
    expect(more).toEqual([])
    expect(table.columns).toEqual(['task', 'model', 'metric', 'text', 'video', 'difference (video - text)'])
    expect(table.rows).toEqual([
      // Video is right on the even items, that is on cases c0 and c2 and wrong on c1 and c3: a
      // resample of the 4 cases gives a difference from -100 to 0.
      ['closed_presence', 'gpt', 'Acc', '100.0 [100.0, 100.0]', cell('gpt (video)', 'closed_presence'), '-50.0 [-100.0, 0.0]'],
      ['open_event_counting', 'gpt', 'MAE', '1.0 [1.0, 1.0]', '3.0 [3.0, 3.0]', '+2.0 [+2.0, +2.0]'],
      ['open_event_timing', 'gpt', 'Time-F1', '100.0 [100.0, 100.0]', '0.0 [0.0, 0.0]', '-100.0 [-100.0, -100.0]'],
      ['report_general_summary', 'gpt', 'ROUGE-L', '80.0 [80.0, 80.0]', '60.0 [60.0, 60.0]', '-20.0 [-20.0, -20.0]'],
    ])
    expect(table.rows[0][4]).toMatch(/^50\.0 \[\d+\.\d, \d+\.\d\]$/)
    expect(table.caption).toMatch(/^Table 11: one model shown different modalities \(text, video\)/)
    expect(table.caption).toContain('video - text')
    expect(table.caption).toContain('for MAE lower is better')
  })

  it('takes two names of one API model (an infer stage names each entry apart) as one model in two modalities', () => {
    const named = report([['random', 'none'], ['gpt-4o-mini-text', 'text', 'gpt-4o-mini'], ['gpt-4o-mini-video', 'video', 'gpt-4o-mini'], ['other-text', 'text', 'other']])
    const [table] = modalityTables(named)
    expect(table.rows.map((r) => r[1])).toEqual(Array(4).fill('gpt-4o-mini (gpt-4o-mini-text, gpt-4o-mini-video)'))
    expect(table.rows.map((r) => r.slice(3))).toEqual(modalityTables(both)[0].rows.map((r) => r.slice(3)))
    expect(named.systems.find((s) => s.model === 'gpt-4o-mini-text')).toMatchObject({ system: 'gpt-4o-mini-text', modelId: 'gpt-4o-mini' })
  })

  it('charts the percent-scale metrics, one bar per system of the model, MAE tasks left to the table', () => {
    const chart = modalityChart(both)!
    expect(chart).toMatchObject({ id: 'chart-modalities', kind: 'bars-with-ci', yLabel: 'score (0-100)' })
    expect(chart.title).toContain('MAE tasks in the table only')
    expect(chart.data.map((d) => [d.task, d.model, d.value])).toEqual([
      ['closed_presence', 'gpt (text)', 100], ['closed_presence', 'gpt (video)', 50],
      ['open_event_timing', 'gpt (text)', 100], ['open_event_timing', 'gpt (video)', 0],
      ['report_general_summary', 'gpt (text)', 80], ['report_general_summary', 'gpt (video)', 60],
    ])
    const video = both.rows.find((r) => r.system === 'gpt (video)' && r.task === 'closed_presence')!.metrics.accuracy!
    expect(chart.data[1]).toEqual({ task: 'closed_presence', model: 'gpt (video)', value: 50, low: video.ci!.low, high: video.ci!.high })
  })

  it('is a section of the view and of report.md between BLEU and the paired tests', () => {
    const section = reportView(both).sections.find((s) => s.heading === 'Modalities')!
    expect(section.tables).toEqual(modalityTables(both))
    expect(section.charts).toEqual([modalityChart(both)])
    const md = reportMarkdown(both)
    expect([...md.matchAll(/^## (.*)$/gm)].map((m) => m[1])).toEqual(['Closed tasks', 'Open tasks', 'Reports', 'BLEU', 'Modalities', 'Win rates', 'Counts and parameters', 'Signatures'])
    expect(md).toContain('| task | model | metric | text | video | difference (video - text) |')
    expect(md).toContain('| open_event_counting | gpt | MAE | 1.0 [1.0, 1.0] | 3.0 [3.0, 3.0] | +2.0 [+2.0, +2.0] |')
  })

  it('is absent when no model was scored in two modalities (baselines have one: none)', () => {
    const single = report([['random', 'none'], ['gpt', 'text'], ['holter-dsp', 'none']])
    expect(modalityTables(single)).toEqual([])
    expect(modalityChart(single)).toBeNull()
    expect(reportView(single).sections.map((s) => s.heading)).not.toContain('Modalities')
    expect(reportMarkdown(single)).not.toContain('Table 11')
  })

  it('puts models with the same modalities in one table and others in a table of their own', () => {
    const tables = modalityTables(report([['gpt', 'text'], ['gpt', 'video'], ['med', 'video'], ['med', 'text'], ['llava', 'text'], ['llava', 'video']]))
    expect(tables.map((t) => t.columns.slice(3))).toEqual([['text', 'video', 'difference (video - text)'], ['video', 'text', 'difference (text - video)']])
    expect(tables[0].rows.filter((x) => x[0] === 'closed_presence').map((x) => [x[1], x[5]])).toEqual([['gpt', expect.stringMatching(/^-50\.0 \[/)], ['llava', expect.stringMatching(/^-50\.0 \[/)]])
    expect(tables[1].rows.find((x) => x[0] === 'closed_presence')!.slice(1)).toEqual(['med', 'Acc', expect.stringMatching(/^50\.0 /), '100.0 [100.0, 100.0]', expect.stringMatching(/^\+50\.0 \[/)])
    expect(tables[1].caption).toContain('(video, text)')
    expect(tables[1].caption).toContain('difference = text - video [paired')
  })

  it('falls back to the row\'s first metric for a task no metric decides', () => {
    const r = { ...both, winRates: { ...both.winRates, metricByTask: { ...both.winRates.metricByTask } } }
    delete r.winRates.metricByTask.open_event_timing
    const row = modalityTables(r)[0].rows.find((x) => x[0] === 'open_event_timing')!
    expect(row.slice(2)).toEqual(['Time-F1', '100.0 [100.0, 100.0]', '0.0 [0.0, 0.0]', '-100.0 [-100.0, -100.0]'])
  })

  it('pairs the cases: a difference that is the same on every case has no spread, however much the cases vary', () => {
    // MAE per case k: k in text, k + 2 in video (one item a case, 12 cases).
    const items: ItemScore[] = []
    for (let k = 0; k < 12; k++) {
      for (const [modality, extra] of [['text', 0], ['video', 2]] as const) {
        items.push({ qaId: `q${k}`, caseId: `c${k}`, task: 'open_event_counting', model: 'm', modality, status: 'scored', absError: 3 * k + extra })
      }
    }
    const r = aggregate(items, new Map(), { title: 't', tool: { name: 'x', version: '0' }, sources: {}, seed: 2, resamples: 300, vocabularySize: 0, samplesPerTask: 0 })
    const own = r.rows.find((x) => x.system === 'm (text)')!.metrics.mae!.ci!
    expect(own.high! - own.low!).toBeGreaterThan(5)
    expect(r.modalities).toEqual([{ model: 'm', task: 'open_event_counting', metric: 'mae', a: 'm (text)', b: 'm (video)', difference: 2, ci: { low: 2, high: 2 }, signature: 'bootstrap' }])
  })
})
