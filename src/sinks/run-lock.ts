// One `pipeline run` at a time per run directory: two runs appending to the same outputs and
// checkpoints would interleave their lines. `run.lock` holds the owner's pid; a lock whose
// process is gone (kill -9, power loss) is stale and taken over.
import { open, readFile, unlink } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { isProcessAlive } from '../core/process-alive.ts'

export const LOCK_FILE = 'run.lock'

/** Takes the run directory's lock; resolves with a function that releases it. */
export async function acquireRunLock(runDir: string): Promise<() => Promise<void>> {
  const file = path.join(runDir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
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
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim())
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid)) {
        throw new PipelineError('E_RUN_LOCKED', `another 'pipeline run' (pid ${pid}) is writing to this run directory; wait for it to end, follow it with 'pipeline tail', or stop it first`, { file: runDir })
      }
      await unlink(file).catch(() => undefined)
    }
  }
  throw new PipelineError('E_RUN_LOCKED', `could not take ${LOCK_FILE}: another process keeps creating it`, { file: runDir })
}
