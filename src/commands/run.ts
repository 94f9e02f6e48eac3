// `pipeline run <dataset.yaml>`: validates the dataset, loads its stages, runs or resumes it,
// shows live progress on stderr and ends with a summary. Returns the process exit code.
import path from 'node:path'
import { loadDatasetStages } from '../config/dataset.ts'
import { ERROR_CODES } from '../core/errors.ts'
import { runDataset } from '../run/runner.ts'
import { applyProgress, emptyProgress, throughput, type ProgressEvent } from '../run/progress-events.ts'
import { renderProgress } from '../run/progress-view.ts'
import { BUILTIN_STAGES } from '../stages/index.ts'
import { probeRecord } from '../readers/read-probe.ts'
import { createLiveView } from './live-view.ts'
import { count } from './plural.ts'

export interface RunCommandArgs {
  dataset: string
  out?: string
  restart?: boolean
  concurrency?: number
  signal: AbortSignal
  err: NodeJS.WritableStream & { isTTY?: boolean }
}

/** Runs a dataset file end to end; resolves with the exit code. */
export async function runCommand(args: RunCommandArgs): Promise<number> {
  const { dataset, stages } = await loadDatasetStages(args.dataset, BUILTIN_STAGES)
  if (args.concurrency) dataset.concurrency = { records: args.concurrency }
  const runDir = args.out ? path.resolve(args.out) : dataset.out
  const state = emptyProgress()
  const view = createLiveView(args.err)
  const onEvent = (e: ProgressEvent) => {
    applyProgress(state, e)
    if (args.err.isTTY) {
      if (e.t !== 'run-end') view.update(renderProgress(state))
    } else if (e.t === 'record-done') {
      // Item kinds are names (plugins make their own: window-stats, rr), so they are not made plural.
      args.err.write(`done ${e.recordId}: ${(e.seconds / 3600).toFixed(2)} h of signal; items: ${Object.entries(e.items).map(([k, n]) => `${k} ${n}`).join(', ')}\n`)
    } else if (e.t === 'record-failed' || e.t === 'warning') {
      args.err.write(`${e.t === 'warning' ? 'warning' : 'failed'} ${e.recordId ?? ''}: ${e.message}\n`)
    }
  }
  const result = await runDataset(dataset, stages, { runDir, restart: args.restart, signal: args.signal, probe: probeRecord, onEvent })
  if (args.err.isTTY) view.final(renderProgress(state))
  const rel = path.relative(process.cwd(), runDir) || '.'
  const nothingToDo = result.done === 0 && result.failed.length === 0 && result.skipped === result.total
  const lines = [
    nothingToDo
      ? `run ${dataset.name} finished: ${result.skipped === 1 ? 'its 1 record was' : `all ${result.skipped} records were`} already done (--restart redoes ${result.skipped === 1 ? 'it' : 'them'})`
      : `run ${dataset.name} ${result.status}: ${count(result.done, 'record')} done${result.skipped ? `, ${result.skipped} already done before` : ''}, ${result.failed.length} failed; ${(state.sessionSeconds / 3600).toFixed(2)} h of signal at ${throughput(state).toFixed(0)}x real time`,
    `outputs in ${rel}`,
  ]
  for (const f of result.failed) lines.push(`  failed ${f.recordId}: ${f.error.toLine()}`)
  if (result.warnings.length) lines.push(`  ${count(result.warnings.length, 'warning')}: see ${path.join(rel, 'progress.ndjson')}`)
  if (result.status === 'interrupted') lines.push(`interrupted: run the same command again to resume (finished records are kept, unfinished ones are redone)`)
  args.err.write(lines.join('\n') + '\n')
  if (result.status === 'interrupted') return ERROR_CODES.E_INTERRUPTED
  return result.failed.length ? ERROR_CODES.E_RECORDS_FAILED : 0
}
