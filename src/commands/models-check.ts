// `pipeline models check <dataset>`: before a paid run, for each API model of the dataset's infer
// stages, one short call (reachable? key accepted? model known?) and the budget check of every
// QA item it would be shown, with what would be sent as is, downsampled, skipped or refused.
// Nothing else is spent. The items are the input run's (an evaluation run) or, for a dataset
// that makes its own, those of its run directory when it has run; otherwise only the calls.
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { QaItem } from '../core/items.ts'
import { loadDatasetStages } from '../config/dataset.ts'
import { checkBudget } from '../models/budget-check.ts'
import { promptTokens } from '../models/chat-request.ts'
import { answers, type ApiModelConfig, type ModelConfig } from '../models/model-config.ts'
import { probeModel } from '../models/model-probe.ts'
import { openInputRun } from '../run/input-run.ts'

export interface ModelsCheckArgs {
  dataset: string
  /** The run directory the dataset writes to, when not its own `out` (pipeline run --out). */
  runDir?: string
  out: NodeJS.WritableStream
  signal: AbortSignal
  env?: NodeJS.ProcessEnv
}

interface Tally { items: number; fit: number; downsample: number; skip: number; fail: number; missing: number; examples: string[] }

/** Runs the check; resolves with the exit code (1 when a model cannot be reached or an item would fail the run). */
export async function modelsCheckCommand(a: ModelsCheckArgs): Promise<number> {
  const { dataset, stages } = await loadDatasetStages(path.resolve(a.dataset))
  const models = stages.filter((s) => s.stage.name === 'infer').flatMap((s) => (s.options as { models: ModelConfig[] }).models)
  if (!models.length) throw new PipelineError('E_USAGE', `${a.dataset} has no infer stage: nothing to check (add - use: infer with models: [...])`, { file: a.dataset })
  const api = models.filter((m): m is ApiModelConfig => m.kind === 'openai-compatible')
  let bad = 0
  const say = (line: string) => a.out.write(`${line}\n`)
  for (const m of models.filter((x) => x.kind !== 'openai-compatible')) say(`${m.name}: built-in baseline (${m.kind}), no call needed`)
  for (const m of api) {
    const p = await probeModel(m, a.signal, a.env)
    say(`${m.name}: ${p.ok ? 'ok' : 'FAILED'} - ${p.message}`)
    if (!p.ok) bad++
  }
  const source = dataset.input?.run ?? (a.runDir ? path.resolve(a.runDir) : dataset.out)
  const items = await readQaItems(source, a.signal)
  if (items === null) {
    say(`budgets: no QA items yet in ${source} (run the dataset, or the benchmark it reads, first); only the calls were checked`)
    return bad ? 1 : 0
  }
  const tallies = new Map<string, Tally>(api.map((m) => [m.name, { items: 0, fit: 0, downsample: 0, skip: 0, fail: 0, missing: 0, examples: [] }]))
  for await (const item of items) {
    for (const m of api) {
      if (!answers(m, item)) continue
      const t = tallies.get(m.name)!
      t.items++
      const v = checkBudget(item, m, promptTokens(item, m))
      if (v.missing) t.missing++
      else if (!v.over.length) t.fit++
      else {
        const policy = m.overBudget === 'downsample' && !v.downsampleable ? 'skip' : m.overBudget
        t[policy]++
        if (t.examples.length < 3) t.examples.push(`${item.id}: ${v.over.map((o) => `${o.limit} ${o.size} > ${o.max}`).join(', ')} -> ${policy}`)
      }
    }
  }
  say(`budgets over the QA items of ${source} (request sizes in bytes are checked at the call):`)
  say('model | modality | items | fit | downsampled | skipped | would fail the run | no input (not sent)')
  for (const m of api) {
    const t = tallies.get(m.name)!
    say(`${m.name} | ${m.modality} | ${t.items} | ${t.fit} | ${t.downsample} | ${t.skip} | ${t.fail} | ${t.missing}`)
    for (const e of t.examples) say(`  ${e}`)
    if (t.fail) bad++
  }
  return bad ? 1 : 0
}

// The QA items of a run directory or export folder, or null when it holds none yet.
async function readQaItems(dir: string, signal: AbortSignal): Promise<AsyncIterable<QaItem> | null> {
  if (!(await stat(dir).then(() => true, () => false))) return null
  const input = await openInputRun(dir).catch(() => null)
  if (!input || !input.records.length) return null
  return (async function* () {
    for (const r of input.records) {
      for await (const item of input.items(r, new Set(['qa']), dir, signal)) if (item.kind === 'qa') yield item as QaItem
    }
  })()
}
