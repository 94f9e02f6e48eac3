// What `pipeline qa export` writes for the ECG multi-task benchmark's tasks (pure), in that
// benchmark's record format: JSON lines of {subject_id, ecg_path, <label>} whose ecg_path names
// a WFDB record (read there with wfdb.rdsamp) and whose label field is the task's name
// (rr_interval, age, gender, report_label). Its loader reads one label column per run, so each
// task has a file of its own per split and a line only where the task has gold; subject_id is an
// integer there, so cases are numbered in the order the export meets them and the numbering is
// kept beside the files. Each excerpt is one record named by its number, never by the record it
// comes from: a model shown the file learns nothing from its name.
import type { QaItem } from '../core/items.ts'

/** The export's folder for these tasks. */
export const MULTITASK_DIR = 'multitask'

/** The WFDB record (no extension, relative to the export folder) of the n-th excerpt exported, from 1. */
export function ecgRecordPath(n: number): string {
  return `${MULTITASK_DIR}/ecg/${String(n).padStart(6, '0')}`
}

/** The label file of a task in a split, relative to the export folder. */
export function labelFilePath(split: string, task: string): string {
  return `${MULTITASK_DIR}/${split}/${task}.jsonl`
}

/** A line of a label file: the benchmark's fields, then our item's id to join predictions back. */
export function labelLine(q: QaItem, subjectId: number, ecgPath: string): Record<string, unknown> {
  return { subject_id: subjectId, ecg_path: ecgPath, [q.taskType]: q.gold.value, id: q.id }
}
