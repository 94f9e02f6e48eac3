// `pipeline score --multitask preds.jsonl`: the ECG multi-task benchmark's metrics (Xu et al.;
// src/metrics/multitask.ts) over a JSON-lines file of {id, task, prediction, label}, with an
// optional "model" per line: each model's MAE, F1 and accuracy per task, and with several models
// their win rates over the tasks. The table is printed; with --out it is also written as
// multitask.json and multitask.md.
import { createReadStream } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { PipelineError } from '../core/errors.ts'
import { MULTITASK_LOWER_IS_BETTER, multitaskSignature, scoreMultitask, type MultitaskRecord, type MultitaskTaskScore } from '../metrics/multitask.ts'
import { winRate, winRateSignature } from '../metrics/win-rate.ts'
import { markdownTable } from '../report/markdown.ts'

export interface MultitaskArgs {
  file: string
  out?: string
  stdout: NodeJS.WritableStream
  signal?: AbortSignal
}

/** Scores the file; resolves with the exit code. */
export async function scoreMultitaskCommand(a: MultitaskArgs): Promise<number> {
  const byModel = new Map<string, MultitaskRecord[]>()
  let line = 0
  try {
    for await (const text of createInterface({ input: createReadStream(a.file, { encoding: 'utf8', signal: a.signal }), crlfDelay: Infinity })) {
      line++
      if (text.trim() === '') continue
      let o: Record<string, unknown>
      try {
        o = JSON.parse(text) as Record<string, unknown>
      } catch (cause) {
        throw new PipelineError('E_USAGE', `${a.file}:${line} is not JSON; each line is {"id", "task", "prediction", "label"} (optionally "model")`, { file: a.file, line }, { cause })
      }
      if (typeof o !== 'object' || o === null || typeof o.task !== 'string') throw new PipelineError('E_USAGE', `${a.file}:${line} has no "task"; each line is {"id", "task", "prediction", "label"}`, { file: a.file, line })
      const model = typeof o.model === 'string' && o.model ? o.model : 'model'
      const list = byModel.get(model) ?? []
      byModel.set(model, list)
      list.push({ id: String(o.id ?? `line ${line}`), task: o.task, prediction: o.prediction, label: o.label })
    }
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') throw new PipelineError('E_FILE_MISSING', `no predictions file ${a.file}`, { file: a.file }, { cause })
    throw cause
  }
  if (!byModel.size) throw new PipelineError('E_USAGE', `${a.file} has no prediction line`, { file: a.file })
  const scores = [...byModel].map(([model, records]) => ({ model, tasks: scoreMultitask(records) }))
  const win = winRate(scores.flatMap((s) => s.tasks.map((t) => ({ task: t.task, model: s.model, value: t.value }))), { lowerIsBetter: MULTITASK_LOWER_IS_BETTER })
  const table = {
    caption: 'ECG multi-task benchmark (MAE: lower is better; F1 and accuracy in %)',
    columns: ['model', 'task', 'metric', 'value', 'items', 'unparsed'],
    rows: scores.flatMap((s) => s.tasks.map((t) => [s.model, t.task, t.metric, cell(t), t.items, t.unparsed])),
  }
  const wins = { caption: 'Win rate over tasks', columns: ['model', 'wins', 'tasks', 'win rate'], rows: Object.entries(win.models).map(([m, w]) => [m, w.wins, w.contests, w.rate === null ? null : `${(100 * w.rate).toFixed(1)} %`]) }
  const signatures = { multitask: multitaskSignature(), winRate: winRateSignature({ lowerIsBetter: MULTITASK_LOWER_IS_BETTER }) }
  const md = ['# ECG multi-task scores', '', ...markdownTable(table), '', ...(scores.length > 1 ? [...markdownTable(wins), ''] : []), ...Object.entries(signatures).map(([k, v]) => `- ${k}: \`${v}\``), ''].join('\n')
  a.stdout.write(md)
  if (a.out) {
    await mkdir(a.out, { recursive: true })
    await writeFile(path.join(a.out, 'multitask.json'), JSON.stringify({ signatures, models: scores, winRates: win.models }, null, 2) + '\n')
    await writeFile(path.join(a.out, 'multitask.md'), md)
  }
  return 0
}

function cell(t: MultitaskTaskScore): string | null {
  if (t.value === null) return null
  return t.metric === 'mae' ? t.value.toFixed(2) : (100 * t.value).toFixed(1)
}
