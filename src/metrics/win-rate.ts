// Win Rate (the ECG multi-task benchmark of Xu et al., benchmark-spec.md): the share of contests
// (a task, or a task x setting such as modality or zero-/few-shot) in which a model has the best
// score among the compared models.
//   - Direction per task: higher is better unless the task is listed in `lowerIsBetter` (MAE).
//   - A contest counts when at least one model has a finite score in it. A model without a
//     score there cannot win it but it still counts in that model's denominator: every model's
//     rate is wins / all contests, so skipping hard tasks never raises a rate. `entered` says
//     how many contests a model had a score in.
//   - Ties for best (equal within `tieTolerance`, default 0: exact equality):
//       'shared' (default): each tied model gets a whole win, as the issue states, so wins can
//                 sum to more than the number of contests;
//       'split':  each of k tied models gets 1/k, so wins sum to the number of contests;
//       'none':   nobody wins a tied contest.
import { PipelineError } from '../core/errors.ts'

export type TiePolicy = 'shared' | 'none' | 'split'

export interface WinRateEntry {
  task: string
  /** Optional second key of a contest (modality, shot setting...). */
  setting?: string
  model: string
  /** The metric's value; null or non-finite = no score. */
  value: number | null
}

export interface WinRateOptions {
  ties?: TiePolicy
  /** Tasks whose metric is better when lower (MAE...). */
  lowerIsBetter?: readonly string[]
  /** Scores within this distance of the best count as tied for best (default 0). */
  tieTolerance?: number
}

export interface ModelWinRate {
  wins: number
  contests: number
  entered: number
  rate: number | null
}

export interface WinRateResult {
  models: Record<string, ModelWinRate>
  contests: Array<{ task: string; setting?: string; best: string[] }>
}

/** A stable text of the settings, for reports. */
export function winRateSignature(opts: WinRateOptions = {}): string {
  const lower = [...(opts.lowerIsBetter ?? [])].sort().join(',')
  return `win-rate|ties:${opts.ties ?? 'shared'}|tol:${opts.tieTolerance ?? 0}|lower:${lower || '-'}|missing:loss`
}

/** Each model's share of task (x setting) contests in which it has the best score. */
export function winRate(entries: readonly WinRateEntry[], opts: WinRateOptions = {}): WinRateResult {
  const ties = opts.ties ?? 'shared'
  const tol = opts.tieTolerance ?? 0
  if (!['shared', 'none', 'split'].includes(ties) || !(tol >= 0)) {
    throw new PipelineError('E_CONFIG_VALUE', `win-rate: ties must be 'shared', 'split' or 'none' and tieTolerance >= 0, found ties=${String(ties)}, tieTolerance=${tol}`, { field: 'ties' })
  }
  const lower = new Set(opts.lowerIsBetter ?? [])
  const byContest = new Map<string, { task: string; setting?: string; scores: Map<string, number> }>()
  const models = new Map<string, ModelWinRate>()
  for (const e of entries) {
    if (!models.has(e.model)) models.set(e.model, { wins: 0, contests: 0, entered: 0, rate: null })
    if (typeof e.value !== 'number' || !Number.isFinite(e.value)) continue
    const key = JSON.stringify([e.task, e.setting ?? null])
    const contest = byContest.get(key) ?? { task: e.task, setting: e.setting, scores: new Map() }
    if (contest.scores.has(e.model)) {
      throw new PipelineError('E_USAGE', `win-rate: model ${e.model} has two scores for task ${e.task}${e.setting ? ` / ${e.setting}` : ''}; give one score per model and contest`, { field: 'entries' })
    }
    contest.scores.set(e.model, e.value)
    byContest.set(key, contest)
  }
  const contests: WinRateResult['contests'] = []
  for (const c of byContest.values()) {
    const sign = lower.has(c.task) ? -1 : 1
    let best = -Infinity
    for (const v of c.scores.values()) best = Math.max(best, sign * v)
    const winners = [...c.scores].filter(([, v]) => sign * v >= best - tol).map(([m]) => m)
    for (const m of c.scores.keys()) models.get(m)!.entered++
    const share = winners.length === 1 || ties === 'shared' ? 1 : ties === 'split' ? 1 / winners.length : 0
    for (const m of winners) models.get(m)!.wins += share
    contests.push({ task: c.task, ...(c.setting !== undefined ? { setting: c.setting } : {}), best: winners })
  }
  const out: Record<string, ModelWinRate> = {}
  for (const [m, r] of models) {
    out[m] = { ...r, contests: contests.length, rate: contests.length ? r.wins / contests.length : null }
  }
  return { models: out, contests }
}
