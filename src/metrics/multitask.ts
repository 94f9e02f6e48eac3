// Metrics of the ECG multi-task benchmark (Xu et al., arXiv 2512.08954; benchmark-spec.md) over
// prediction records {id, task, prediction, label}. Task names are those of the benchmark's
// code (github.com/yuhaoxu99/ECGMultitasks-Benchmark); the names of the issue are aliases:
//   rr_interval (alias rr)            MAE (ms, as the labels are)        lower is better
//   age                               MAE (years)                        lower is better
//   gender (alias sex)                binary F1, positive 1 = female     (the benchmark's prompt: 0 male, 1 female)
//   flag (alias potassium)            binary F1, positive 1 = abnormal potassium
//   report_label (alias arrhythmia)   accuracy over the 15 classes of ARRHYTHMIA_CLASSES
// Binary F1 follows the spec's recipe: P = tp / max(tp + fp, 1), R = tp / max(tp + fn, 1),
// F1 = 2PR / (P + R), and 0 when P + R = 0.
// Unparsed predictions are counted per task. In MAE they are left out (the benchmark's
// regression scoring skips what float() cannot read); in F1 and accuracy they are wrong (the
// complement of the gold class), never a free guess. A label that cannot be parsed, or an
// unknown task, is an error naming the record: a broken gold must not change a score silently.
import { PipelineError } from '../core/errors.ts'
import { mae } from './score-mae.ts'

export const MULTITASK_TASKS = ['rr_interval', 'age', 'gender', 'flag', 'report_label'] as const
export type MultitaskTask = (typeof MULTITASK_TASKS)[number]
const ALIASES: Record<string, MultitaskTask> = { rr: 'rr_interval', sex: 'gender', potassium: 'flag', arrhythmia: 'report_label' }
const METRIC = { rr_interval: 'mae', age: 'mae', gender: 'f1', flag: 'f1', report_label: 'accuracy' } as const
/** Tasks scored by MAE, for win-rate's lowerIsBetter. */
export const MULTITASK_LOWER_IS_BETTER: readonly string[] = ['rr_interval', 'age']

/** The 15 classes of the arrhythmia task, index = class id, as the benchmark's prompt lists them. */
export const ARRHYTHMIA_CLASSES = [
  'sinus rhythm', 'sinus bradycardia', 'sinus tachycardia', 'atrial fibrillation',
  'sinus rhythm with borderline 1st degree a-v block', 'sinus rhythm with 1st degree a-v block',
  'atrial fibrillation with rapid ventricular response', 'sinus arrhythmia', 'sinus rhythm with pac(s)',
  'ventricular pacing', 'consider acute st elevation mi ***', 'warning: data quality may affect interpretation',
  'sinus rhythm with pvc(s)', 'possible ectopic atrial rhythm', 'other',
] as const

export interface MultitaskRecord {
  id: string
  task: string
  prediction: unknown
  label: unknown
}

export interface MultitaskTaskScore {
  task: MultitaskTask
  metric: 'mae' | 'f1' | 'accuracy'
  /** MAE, F1 in [0, 1] or accuracy in [0, 1]; null for an MAE with no parsed prediction. */
  value: number | null
  higherIsBetter: boolean
  items: number
  unparsed: number
  /** F1 tasks: counts and the max(., 1) precision and recall. Accuracy: correct in tp. */
  counts?: { tp: number; fp: number; fn: number; tn: number }
  precision?: number
  recall?: number
}

/** A stable text of what was computed, for reports. */
export function multitaskSignature(): string {
  return 'multitask|rr_interval:mae|age:mae|gender:f1(pos=1 female)|flag:f1(pos=1 abnormal)|report_label:acc(15)|den:max(.,1)|unparsed:mae-excluded,class-wrong|v:1'
}

/** Canonical task name of a record's task (aliases accepted), or null when unknown. */
export function multitaskTask(name: string): MultitaskTask | null {
  const t = name.trim().toLowerCase()
  return (MULTITASK_TASKS as readonly string[]).includes(t) ? (t as MultitaskTask) : (ALIASES[t] ?? null)
}

/** Scores every task present in the records, in MULTITASK_TASKS order. */
export function scoreMultitask(records: readonly MultitaskRecord[]): MultitaskTaskScore[] {
  const byTask = new Map<MultitaskTask, Array<{ p: number | null; g: number }>>()
  for (const r of records) {
    const task = multitaskTask(String(r.task))
    if (!task) {
      throw new PipelineError('E_USAGE', `multitask: record ${r.id} has task "${r.task}"; expected one of ${MULTITASK_TASKS.join(', ')} (or ${Object.keys(ALIASES).join(', ')})`, { field: 'task', recordId: r.id })
    }
    const g = parseMultitaskValue(task, r.label)
    if (g === null) {
      throw new PipelineError('E_USAGE', `multitask: record ${r.id} (${task}) has label ${JSON.stringify(r.label)}, which is not a valid ${task} value; fix the label in the predictions file`, { field: 'label', recordId: r.id })
    }
    const list = byTask.get(task) ?? []
    list.push({ p: parseMultitaskValue(task, r.prediction), g })
    byTask.set(task, list)
  }
  return MULTITASK_TASKS.filter((t) => byTask.has(t)).map((t) => scoreTask(t, byTask.get(t)!))
}

function scoreTask(task: MultitaskTask, rows: Array<{ p: number | null; g: number }>): MultitaskTaskScore {
  const metric = METRIC[task]
  const unparsed = rows.filter((r) => r.p === null).length
  const base = { task, metric, items: rows.length, unparsed, higherIsBetter: metric !== 'mae' }
  if (metric === 'mae') return { ...base, value: mae(rows.map((r) => ({ predicted: r.p, gold: r.g }))).mae }
  if (metric === 'accuracy') {
    const correct = rows.filter((r) => r.p === r.g).length
    return { ...base, value: correct / rows.length, counts: { tp: correct, fp: 0, fn: 0, tn: 0 } }
  }
  const c = { tp: 0, fp: 0, fn: 0, tn: 0 }
  for (const r of rows) {
    const p = r.p ?? 1 - r.g // unparsed: the wrong class
    if (p === 1 && r.g === 1) c.tp++
    else if (p === 1) c.fp++
    else if (r.g === 1) c.fn++
    else c.tn++
  }
  const precision = c.tp / Math.max(c.tp + c.fp, 1)
  const recall = c.tp / Math.max(c.tp + c.fn, 1)
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
  return { ...base, value: f1, counts: c, precision, recall }
}

/** A prediction or label parsed for its task: a number (MAE tasks) or a class id; null when unreadable. */
export function parseMultitaskValue(task: MultitaskTask, value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && (METRIC[task] === 'mae' || validClass(task, value)) ? value : null
  if (typeof value !== 'string') return null
  const text = answerPart(value)
  if (METRIC[task] === 'mae') return firstNumber(text)
  const cls = task === 'report_label' ? arrhythmiaClass(text) : binaryClass(task, text)
  return cls !== null && validClass(task, cls) ? cls : null
}

function validClass(task: MultitaskTask, v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v < (task === 'report_label' ? ARRHYTHMIA_CLASSES.length : 2)
}

// The text after the last "Label:" / "Answer:" / "Prediction:", where the benchmark's prompt asks
// for it (a decoded output often repeats the prompt first); the whole text when there is none.
function answerPart(text: string): string {
  const marks = [...text.matchAll(/\b(?:label|answer|prediction)\s*[:=]/gi)]
  const last = marks.at(-1)
  return (last ? text.slice(last.index + last[0].length) : text).trim().toLowerCase()
}

function firstNumber(text: string): number | null {
  const m = /[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+/.exec(text)
  return m ? Number(m[0].replace(/,/g, '')) : null
}

/** Standalone integers of a text (not parts of decimals or words like "1st"). */
function integers(text: string): number[] {
  return [...text.matchAll(/(?<![\w.])\d+(?![\w.]|\.\d)/g)].map((m) => Number(m[0]))
}

const BINARY_WORDS: Record<string, Array<[RegExp, number]>> = {
  gender: [[/\b(?:female|woman|girl)\b/, 1], [/\b(?:male|man|boy)\b/, 0]],
  flag: [[/\b(?:abnormal|hyperkal[a]?emi\w*|hypokal[a]?emi\w*)\b/, 1], [/\b(?:normal|normokal[a]?emi\w*)\b/, 0]],
}

// A class named by a word or a standalone 0/1; several different classes named means unreadable.
function binaryClass(task: MultitaskTask, text: string): number | null {
  const found = new Set<number>()
  for (const [re, cls] of BINARY_WORDS[task]) if (re.test(text)) found.add(cls)
  for (const n of integers(text)) found.add(n)
  if (task === 'gender' && /^[fm]\.?$/.test(text)) found.add(text[0] === 'f' ? 1 : 0)
  return found.size === 1 ? [...found][0] : null
}

function normaliseRhythm(text: string): string {
  return text.toLowerCase().replace(/\(s\)/g, '').replace(/\bfirst\b/g, '1st').replace(/\brvr\b/g, 'rapid ventricular response')
    .replace(/[^a-z0-9]+/g, ' ').replace(/\ba v\b/g, 'av').replace(/\s+/g, ' ').trim()
}

const RHYTHM_PATTERNS = ARRHYTHMIA_CLASSES.map((name, cls) => ({ cls, re: new RegExp(`\\b${normaliseRhythm(name)}s?\\b`, 'g') }))

// The class whose name occurs in the text, ignoring names inside a longer named class ("atrial
// fibrillation" inside "atrial fibrillation with rapid ventricular response"); else the only
// integer of the text. "other" counts only as the whole answer, not as a word in reasoning.
function arrhythmiaClass(text: string): number | null {
  const t = normaliseRhythm(text)
  if (t === 'other') return ARRHYTHMIA_CLASSES.length - 1
  const spans: Array<{ cls: number; start: number; end: number }> = []
  for (const { cls, re } of RHYTHM_PATTERNS.slice(0, -1)) {
    for (const m of t.matchAll(re)) spans.push({ cls, start: m.index, end: m.index + m[0].length })
  }
  const outer = spans.filter((s) => !spans.some((o) => o !== s && o.start <= s.start && o.end >= s.end && o.end - o.start > s.end - s.start))
  const classes = new Set(outer.map((s) => s.cls))
  if (classes.size === 1) return [...classes][0]
  if (classes.size > 1) return null
  const ints = integers(text)
  return ints.length === 1 ? ints[0] : null
}
