// Runs a dataset: every record is one backpressured stream, records run with bounded
// concurrency, and finished records are committed to the outputs in dataset order, so the
// output files are byte-identical however the run was interrupted and resumed.
//
//   dataset.yaml --> records (concurrency.records at a time)
//                      |  per record: pipeline(read -> stage -> ... -> record sink)   [run-record.ts]
//                      v
//                 .parts/<recordId>/<kind>.ndjson
//                      |  committer, in dataset order                                 [checkpoint-store.ts]
//                      v
//                 <kind>.ndjson + checkpoints.ndjson (+ progress.ndjson, manifest.json)
import path from 'node:path'
import { rm } from 'node:fs/promises'
import { forEachBounded } from '../core/bounded.ts'
import { isAbortError, PipelineError, withContext } from '../core/errors.ts'
import type { RecordProbe, RecordSpec } from '../core/record.ts'
import type { Dataset } from '../config/dataset-schema.ts'
import type { ResolvedStage } from '../config/plugins.ts'
import { makeDirs } from '../sinks/make-dirs.ts'
import { openRunDir } from './run-dir.ts'
import { runRecord, type RecordRunResult } from './run-record.ts'
import { planRun } from './run-plan.ts'
import type { ProgressEvent } from './progress-events.ts'
import { TOOL } from '../core/version.ts'
import { doneTotals, openCheckpointStore } from './checkpoint-store.ts'
import { inputRunKey } from './input-run.ts'
import { createItemJournals } from './item-journal.ts'
import { openProgressLog } from './progress-log.ts'
import { acquireRunLock } from './run-lock.ts'
import { writeManifest, type Manifest } from './manifest.ts'
import { createRunServices } from './run-services.ts'

export type { RecordProbe }

export interface RunOptions {
  runDir: string
  restart?: boolean
  signal: AbortSignal
  /** Reads a record's header only: duration (for ETA) and input files (for the manifest). */
  probe(record: RecordSpec): Promise<RecordProbe>
  onEvent?(event: ProgressEvent): void
  progressMs?: number
}

export interface RunResult {
  runDir: string
  status: 'finished' | 'failed' | 'interrupted'
  /** Records in the run (the dataset's, or the input run's finished ones). */
  total: number
  done: number
  skipped: number
  failed: { recordId: string; error: PipelineError }[]
  warnings: { recordId: string; code: string; message: string }[]
}

type Outcome = { ok: true; result: RecordRunResult } | { ok: false; error: PipelineError } | { aborted: true } | { skip: true }

/** Runs (or resumes) a dataset into its run directory, holding the directory's lock throughout. */
export async function runDataset(dataset: Dataset, stages: ResolvedStage[], opts: RunOptions): Promise<RunResult> {
  if (dataset.input && dataset.input.run === path.resolve(opts.runDir)) {
    // It would read what it is rewriting (and --restart would delete its own input).
    throw new PipelineError('E_INPUT_RUN', `the run directory ${opts.runDir} is the input run itself; write this run to another folder (--out, or out: in ${dataset.file})`, { file: dataset.file, field: 'input.run' })
  }
  await makeDirs(opts.runDir, 'the run directory')
  const release = await acquireRunLock(opts.runDir)
  try {
    return await runLocked(dataset, stages, opts)
  } finally {
    await release()
  }
}

async function runLocked(dataset: Dataset, stages: ResolvedStage[], opts: RunOptions): Promise<RunResult> {
  const { runDir } = opts
  // A failed commit (disk full...) stops the whole run like an interrupt, then is rethrown.
  const internal = new AbortController()
  const signal = AbortSignal.any([opts.signal, internal.signal])
  const plan = await planRun(dataset, stages, opts.probe)
  const { records, probes, inputs, config, configHash } = plan
  const previous = await openRunDir(runDir, configHash, inputs, opts.restart ?? false, config)
  const checkpoints = await openCheckpointStore(runDir)
  const startedAt = new Date().toISOString()
  const manifest: Manifest = {
    tool: { ...TOOL, node: process.version },
    name: dataset.name,
    datasetFile: dataset.file,
    configHash,
    stages: stages.map((s) => ({ name: s.stage.name, version: s.stage.version, source: s.source, sourceHash: s.sourceHash })),
    inputs,
    ...(plan.manifestInput ? { input: plan.manifestInput } : {}),
    records,
    config,
    sessions: [...(previous?.sessions ?? []), { startedAt, pid: process.pid }],
  }
  await writeManifest(runDir, manifest)

  const log = await openProgressLog(runDir, opts.onEvent)
  const journals = createItemJournals(runDir)
  let outcome: { result: RunResult; commitError: unknown } | undefined
  let closing: unknown[]
  try {
    outcome = await runRecords()
  } finally {
    closing = await endSession(outcome?.result.status ?? 'interrupted')
  }
  // What stopped the run first; a cleanup error only when nothing else went wrong.
  if (outcome.commitError) throw outcome.commitError
  if (closing.length) throw closing[0]
  return outcome.result

  async function runRecords(): Promise<{ result: RunResult; commitError: unknown }> {
    const now = () => new Date().toISOString()
    const totals = doneTotals(checkpoints.done)
    log.write({ t: 'run-start', at: startedAt, pid: process.pid, name: dataset.name, totalRecords: records.length, totalSeconds: probes.reduce((a, p) => a + p.durationSec, 0), doneRecords: totals.records, doneSeconds: totals.seconds, doneItems: totals.items })

    const warnings: RunResult['warnings'] = []
    const failed: RunResult['failed'] = []
    const exclude = new Set(dataset.output.exclude)
    const outcomes = records.map(() => deferred<Outcome>())
    const services = createRunServices({ cacheDir: dataset.cache ?? path.join(runDir, 'cache') })
    const input = plan.input
    if (input) {
      // The read-run stage of every record opens the input run through this, once.
      void services.once(inputRunKey(input.dir), async () => input)
      if (input.locked) log.write({ t: 'warning', at: startedAt, code: 'W_INPUT_RUNNING', message: `the input run ${input.dir} is still being written; its ${input.records.length} finished records are read (run this again later for the rest)` })
    }
    const env = {
      runDir, records, stages, exclude, decimals: dataset.output.decimals, signal, progressMs: opts.progressMs, services,
      ...(input ? { inputSeconds: (index: number) => probes[index].durationSec } : {}),
      warn(recordId: string, code: string, message: string) {
        warnings.push({ recordId, code, message })
        log.write({ t: 'warning', at: now(), recordId, code, message })
      },
      journal: (name: string) => journals.open(name),
      progress(recordId: string, seconds: number, items: Record<string, number>) {
        log.write({ t: 'record-progress', at: now(), recordId, seconds, items })
      },
    }

    const t0 = Date.now()
    const skippedAtStart = records.filter((r) => checkpoints.done.has(r.id)).length
    let done = 0
    let commitError: unknown = null
    const committer = commitInOrder().catch((err) => {
      commitError = err
      internal.abort()
    })
    await forEachBounded(records, dataset.concurrency.records, async (record, index) => {
      if (checkpoints.done.has(record.id)) return outcomes[index].resolve({ skip: true })
      log.write({ t: 'record-start', at: now(), recordId: record.id, index, durationSec: probes[index].durationSec })
      try {
        outcomes[index].resolve({ ok: true, result: await runRecord(record, index, env) })
      } catch (err) {
        if (signal.aborted && isAbortError(err)) outcomes[index].resolve({ aborted: true })
        else outcomes[index].resolve({ ok: false, error: withContext(err, { recordId: record.id }) })
      }
    }, { signal, skipped: (i) => outcomes[i].resolve(checkpoints.done.has(records[i].id) ? { skip: true } : { aborted: true }) })
    await committer
    // Part files of unfinished records are useless now (a resume redoes those records).
    await rm(path.join(runDir, '.parts'), { recursive: true, force: true })

    const complete = done + failed.length + skippedAtStart === records.length
    const status: RunResult['status'] = !complete ? 'interrupted' : failed.length ? 'failed' : 'finished'
    log.write({ t: 'run-end', at: now(), status, done: checkpoints.done.size, failed: failed.length, wallMs: Date.now() - t0 })
    return { result: { runDir, status, total: records.length, done, skipped: skippedAtStart, failed, warnings }, commitError }

    async function commitInOrder(): Promise<void> {
      for (let i = 0; i < records.length; i++) {
        const outcome = await outcomes[i].promise
        const record = records[i]
        if ('skip' in outcome) continue
        if ('aborted' in outcome) break
        if (outcome.ok) {
          const { partsDir, counts, seconds, work } = outcome.result
          await checkpoints.commit({ recordId: record.id, index: i, partsDir, counts, seconds })
          done++
          log.write({ t: 'record-done', at: now(), recordId: record.id, seconds, items: counts, ...(Object.keys(work).length ? { work } : {}), wallMs: Date.now() - t0 })
        } else {
          failed.push({ recordId: record.id, error: outcome.error })
          await rm(path.join(runDir, '.parts', record.id), { recursive: true, force: true })
          await checkpoints.fail({ recordId: record.id, index: i, error: { code: outcome.error.code, message: outcome.error.message } })
          log.write({ t: 'record-failed', at: now(), recordId: record.id, code: outcome.error.code, message: outcome.error.toLine() })
        }
      }
    }
  }

  // Closes every journal and the log and ends the session in the manifest, whatever happened
  // before; returns what failed instead of throwing, so it never hides the run's own error.
  async function endSession(status: RunResult['status']): Promise<unknown[]> {
    const closed = await Promise.allSettled([journals.closeAll(), log.close()])
    manifest.sessions[manifest.sessions.length - 1] = { startedAt, pid: process.pid, endedAt: new Date().toISOString(), status }
    const written = await Promise.allSettled([writeManifest(runDir, manifest)])
    return [...closed, ...written].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
  }
}

function deferred<T>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}
