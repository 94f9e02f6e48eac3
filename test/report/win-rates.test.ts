// The report's win rates in both kinds of contest: systems per task (default), and models per
// task and modality, where a model is its API id and a baseline enters every modality.
import { describe, expect, it } from 'vitest'
import type { ReportSystem, TaskRow } from '../../src/report/report-types.ts'
import { reportWinRates } from '../../src/report/win-rates.ts'

const sys = (model: string, modality: string, modelId?: string): ReportSystem => ({ system: modality === 'none' ? model : `${model} (${modality})`, model, modality, sources: [], ...(modelId ? { modelId } : {}) })
const SYSTEMS = [sys('gpt-text', 'text', 'gpt'), sys('gpt-video', 'video', 'gpt'), sys('med', 'text'), sys('med', 'video'), sys('random', 'none')]
// Accuracy on two closed tasks: gpt is best in text, med in video; random beats both in video on t2.
const ACC: Record<string, [number, number]> = { 'gpt-text (text)': [90, 80], 'gpt-video (video)': [40, 30], 'med (text)': [70, 60], 'med (video)': [60, 35], random: [25, 50] }
// Task by task, as aggregate() builds them.
const rows: TaskRow[] = ['t1', 't2'].flatMap((task, k) => SYSTEMS.map((s) => ({
  task, tier: 'Closed-QA', system: s.system, model: s.model, modality: s.modality, n: 10, cases: 5, unparsed: 0, failed: 0, missing: 0, noGold: 0,
  metrics: { accuracy: { value: ACC[s.system][k], signature: 'accuracy' } },
})))
const o = { metricByTask: { t1: 'accuracy', t2: 'accuracy' } as const, lowerIsBetter: [], ties: 'shared' as const }

describe('reportWinRates', () => {
  it('task contests: every system against every other, the best text system wins both', () => {
    const w = reportWinRates(rows, SYSTEMS, { ...o, contests: 'task' })
    expect(w.contestKind).toBe('task')
    expect(w.contests).toEqual([{ task: 't1', best: ['gpt-text (text)'] }, { task: 't2', best: ['gpt-text (text)'] }])
    expect(w.systems['gpt-text (text)']).toMatchObject({ wins: 2, contests: 2, rate: 1 })
  })

  it('task x modality contests: models by API id, the baseline in every modality', () => {
    const w = reportWinRates(rows, SYSTEMS, { ...o, contests: 'task-modality' })
    expect(w.contests).toEqual([
      { task: 't1', setting: 'text', best: ['gpt'] }, { task: 't1', setting: 'video', best: ['med'] },
      { task: 't2', setting: 'text', best: ['gpt'] }, { task: 't2', setting: 'video', best: ['random'] },
    ])
    expect(Object.keys(w.systems)).toEqual(['gpt', 'med', 'random'])
    expect(w.systems.gpt).toMatchObject({ wins: 2, contests: 4, entered: 4, rate: 0.5 })
    expect(w.systems.med).toMatchObject({ wins: 1, rate: 0.25 })
    expect(w.systems.random).toMatchObject({ wins: 1, entered: 4, rate: 0.25 })
  })

  it('keeps two names of one model in one modality apart, rather than merging their scores', () => {
    const twins = [...SYSTEMS, sys('gpt-text-t1', 'text', 'gpt')]
    const more = [...rows, ...['t1', 't2'].map((task) => ({ ...rows[0], task, system: 'gpt-text-t1 (text)', model: 'gpt-text-t1', metrics: { accuracy: { value: 95, signature: 'accuracy' } } }))]
    const w = reportWinRates(more, twins, { ...o, contests: 'task-modality' })
    expect(w.contests.filter((c) => c.setting === 'text').map((c) => c.best)).toEqual([['gpt-text-t1 (text)'], ['gpt-text-t1 (text)']])
    expect(Object.keys(w.systems)).toContain('gpt-text (text)')
  })
})
