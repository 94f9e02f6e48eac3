// Item-level checkpoints (issue 2, "Runner, sinks, resume"). A record that is interrupted is
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
  let tail: Promise<void> = Promise.resolve()

  return {
    file,
    has: (key) => index.has(key),
    get size() {
      return index.size
    },
    async get<T>(key: string): Promise<T | undefined> {
      const where = index.get(key)
      if (!where) return undefined
      await tail
      const buf = Buffer.alloc(where.length)
      await fh.read(buf, 0, where.length, where.at)
      return (JSON.parse(buf.toString('utf8')) as { value: T }).value
    },
    put(key, value) {
      if (index.has(key)) return tail
      const line = JSON.stringify({ key, value }) + '\n'
      const length = Buffer.byteLength(line)
      index.set(key, { at: end, length })
      end += length
      // Writes are chained so concurrent puts never interleave bytes in the file.
      tail = tail.then(async () => {
        await fh.write(line)
        await fh.sync()
      })
      return tail
    },
    async close() {
      await tail
      await fh.close()
    },
  }
}
