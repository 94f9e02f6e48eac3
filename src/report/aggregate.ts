// From per-item scores to a ScoreReport (report-types.ts): per system
// (model x modality) and task the counts, every metric of the task (task-metrics.ts) with a 95 %
// percentile bootstrap interval resampling cases (items of one case are not independent), corpus
// BLEU-1/4, ScoreMAE from the declared baselines (score-mae-rows.ts), McNemar's test for the pairs
// asked (comparisons.ts), win rates over tasks, and a seeded sample of items per task. Everything
// is computed from running sums (score-sums.ts), which `pipeline score` fills as it reads;
// aggregate() fills them from a list of items. Pure: the same items, options and seed give the
// same report.
import { bootstrapCi } from '../metrics/bootstrap.ts'
import type { TiePolicy } from '../metrics/win-rate.ts'
import type { RougeOptions } from '../metrics/rouge-l.ts'
import { TASK_TYPES } from '../holtercare/format.ts'
import { compareSystems, resolveSystem } from './comparisons.ts'
import { modalityDifferences } from './modality-differences.ts'
import { reportWinRates, type WinContests } from './win-rates.ts'
import { bootstrapped, metricFromCases } from './metric-stats.ts'
import { SCORE_REPORT_SCHEMA, type MetricValue, type ReportSystem, type ScoreReport, type TaskRow } from './report-types.ts'
import { pickSamples, reportSamples, type SampleCandidate } from './samples.ts'
import { NO_F1BIO, NO_JUDGE } from './score-hooks.ts'
import { applyScoreMae, DEFAULT_BASELINES } from './score-mae-rows.ts'
import { addItem, createScoreSums, type ScoreSums } from './score-sums.ts'
import type { ItemScore, ScoreQa } from './score-types.ts'
import { reportSignatures } from './signatures.ts'
import { LOWER_IS_BETTER, primaryMetric, taskMetrics, tierName, type MetricKey } from './task-metrics.ts'

export interface AggregateOptions {
  title: string
  tool: { name: string; version: string }
  sources: ScoreReport['sources']
  /** Where each system's predictions came from, keyed `model\u0000modality`. */
  systemSources?: ReadonlyMap<string, string[]>
  seed: number
  /** Bootstrap resamples (default 1000) and level (default 0.95). */
  resamples?: number
  level?: number
  /** ScoreMAE's baseline models; default DEFAULT_BASELINES (those present). */
  baselines?: readonly string[]
  /** `--compare A:B` pairs, each side a system label or a model name. */
  compare?: readonly [string, string][]
  exactMcnemar?: boolean
  samplesPerTask?: number
  /** The sample items chosen while the items were collected (collect-scores.ts); default: chosen here from the items' texts and `qa`. */
  samples?: readonly SampleCandidate[]
  toleranceMs?: number
  rouge?: RougeOptions
  /** Names parseLabels read (for the label F1 signature). */
  vocabularySize: number
  /** The hooks' signatures when F1-Bio / ScoreGPT were computed (score-hooks.ts). */
  f1Bio?: string
  scoreGpt?: string
  winRateTies?: TiePolicy
  /** What a win-rate contest is (win-rates.ts); default `task`. */
  winContests?: WinContests
  problems?: ScoreReport['problems']
}

/** The report of a set of item scores; `qa` gives the items' questions for the samples when `o.samples` is not given. */
export function aggregate(items: readonly ItemScore[], qa: ReadonlyMap<string, ScoreQa>, o: AggregateOptions): ScoreReport {
  const sums = createScoreSums()
  for (const i of items) addItem(sums, i)
  return aggregateSums(sums, { ...o, samples: o.samples ?? pickSamples(items, qa, { perTask: o.samplesPerTask ?? 3, seed: o.seed }) })
}

/** The report of running sums (score-sums.ts), with the sample items chosen while they were filled. */
export function aggregateSums(sums: ScoreSums, o: AggregateOptions & { samples: readonly SampleCandidate[] }): ScoreReport {
  const resamples = o.resamples ?? 1000
  const level = o.level ?? 0.95
  const systems = listSystems(sums, o.systemSources)
  const label = new Map(systems.map((s) => [key(s.model, s.modality), s.system]))
  const systemOf = (i: { model: string; modality: string }) => label.get(key(i.model, i.modality))!
  const tasks = orderTasks(sums.tasks)
  const f1Bio = o.f1Bio ?? NO_F1BIO
  const scoreGpt = o.scoreGpt ?? NO_JUDGE
  const rows: TaskRow[] = []
  for (const task of tasks) {
    for (const s of systems) {
      const g = sums.groups.get(`${key(s.model, s.modality)}\u0000${task}`)
      if (!g) continue
      const metrics: TaskRow['metrics'] = {}
      for (const m of taskMetrics(task)) {
        if (m === 'scoreMae') continue
        const missingNote = m === 'f1Bio' && !o.f1Bio ? NO_F1BIO : m === 'scoreGpt' && !o.scoreGpt ? NO_JUDGE : null
        metrics[m] = missingNote ? { value: null, signature: m, note: missingNote } : metric(m, [...(g.metrics.get(m)?.values() ?? [])], { seed: `${o.seed}:${s.system}:${task}:${m}`, resamples, level })
      }
      rows.push({
        task, tier: tierName(task), system: s.system, model: s.model, modality: s.modality,
        n: g.status.scored + g.status.unparsed, cases: g.readCases.size,
        unparsed: g.status.unparsed, failed: g.status.failed, missing: g.status.missing, noGold: g.status['no-gold'], metrics,
      })
    }
  }
  const declared = o.baselines ?? DEFAULT_BASELINES
  const mae = applyScoreMae(rows, systems, declared)
  const problems = [...(o.problems ?? [])]
  if (o.baselines) {
    const absent = o.baselines.filter((b) => !systems.some((s) => s.model === b))
    if (absent.length) problems.push({ kind: 'baseline-absent', message: `--baselines names ${absent.join(', ')}, which no scored run holds; ScoreMAE uses the others`, examples: absent })
  }
  const scoreGptComputed = o.scoreGpt !== undefined
  const metricByTask: Record<string, MetricKey> = {}
  for (const t of tasks) {
    const m = primaryMetric(t, scoreGptComputed)
    if (m) metricByTask[t] = m
  }
  const lowerIsBetter = tasks.filter((t) => LOWER_IS_BETTER.has(metricByTask[t]))
  const ties = o.winRateTies ?? 'shared'
  const winContests = o.winContests ?? 'task'
  const sig = reportSignatures({ seed: o.seed, resamples, level, toleranceMs: o.toleranceMs ?? 150, rouge: o.rouge ?? {}, exactMcnemar: o.exactMcnemar ?? true, vocabularySize: o.vocabularySize, f1Bio, scoreGpt, lowerIsBetter, ties, winContests })
  const pairs = (o.compare ?? []).map(([a, b]) => [resolveSystem(a, systems), resolveSystem(b, systems)] as [string, string])
  return {
    schema: SCORE_REPORT_SCHEMA,
    tool: o.tool,
    title: o.title,
    sources: o.sources,
    settings: {
      seed: o.seed,
      bootstrap: { resamples, level },
      baselines: { declared: [...declared], default: !o.baselines },
      compare: pairs,
      toleranceMs: o.toleranceMs ?? 150,
      rouge: { stem: o.rouge?.stem ?? false, tokenizer: o.rouge?.tokenizer ?? 'rouge-score' },
      mcnemar: { exact: o.exactMcnemar ?? true },
      winRateTies: ties,
      winContests,
      samplesPerTask: o.samplesPerTask ?? 3,
      f1Bio,
      scoreGpt,
    },
    signatures: { ...sig, ...mae.signatures },
    systems,
    tasks,
    rows,
    scoreMae: mae.tasks,
    comparisons: compareSystems(new Map([...sums.closed].map(([k, read]) => [label.get(k)!, read])), pairs, tasks, { exact: o.exactMcnemar ?? true, signature: 'mcnemar' }),
    winRates: reportWinRates(rows, systems, { metricByTask, lowerIsBetter, ties, contests: winContests }),
    modalities: modalityDifferences(sums, systems, { seed: o.seed, resamples, level, metricByTask, tasks }),
    samples: reportSamples(o.samples, systemOf, tasks),
    problems,
  }
}

// A metric from its per-case sums, with its interval.
function metric(m: MetricKey, cases: number[][], b: { seed: string; resamples: number; level: number }): MetricValue {
  const value = metricFromCases(m, cases)
  if (!Number.isFinite(value)) return { value: null, signature: m }
  if (!bootstrapped(m)) return { value, signature: m }
  // Resampling cases' sums is resampling the cases' items (metric-stats.ts), in bootstrapByCase's order.
  const ci = bootstrapCi(cases, (cs) => metricFromCases(m, cs), b)
  return { value, ci: { low: ci.low, high: ci.high }, signature: m }
}

const key = (model: string, modality: string) => `${model}\u0000${modality}`

// Systems in order of first appearance; a model's label gains its modality when it has several.
function listSystems(sums: ScoreSums, sources?: ReadonlyMap<string, string[]>): ReportSystem[] {
  const seen = sums.systems
  const perModel = new Map<string, number>()
  for (const s of seen.values()) perModel.set(s.model, (perModel.get(s.model) ?? 0) + 1)
  return [...seen].map(([k, s]) => ({ system: perModel.get(s.model)! > 1 ? `${s.model} (${s.modality})` : s.model, ...s, sources: sources?.get(k) ?? [] }))
}

function orderTasks(present: ReadonlySet<string>): string[] {
  const known = TASK_TYPES.filter((t) => present.has(t))
  return [...known, ...[...present].filter((t) => !(known as string[]).includes(t)).sort()]
}
