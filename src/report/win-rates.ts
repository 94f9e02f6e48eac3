// The report's win rates (win-rate.ts) over its rows, in one of two kinds of contest:
//   task           (default) every system (model x modality) against every other on each task;
//   task-modality  each task shown in each modality is a contest of its own, between models: a
//                  model is its API model id (its names in an eval), so "gpt-4o-mini wins 7 of 12
//                  text contests and 3 of 12 video ones" reads as in the ECG multi-task
//                  benchmark's settings. A baseline (modality `none`, it sees no input) enters
//                  the contests of every modality scored.
// Each contest is decided by the task's deciding metric. Pure.
import { winRate, type TiePolicy } from '../metrics/win-rate.ts'
import type { ReportSystem, TaskRow, WinRates } from './report-types.ts'
import type { MetricKey } from './task-metrics.ts'

export type WinContests = 'task' | 'task-modality'

export function reportWinRates(rows: readonly TaskRow[], systems: readonly ReportSystem[], o: { metricByTask: Record<string, MetricKey>; lowerIsBetter: string[]; ties: TiePolicy; contests: WinContests }): WinRates {
  const value = (r: TaskRow) => r.metrics[o.metricByTask[r.task]]?.value ?? null
  const decided = rows.filter((r) => o.metricByTask[r.task])
  let entries: { task: string; setting?: string; model: string; value: number | null }[]
  if (o.contests === 'task') {
    entries = decided.map((r) => ({ task: r.task, model: r.system, value: value(r) }))
  } else {
    const bySystem = new Map(systems.map((s) => [s.system, s]))
    const shown = [...new Set(systems.map((s) => s.modality).filter((m) => m !== 'none'))]
    // A model id with two systems in one modality (two names of one model, same input) cannot
    // be one competitor there: those systems compete under their own labels.
    const perSetting = new Map<string, number>()
    for (const s of systems) perSetting.set(`${s.modelId ?? s.model}\u0000${s.modality}`, (perSetting.get(`${s.modelId ?? s.model}\u0000${s.modality}`) ?? 0) + 1)
    entries = decided.flatMap((r) => {
      const s = bySystem.get(r.system)!
      const id = s.modelId ?? s.model
      const model = perSetting.get(`${id}\u0000${s.modality}`)! > 1 ? s.system : id
      const settings = s.modality === 'none' ? (shown.length ? shown : ['none']) : [s.modality]
      return settings.map((setting) => ({ task: r.task, setting, model, value: value(r) }))
    })
  }
  const win = winRate(entries, { ties: o.ties, lowerIsBetter: o.lowerIsBetter })
  return {
    metricByTask: o.metricByTask,
    contestKind: o.contests,
    systems: win.models,
    contests: win.contests.map((c) => ({ task: c.task, ...(c.setting !== undefined ? { setting: c.setting } : {}), best: c.best })),
    signature: 'winRate',
  }
}
