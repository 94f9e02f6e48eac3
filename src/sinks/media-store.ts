// One record's media files (the MediaStore contract of src/core/services.ts), the only way stages
// write them: a whole file is written under its partial name and renamed when complete
// (partial-file.ts), a growing file (render-text) is written under its own name, each write in
// the file when it resolves, a file another program writes (ffmpeg) gets a partial name to
// write and a commit. The store remembers every file it made, so discardAll() removes the media
// of a record that failed: no file is left without the item that names it.
import { writeFile, rm, open } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { MediaAppender, MediaReservation, MediaStore } from '../core/services.ts'
import { makeDirs } from './make-dirs.ts'
import { posixRelative } from './posix-path.ts'
import { commitPartial, discardAfter, partialPath, writeError } from './partial-file.ts'
import { createTextFile, type TextFile } from './text-file.ts'

export interface MediaStoreOptions {
  /** Item paths are relative to this folder (the run directory). */
  runDir: string
  /** Where this store's files go (media/<recordId>/ in a run). */
  dir: string
  signal: AbortSignal
}

export interface OwnedMediaStore extends MediaStore {
  /** Removes every file this store made (open files are closed first); for a record that failed. */
  discardAll(): Promise<void>
}

/** A media store writing under `o.dir`. */
export function createMediaStore(o: MediaStoreOptions): OwnedMediaStore {
  const made = new Set<string>()
  const open_ = new Set<TextFile>()
  const dirsMade = new Set<string>()
  const appended = new Set<string>()
  const place = async (rel: string): Promise<string> => {
    const file = path.resolve(o.dir, rel)
    // Inside means below the folder: not the folder itself ("", "."), and "..notes.txt" is inside.
    const inside = path.relative(o.dir, file)
    if (path.isAbsolute(rel) || inside === '' || inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) {
      throw new PipelineError('E_STAGE_OUTPUT', `media file "${rel}" would not lie inside the record's media folder ${o.dir}; name a file relative to that folder, without ".."`, { file })
    }
    const dir = path.dirname(file)
    if (!dirsMade.has(dir)) {
      await makeDirs(dir, 'the media folder')
      dirsMade.add(dir)
    }
    return file
  }
  const relative = (file: string) => posixRelative(o.runDir, file)
  const resolve = (p: string) => path.resolve(o.runDir, p)
  return {
    dir: o.dir,
    relative,
    resolve,
    async write(rel, bytes) {
      const file = await place(rel)
      try {
        await writeFile(partialPath(file), bytes, { signal: o.signal })
      } catch (err) {
        throw await discardAfter(file, writeError(file, err))
      }
      await commitPartial(file)
      made.add(file)
      return { path: relative(file), bytes: bytes.byteLength }
    },
    async append(rel): Promise<MediaAppender> {
      const file = await place(rel)
      // A second append would truncate the file the first one's items name.
      if (appended.has(file)) throw new PipelineError('E_STAGE_OUTPUT', `media file "${rel}" is already appended to in record ${path.basename(o.dir)}; append to it once per record (keep the appender), or name another file`, { file })
      appended.add(file)
      made.add(file)
      const text = await createTextFile(file, { signal: o.signal })
      open_.add(text)
      return {
        path: relative(file),
        get offset() {
          return text.offset
        },
        write: (bytes) => text.write(bytes),
        async close() {
          open_.delete(text)
          await text.close()
        },
      }
    },
    async reserve(rel): Promise<MediaReservation> {
      const file = await place(rel)
      const partial = partialPath(file)
      return {
        file,
        partial,
        path: relative(file),
        async adopt() {
          made.add(file)
          const fh = await open(file, 'r')
          try {
            return (await fh.stat()).size
          } finally {
            await fh.close()
          }
        },
        discard: () => rm(partial, { force: true }),
      }
    },
    async remove(p) {
      const file = resolve(p)
      // Only what this store made: an item path of an input run, or another record's, is not its to remove.
      if (!made.has(file)) throw new PipelineError('E_STAGE_OUTPUT', `media file ${p} was not written by this record's stage, so it is not removed; remove only files this record's media store wrote`, { file })
      made.delete(file)
      await rm(file, { force: true })
    },
    async read(p, range) {
      const file = resolve(p)
      let fh
      try {
        fh = await open(file, 'r')
      } catch (err) {
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT'
        throw new PipelineError(missing ? 'E_FILE_MISSING' : 'E_IO', `cannot read media file ${p}${missing ? ': it does not exist (was the run that made it removed or moved?)' : `: ${(err as Error).message}`}`, { file }, { cause: err })
      }
      try {
        if (!range) return await fh.readFile()
        const buf = Buffer.alloc(range.bytes)
        const { bytesRead } = await fh.read(buf, 0, range.bytes, range.offset)
        if (bytesRead < range.bytes) throw new PipelineError('E_IO', `media file ${p} holds ${range.offset + bytesRead} bytes, not the ${range.offset + range.bytes} its item names`, { file })
        return buf
      } finally {
        await fh.close()
      }
    },
    async discardAll() {
      for (const t of open_) await t.abort()
      open_.clear()
      for (const file of made) await rm(file, { force: true }).catch(() => undefined)
      made.clear()
      appended.clear()
    },
  }
}
