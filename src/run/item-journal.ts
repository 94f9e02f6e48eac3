// Item-level checkpoints ("Runner, sinks, resume"). A record that is interrupted is
// redone from its start, but some items are expensive to make again (a paid model call). A
// stage stores such an item under a stable key as soon as it has it; on resume it asks the
// journal first and re-emits the stored item instead of paying twice.
//
// On disk: `journal/<name>.ndjson`, one `{"key":..,"value":..}` line per item, fsynced before
// `put` resolves. In memory: only key -> byte range, so a large journal costs ~100 B per key.
import { mkdir, open, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { repairNdjson } from './ndjson-file.ts'
import type { ItemJournal } from '../core/services.ts'

export type { ItemJournal }

/** Opens (creating or repairing) the journal `name` in `runDir/journal/`. */
export async function openItemJournal(runDir: string, name: string): Promise<ItemJournal> {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new PipelineError('E_USAGE', `journal name "${name}" must use letters, digits, ".", "_" or "-"`, { field: 'journal' })
  const dir = path.join(runDir, 'journal')
  await mkdir(dir, { recursive: true })
  const file = path.join(dir, `${name}.ndjson`)
  const { values, ends } = await repairNdjson<{ key: string; value: unknown }>(file)
  const index = new Map<string, { at: number; length: number }>()
  let end = 0
  values.forEach((entry, i) => {
    if (!index.has(entry.key)) index.set(entry.key, { at: end, length: ends[i] - end })
    end = ends[i]
  })
  const fh: FileHandle = await open(file, 'a+')
  // Writes are chained so concurrent puts never interleave bytes in the file. After a failed
  // write the file may end in a torn line: nothing more is written (a reopen cuts it off).
  let tail: Promise<void> = Promise.resolve()
  let broken: unknown = null
  const writing = new Map<string, Promise<void>>()
  const refused = () => new PipelineError('E_IO', `journal ${file} takes no more items since a write failed (${(broken as Error).message}); free the disk or fix the folder, then run again (stored items are kept)`, { file }, { cause: broken })

  async function write(key: string, line: string): Promise<void> {
    if (broken) throw refused()
    try {
      await fh.write(line)
      await fh.sync()
    } catch (err) {
      broken = err
      throw new PipelineError('E_IO', `cannot write to journal ${file}: ${(err as Error).message}`, { file }, { cause: err })
    }
    // Only a line on disk is in the index: get and has never name what is not there.
    const length = Buffer.byteLength(line)
    index.set(key, { at: end, length })
    end += length
  }

  return {
    file,
    has: (key) => index.has(key),
    get size() {
      return index.size
    },
    async get<T>(key: string): Promise<T | undefined> {
      const where = index.get(key)
      if (!where) return undefined
      const buf = Buffer.alloc(where.length)
      await fh.read(buf, 0, where.length, where.at)
      return (JSON.parse(buf.toString('utf8')) as { value: T }).value
    },
    put(key, value) {
      if (broken) return Promise.reject(refused())
      if (index.has(key)) return Promise.resolve()
      const pending = writing.get(key)
      if (pending) return pending
      const line = JSON.stringify({ key, value }) + '\n'
      const done = tail.then(() => write(key, line)).finally(() => writing.delete(key))
      writing.set(key, done)
      tail = done.catch(() => undefined) // the caller of put gets the error; the chain goes on
      return done
    },
    async close() {
      try {
        await tail
      } finally {
        await fh.close()
      }
    },
  }
}

/** A run's journals, each opened on first use and shared by its records. */
export interface ItemJournals {
  open(name: string): Promise<ItemJournal>
  /** Closes every journal (all of them, also when one fails; then rejects with the first error). */
  closeAll(): Promise<void>
}

/** The journals of the run at `runDir`; a failed open is the asking record's error and is not kept (the next record tries again). */
export function createItemJournals(runDir: string): ItemJournals {
  const opened = new Map<string, Promise<ItemJournal>>()
  return {
    open(name) {
      let journal = opened.get(name)
      if (!journal) {
        journal = openItemJournal(runDir, name)
        opened.set(name, journal)
        const mine = journal
        mine.catch(() => opened.get(name) === mine && opened.delete(name))
      }
      return journal
    },
    async closeAll() {
      const results = await Promise.allSettled([...opened.values()].map(async (j) => (await j).close()))
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
      if (failed) throw failed.reason
    },
  }
}
