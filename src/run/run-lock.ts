// One `pipeline run` at a time per run directory: two runs appending to the same outputs and
// checkpoints would interleave their lines. `run.lock` holds the owner's pid; a lock whose
// process is gone (kill -9, power loss) is stale and taken over.
import { open, readFile, rename, unlink } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { isProcessAlive } from './process-alive.ts'

export const LOCK_FILE = 'run.lock'

/** Takes the run directory's lock; resolves with a function that releases it. */
export async function acquireRunLock(runDir: string): Promise<() => Promise<void>> {
  const file = path.join(runDir, LOCK_FILE)
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(file, 'wx')
      await fh.writeFile(`${process.pid}\n`)
      await fh.close()
      return async () => {
        const owner = await readFile(file, 'utf8').catch(() => '')
        if (Number(owner) === process.pid) await unlink(file).catch(() => undefined)
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new PipelineError('E_IO', `cannot create ${LOCK_FILE}: ${(err as Error).message}`, { file }, { cause: err })
      const pid = await lockOwner(file)
      if (pid !== null && pid !== process.pid && isProcessAlive(pid)) throw locked(runDir, pid)
      // Stale: move it aside under a name of our own. Only one of two racing runs can move it;
      // if what we moved is no longer the stale lock we saw, a live run took over: put it back.
      const aside = `${file}.stale-${process.pid}`
      const moved = await rename(file, aside).then(() => true, () => false)
      if (moved) {
        const movedPid = await lockOwner(aside)
        if (movedPid !== pid && movedPid !== null && isProcessAlive(movedPid)) {
          await rename(aside, file).catch(() => undefined)
          throw locked(runDir, movedPid)
        }
        await unlink(aside).catch(() => undefined)
      }
    }
  }
  throw new PipelineError('E_RUN_LOCKED', `could not take ${LOCK_FILE}: other processes keep taking it`, { file: runDir })
}

async function lockOwner(file: string): Promise<number | null> {
  const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim())
  return Number.isInteger(pid) && pid > 0 ? pid : null
}

function locked(runDir: string, pid: number): PipelineError {
  return new PipelineError('E_RUN_LOCKED', `another 'pipeline run' (pid ${pid}) is writing to this run directory; wait for it to end, follow it with 'pipeline tail', or stop it first (if no run is going on, delete ${path.join(runDir, LOCK_FILE)})`, { file: runDir })
}
