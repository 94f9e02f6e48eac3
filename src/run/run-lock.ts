// One `pipeline run` at a time per run directory: two runs appending to the same outputs and
// checkpoints would interleave their lines. `run.lock` holds the owner's pid; a lock whose
// process is gone (kill -9, power loss) is stale and taken over.
//
// The lock is made whole: the pid is written to a file of our own, which is then linked to
// run.lock (link fails if run.lock exists), so no run ever sees an empty lock of a live run.
// An empty or unreadable lock (left by an older version, or a file system without link) counts
// as held for a few seconds, and a lock with this process's pid is held by this process unless
// it is older than the process (a pid reused after a crash).
import { link, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { isProcessAlive } from './process-alive.ts'

export const LOCK_FILE = 'run.lock'

/** How long a lock without a pid in it is taken for one being written. */
const STARTING_MS = 5000

/** Takes the run directory's lock; resolves with a function that releases it. */
export async function acquireRunLock(runDir: string): Promise<() => Promise<void>> {
  const file = path.join(runDir, LOCK_FILE)
  // Hidden, so that a run directory being opened by another run does not count it as a stray file.
  const mine = path.join(runDir, `.${LOCK_FILE}-${process.pid}-${Math.random().toString(36).slice(2)}`)
  try {
    await writeFile(mine, `${process.pid}\n`, { flag: 'wx' })
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(mine, file)
        return async () => {
          const owner = await readFile(file, 'utf8').catch(() => '')
          if (Number(owner) === process.pid) await unlink(file).catch(() => undefined)
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      }
      const seen = await readLock(file)
      if (seen && isHeld(seen)) throw locked(runDir, seen.pid)
      // Stale: move it aside under a name of our own. Only one of two racing runs can move it;
      // if what we moved is no longer the stale lock we saw, a live run took over: put it back.
      const aside = path.join(runDir, `.${LOCK_FILE}.stale-${process.pid}`)
      if (await rename(file, aside).then(() => true, () => false)) {
        const moved = await readLock(aside)
        const same = moved !== null && seen !== null && moved.pid === seen.pid && moved.mtimeMs === seen.mtimeMs
        if (moved && !same && isHeld(moved)) {
          await rename(aside, file).catch(() => undefined)
          throw locked(runDir, moved.pid)
        }
        await unlink(aside).catch(() => undefined)
      }
    }
  } catch (err) {
    if (err instanceof PipelineError) throw err
    throw new PipelineError('E_IO', `cannot create ${LOCK_FILE}: ${(err as Error).message}`, { file }, { cause: err })
  } finally {
    await unlink(mine).catch(() => undefined)
  }
  throw new PipelineError('E_RUN_LOCKED', `could not take ${LOCK_FILE}: other processes keep taking it`, { file: runDir })
}

interface SeenLock {
  /** null: no pid in it (empty, unreadable or not a number). */
  pid: number | null
  mtimeMs: number
}

// The lock as found, or null when it is gone.
async function readLock(file: string): Promise<SeenLock | null> {
  const info = await stat(file).catch(() => null)
  if (!info) return null
  const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim())
  return { pid: Number.isInteger(pid) && pid > 0 ? pid : null, mtimeMs: info.mtimeMs }
}

// Whether a lock belongs to a run that is still going (or may be: one just being written).
function isHeld(lock: SeenLock): boolean {
  if (lock.pid === null) return Date.now() - lock.mtimeMs < STARTING_MS
  if (lock.pid === process.pid) return lock.mtimeMs >= Date.now() - process.uptime() * 1000
  return isProcessAlive(lock.pid)
}

function locked(runDir: string, pid: number | null): PipelineError {
  const who = pid === null ? "another 'pipeline run' is starting to write" : pid === process.pid ? `this process (pid ${pid}) is already writing` : `another 'pipeline run' (pid ${pid}) is writing`
  return new PipelineError('E_RUN_LOCKED', `${who} to this run directory; wait for it to end, follow it with 'pipeline tail', or stop it first (if no run is going on, delete ${path.join(runDir, LOCK_FILE)})`, { file: runDir })
}
