// `pipeline tail <runDir>`: follows a run's progress.ndjson from another terminal and shows the
// same view as the run itself; exits when the run ends (or when its process is gone without
// having ended it), and on a finished run prints the final state at once.
import { open, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { PipelineError } from '../core/errors.ts'
import { applyProgress, emptyProgress, type ProgressEvent, type ProgressState } from '../run/progress-events.ts'
import { renderProgress } from '../run/progress-view.ts'
import { PROGRESS_FILE } from '../run/progress-log.ts'
import { CHECKPOINT_FILE, doneTotals, foldCheckpoints, type CheckpointLine } from '../run/checkpoint-store.ts'
import { readNdjson } from '../run/ndjson-file.ts'
import { createLiveView } from './live-view.ts'
import { isProcessAlive } from '../run/process-alive.ts'

export interface TailOptions {
  out: NodeJS.WritableStream & { isTTY?: boolean }
  signal: AbortSignal
  intervalMs?: number
  /** How long to wait for a run that has not started yet (ms). */
  waitMs?: number
}

/** Follows a run until it ends; resolves with the exit code (0 finished, 1 failed or interrupted). */
export async function tailRun(runDir: string, opts: TailOptions): Promise<number> {
  const file = path.join(runDir, PROGRESS_FILE)
  const interval = opts.intervalMs ?? 250
  await waitForFile(file, opts.waitMs ?? 60_000, interval, opts)
  const fh = await open(file, 'r')
  const view = createLiveView(opts.out)
  let state: ProgressState = emptyProgress()
  let offset = 0
  let pending = ''
  let lineNo = 0
  let skipped = 0
  try {
    for (;;) {
      const { size } = await fh.stat()
      if (size > offset) {
        const buf = Buffer.alloc(size - offset)
        await fh.read(buf, 0, buf.length, offset)
        offset = size
        const lines = (pending + buf.toString('utf8')).split('\n')
        pending = lines.pop() ?? ''
        for (const line of lines) {
          lineNo++
          if (!line.trim()) continue
          try {
            state = applyProgress(state, JSON.parse(line) as ProgressEvent)
          } catch {
            // A torn line left by a crash (the next run cuts it off); say so once and go on.
            if (!skipped++) opts.out.write(`warning: ${file}:${lineNo}: skipped a line that is not valid JSON\n`)
          }
        }
      }
      if (state.ended) {
        view.final(renderProgress(state))
        return state.ended === 'finished' ? 0 : 1
      }
      if (state.pid && !isProcessAlive(state.pid)) {
        // A killed run wrote no run-end; its checkpoints are the truth about what is done.
        const final = await fromCheckpoints({ ...state, ended: 'interrupted', active: new Map() }, runDir)
        view.final([...renderProgress(final), `the run (pid ${state.pid}) stopped without finishing; run the same 'pipeline run' command again to resume`])
        return 1
      }
      if (!state.name) {
        // No run-start yet: the run is still starting.
      } else {
        state.now = Math.max(state.now, Date.now())
        view.update(renderProgress(state))
      }
      await sleep(interval, undefined, { signal: opts.signal })
    }
  } finally {
    await fh.close()
  }
}

async function waitForFile(file: string, waitMs: number, interval: number, opts: TailOptions): Promise<void> {
  const deadline = Date.now() + waitMs
  const dir = path.dirname(file)
  let told = false
  for (;;) {
    if (await stat(file).then(() => true, () => false)) return
    // A folder with other things in it and no manifest is not a run that is about to start. Hidden
    // names are a starting run's own (the file its lock is linked from), as the run directory
    // check counts them (run-dir.ts).
    const entries = (await readdir(dir).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOTDIR' ? ['(a file)'] : []))).filter((n) => !n.startsWith('.'))
    if (entries.length > 0 && !entries.includes('manifest.json') && !entries.includes('run.lock')) {
      throw new PipelineError('E_FILE_MISSING', `not a run directory (no ${PROGRESS_FILE} or manifest.json); name the --out directory of a 'pipeline run'`, { file: dir })
    }
    if (Date.now() > deadline) {
      throw new PipelineError('E_FILE_MISSING', `no run found (no ${PROGRESS_FILE} after waiting ${Math.round(waitMs / 1000)} s); start one with 'pipeline run <dataset.yaml> --out <runDir>'`, { file: path.dirname(file) })
    }
    if (!told) {
      opts.out.write(`waiting for a run to start in ${path.dirname(file)} ...\n`)
      told = true
    }
    await sleep(interval, undefined, { signal: opts.signal })
  }
}

async function fromCheckpoints(state: ProgressState, runDir: string): Promise<ProgressState> {
  const { values } = await readNdjson<CheckpointLine>(path.join(runDir, CHECKPOINT_FILE))
  const done = doneTotals(foldCheckpoints(values))
  return { ...state, doneRecords: done.records, doneSeconds: done.seconds, items: done.items }
}
