// Which metrics each task type is scored by (benchmark-spec.md "The 12 task types" and
// "Metrics"), what they are called in the tables, and which one decides a task's win
// (win rate). Percent-scale metrics (accuracy, F1s, BLEU, ROUGE-L, F1-Bio, ScoreGPT, ScoreMAE) are
// stored 0-100, the paper's scale; MAE is in the task's unit (events, or ms). Pure.
import { isTaskType, tierOf } from '../holtercare/format.ts'

export type MetricKey =
  | 'accuracy' | 'mae' | 'scoreMae' | 'timestampF1' | 'labelF1' | 'yesNoAccuracy'
  | 'bleu1' | 'bleu4' | 'corpusBleu1' | 'corpusBleu4' | 'rougeL' | 'f1Bio' | 'scoreGpt'

/** How an answer of a task is read: an option, a number, a list of times, labels, yes/no, or not at all. */
export type TaskKind = 'choice' | 'count' | 'timestamp' | 'timestamps' | 'labels' | 'yesno' | 'report'

export const METRIC_LABELS: Record<MetricKey, string> = {
  accuracy: 'Acc', mae: 'MAE', scoreMae: 'ScoreMAE', timestampF1: 'Time-F1', labelF1: 'Label-F1', yesNoAccuracy: 'Yes/no acc',
  bleu1: 'BLEU-1', bleu4: 'BLEU-4', corpusBleu1: 'corpus BLEU-1', corpusBleu4: 'corpus BLEU-4', rougeL: 'ROUGE-L', f1Bio: 'F1-Bio', scoreGpt: 'ScoreGPT',
}

/** Metrics where lower is better. */
export const LOWER_IS_BETTER: ReadonlySet<MetricKey> = new Set(['mae'])

const TEXT: MetricKey[] = ['bleu1', 'bleu4', 'corpusBleu1', 'corpusBleu4', 'rougeL', 'f1Bio']

/** How answers of `task` are read; null for a task type that is not one of the 12. */
export function taskKind(task: string): TaskKind | null {
  if (task.startsWith('closed_')) return isTaskType(task) ? 'choice' : null
  switch (task) {
    case 'open_event_counting': return 'count'
    case 'open_HR_extremum_timing': return 'timestamp'
    case 'open_event_timing': return 'timestamps'
    case 'open_diagnosis': return 'labels'
    case 'open_evidence_reasoning': return 'yesno'
    case 'report_statistical_overview':
    case 'report_general_summary': return 'report'
    default: return null
  }
}

/** The metrics reported for `task`, the task's own first. */
export function taskMetrics(task: string): MetricKey[] {
  switch (taskKind(task)) {
    case 'choice': return ['accuracy']
    case 'count':
    case 'timestamp': return ['mae', 'scoreMae', ...TEXT]
    case 'timestamps': return ['timestampF1', ...TEXT]
    case 'labels': return ['labelF1', ...TEXT]
    case 'yesno': return ['yesNoAccuracy', ...TEXT]
    case 'report': return ['scoreGpt', ...TEXT]
    default: return []
  }
}

/** The metric that decides who wins `task` (win rate): its own, ROUGE-L for reports unless ScoreGPT was computed. */
export function primaryMetric(task: string, scoreGptComputed: boolean): MetricKey | null {
  const kind = taskKind(task)
  if (kind === 'report') return scoreGptComputed ? 'scoreGpt' : 'rougeL'
  if (kind === 'count' || kind === 'timestamp') return 'mae'
  return taskMetrics(task)[0] ?? null
}

/** The tier of a task ("Closed-QA", "Open-QA", "Report-Generation"), or "other". */
export function tierName(task: string): string {
  return isTaskType(task) ? tierOf(task) : 'other'
}

/** Whether the task is scored by text metrics (open and report tasks). */
export function hasTextMetrics(task: string): boolean {
  const kind = taskKind(task)
  return kind !== null && kind !== 'choice'
}
