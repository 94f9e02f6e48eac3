// Which metrics each task type is scored by, what they are called in the tables, and which one
// decides a task's win (win rate): each task's module says (src/qa/tasks/), this reads it.
// Percent-scale metrics (accuracy, F1s, BLEU, ROUGE-L, F1-Bio, ScoreGPT, ScoreMAE) are stored
// 0-100, the paper's scale; MAE is in the task's unit (events, ms, years). Pure.
import { taskModule } from '../qa/tasks/index.ts'
import type { MetricKey, TaskKind } from '../qa/tasks/task-module.ts'

export type { MetricKey, TaskKind }

export const METRIC_LABELS: Record<MetricKey, string> = {
  accuracy: 'Acc', mae: 'MAE', scoreMae: 'ScoreMAE', timestampF1: 'Time-F1', labelF1: 'Label-F1', yesNoAccuracy: 'Yes/no acc', binaryF1: 'F1',
  bleu1: 'BLEU-1', bleu4: 'BLEU-4', corpusBleu1: 'corpus BLEU-1', corpusBleu4: 'corpus BLEU-4', rougeL: 'ROUGE-L', f1Bio: 'F1-Bio', scoreGpt: 'ScoreGPT',
}

/** Metrics where lower is better. */
export const LOWER_IS_BETTER: ReadonlySet<MetricKey> = new Set(['mae'])

/** How answers of `task` are read; null for a task type no module defines. */
export function taskKind(task: string): TaskKind | null {
  return taskModule(task)?.kind ?? null
}

/** The metrics reported for `task`, the task's own first. */
export function taskMetrics(task: string): MetricKey[] {
  return [...(taskModule(task)?.metrics ?? [])]
}

/** The metric that decides who wins `task` (win rate): its module's, by default its own first metric. */
export function primaryMetric(task: string, scoreGptComputed: boolean): MetricKey | null {
  const m = taskModule(task)
  if (!m) return null
  return m.decidedBy?.(scoreGptComputed) ?? m.metrics[0] ?? null
}

/** The tier of a task ("Closed-QA", "Open-QA", "Report-Generation", "Multitask"), or "other". */
export function tierName(task: string): string {
  return taskModule(task)?.tier ?? 'other'
}

/** Whether the task is scored by text metrics (open and report tasks). */
export function hasTextMetrics(task: string): boolean {
  return taskModule(task)?.metrics.includes('rougeL') ?? false
}
