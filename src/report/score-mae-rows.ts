// ScoreMAE of every row of a numeric open task (benchmark-spec.md "MAE and ScoreMAE"): mu and
// sigma are the median and sample SD of the MAEs of the declared baseline systems present on that
// task (`--baselines`, default random, prior and holter-dsp: those scored), so the set and the
// resulting parameters are in the task's signature. The interval maps the MAE's interval through
// the logistic, which is decreasing: ScoreMAE's low comes from the MAE's high. Pure.
import { scoreMae, scoreMaeParams, scoreMaeSignature } from '../metrics/score-mae.ts'
import type { ReportSystem, ScoreMaeTask, TaskRow } from './report-types.ts'
import { taskKind } from './task-metrics.ts'

/** The baselines ScoreMAE uses when none are declared (those present). */
export const DEFAULT_BASELINES = ['random', 'prior', 'holter-dsp'] as const

/** Fills `scoreMae` in the rows of numeric open tasks (in place: the rows are the caller's, being built) and returns each task's parameters. */
export function applyScoreMae(rows: TaskRow[], systems: readonly ReportSystem[], baselines: readonly string[]): { tasks: ScoreMaeTask[]; signatures: Record<string, string> } {
  const names = new Set(baselines)
  const isBaseline = new Set(systems.filter((s) => names.has(s.model)).map((s) => s.system))
  const tasks: ScoreMaeTask[] = []
  const signatures: Record<string, string> = {}
  const numeric = [...new Set(rows.map((r) => r.task))].filter((t) => taskKind(t) === 'count' || taskKind(t) === 'timestamp')
  for (const task of numeric) {
    const key = `scoreMae:${task}`
    const taskRows = rows.filter((r) => r.task === task)
    const used = taskRows.filter((r) => isBaseline.has(r.system) && typeof r.metrics.mae?.value === 'number')
    if (used.length === 0) {
      const note = `not computed: no baseline (${[...names].join(', ') || 'none declared'}) has an MAE on ${task}; score a baseline run with these items, or name others with --baselines`
      signatures[key] = `score-mae|baselines:-|${note}`
      tasks.push({ task, baselines: [], mu: null, sigma: null, signature: key, note })
      for (const r of taskRows) r.metrics.scoreMae = { value: null, signature: key, note }
      continue
    }
    const p = scoreMaeParams(used.map((r) => r.metrics.mae!.value!))
    const systemsUsed = used.map((r) => r.system)
    signatures[key] = scoreMaeSignature({ baselines: systemsUsed, mu: p.mu, sigma: p.sigma })
    tasks.push({ task, baselines: systemsUsed, mu: p.mu, sigma: p.sigma, signature: key })
    for (const r of taskRows) {
      const m = r.metrics.mae
      if (!m || m.value === null) {
        r.metrics.scoreMae = { value: null, signature: key, note: 'no parsed answer: no MAE' }
        continue
      }
      const at = (x: number | null | undefined) => (typeof x === 'number' ? scoreMae(x, p) : null)
      r.metrics.scoreMae = { value: scoreMae(m.value, p), ...(m.ci ? { ci: { low: at(m.ci.high), high: at(m.ci.low) } } : {}), signature: key }
    }
  }
  return { tasks, signatures }
}
