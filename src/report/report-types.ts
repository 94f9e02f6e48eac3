// The schema of report.json (`pipeline score`): every number with the key of its
// signature in `signatures` (what exactly was computed: tokenizer, smoothing, tolerance, baseline
// set, bootstrap seed...), its 95 % case-bootstrap interval where one applies, and the counts
// beside it. Markdown (markdown.ts) and the HTML view (view.ts) are rendered from this alone.
// Percent-scale metrics are 0-100; MAE is in the task's unit (task-metrics.ts).
import type { MetricKey } from './task-metrics.ts'

export const SCORE_REPORT_SCHEMA = 'holter-pipeline/score-report@1'

/** One metric of one row. `value` null: nothing to compute it on, or `note` says why (unavailable, not computed). */
export interface MetricValue {
  value: number | null
  /** Percentile bootstrap interval resampling cases (low/high null when it could not be computed). */
  ci?: { low: number | null; high: number | null }
  /** Key of its signature in ScoreReport.signatures. */
  signature: string
  note?: string
}

/** A scored system: a model shown one modality (baselines: `none`). */
export interface ReportSystem {
  /** `model` or `model (modality)`: the label of tables, comparisons and win rates. */
  system: string
  model: string
  /** The API model's id on its server, when its predictions say it (Table 11 groups by it). */
  modelId?: string
  modality: string
  /** Where its predictions came from (run directories, or the predictions file). */
  sources: string[]
}

/** One system on one task. */
export interface TaskRow {
  task: string
  tier: string
  system: string
  model: string
  modality: string
  /** Items with a prediction that was read (scored + unparsed). */
  n: number
  /** Cases of those items (the bootstrap's units). */
  cases: number
  unparsed: number
  failed: number
  missing: number
  noGold: number
  metrics: Partial<Record<MetricKey, MetricValue>>
}

/** ScoreMAE's parameters on one task: from the MAEs of the declared baselines present. */
export interface ScoreMaeTask {
  task: string
  /** Baseline systems whose MAE was used. */
  baselines: string[]
  mu: number | null
  sigma: number | null
  signature: string
  note?: string
}

/** McNemar's test of two systems on the closed items both read (`task` "all closed" pools them). */
export interface Comparison {
  a: string
  b: string
  task: string
  /** Items both systems answered (failed, missing and no-gold left out). */
  n: number
  /** [[both right, only A right], [only B right, both wrong]]. */
  table: [[number, number], [number, number]]
  accuracyA: number | null
  accuracyB: number | null
  statistic: number
  pValue: number
  method: string
  signature: string
}

/** One model's later modality against its first on one task (Table 11): b - a by the task's deciding metric. */
export interface ModalityDifference {
  /** The model's API id, with the names it ran under when they differ from it. */
  model: string
  task: string
  metric: MetricKey
  /** The systems compared: the model's first modality, and a later one. */
  a: string
  b: string
  difference: number | null
  /** Paired percentile bootstrap interval: cases resampled once for both systems. */
  ci: { low: number | null; high: number | null }
  signature: string
}

export interface WinRates {
  /** The metric deciding each task. */
  metricByTask: Record<string, MetricKey>
  systems: Record<string, { wins: number; contests: number; entered: number; rate: number | null }>
  /** `task`: systems compete per task; `task-modality`: models compete per task and modality (win-rates.ts). */
  contestKind: 'task' | 'task-modality'
  /** Per contest, the best: system labels, or models with `task-modality`. */
  contests: { task: string; setting?: string; best: string[] }[]
  signature: string
}

/** One item shown in full with every system's answer (per task, a seeded choice). */
export interface ReportSample {
  task: string
  qaId: string
  caseId: string
  question: string
  gold: string
  /** Absolute path of the item's first image input. */
  image?: string
  answers: { system: string; answer: string; status: string; score: string }[]
}

export interface ScoreReport {
  schema: typeof SCORE_REPORT_SCHEMA
  tool: { name: string; version: string }
  title: string
  /** What was scored: run directories, or a Holtercare folder and a predictions file. */
  sources: { runs?: string[]; qa?: string; predictions?: string }
  settings: {
    seed: number
    bootstrap: { resamples: number; level: number }
    /** The baselines declared for ScoreMAE (`--baselines`) and whether the default was used. */
    baselines: { declared: string[]; default: boolean }
    compare: [string, string][]
    toleranceMs: number
    rouge: { stem: boolean; tokenizer: string }
    mcnemar: { exact: boolean }
    winRateTies: string
    winContests: string
    samplesPerTask: number
    f1Bio: string
    scoreGpt: string
  }
  /** Signature key -> signature text. */
  signatures: Record<string, string>
  systems: ReportSystem[]
  /** Tasks present, in the paper's order. */
  tasks: string[]
  rows: TaskRow[]
  scoreMae: ScoreMaeTask[]
  comparisons: Comparison[]
  winRates: WinRates
  /** Table 11: the models scored in several modalities, each later modality against the first. */
  modalities: ModalityDifference[]
  samples: ReportSample[]
  /** What could not be scored and why: unmatched prediction lines, items without gold, duplicates. */
  problems: { kind: string; message: string; count?: number; examples?: string[] }[]
}
