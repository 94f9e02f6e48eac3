// The rules a line of an ECG multi-task label file must keep (pure; layout.ts writes them):
// the benchmark's loader reads subject_id as an integer, ecg_path as a WFDB record it opens, and
// the label as a number (regression) or a class index, so a line that breaks one fails there, far
// from the file. Messages say what is wrong and what the line should hold.
import { taskModule } from '../qa/tasks/index.ts'

/** The task of a label file from its name (<task>.jsonl), or null when it names no multi-task task. */
export function labelFileTask(name: string): string | null {
  const task = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : ''
  return taskModule(task)?.tier === 'Multitask' ? task : null
}

/** What is wrong with one parsed line of the label file of `task`. */
export function labelLineProblems(o: unknown, task: string): string[] {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return ['not a JSON object; a line is {"subject_id", "ecg_path", "' + task + '", "id"}']
  const line = o as Record<string, unknown>
  const out: string[] = []
  if (!Number.isInteger(line.subject_id) || (line.subject_id as number) < 0) out.push(`subject_id ${JSON.stringify(line.subject_id)} is not a whole number; give each case an integer`)
  if (typeof line.ecg_path !== 'string' || !line.ecg_path || line.ecg_path.startsWith('/') || line.ecg_path.split('/').includes('..')) out.push(`ecg_path ${JSON.stringify(line.ecg_path)} is not a record path inside the folder; give the WFDB record's path relative to the export folder, without extension`)
  const m = taskModule(task)!
  const v = line[task]
  if (m.kind === 'class') {
    const n = m.classes?.length ?? 0
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) >= n) out.push(`${task} ${JSON.stringify(v)} is not a class index; give 0-${n - 1} (${(m.classes ?? []).map((c, i) => `${i} ${c}`).slice(0, 3).join(', ')}, ...)`)
  } else if (typeof v !== 'number' || !Number.isFinite(v)) out.push(`${task} ${JSON.stringify(v)} is not a number; give the value${m.unit ? ` in ${m.unit}` : ''}`)
  return out
}
