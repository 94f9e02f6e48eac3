// The writer of a file that grows while a record streams (render-text's per-record text; sinks
// are the only writers). Bytes go to the file under its own name with one
// synchronous write per call, so when write() returns they are in the file, readable by anyone:
// a render item naming a byte range can be yielded at once, in stream order, and the order of a
// run's outputs never depends on when the disk got round to it. A window's text is a few tens
// of KB (a write to the page cache, far shorter than formatting it), and nothing is copied or
// buffered in between. The file is truncated when opened (what an interrupted attempt left),
// and a record that fails has its media removed by the media store.
import { open, type FileHandle } from 'node:fs/promises'
import { writeSync } from 'node:fs'
import { PipelineError } from '../core/errors.ts'

export interface TextFile {
  readonly file: string
  /** Bytes written so far: where the next write lands. */
  readonly offset: number
  /** Appends `bytes` (the caller may reuse them at once). */
  write(bytes: Uint8Array): Promise<void>
  /** Closes the file; E_IO on failure. */
  close(): Promise<void>
  /** Closes without finishing (after a failure); the caller removes the file. Does nothing after close() or a first abort(). */
  abort(): Promise<void>
}

/** Opens `file` for writing (truncating it); its folder must exist. */
export async function createTextFile(file: string, opts: { signal?: AbortSignal } = {}): Promise<TextFile> {
  const ioError = (what: string, err: unknown) =>
    new PipelineError('E_IO', `cannot ${what} ${file}: ${(err as Error).message}; check that the run directory is writable and the disk is not full`, { file }, { cause: err })
  opts.signal?.throwIfAborted()
  let fh: FileHandle
  try {
    fh = await open(file, 'w')
  } catch (err) {
    throw ioError('open', err)
  }
  let offset = 0
  let state: 'open' | 'closed' | 'aborted' = 'open'
  return {
    file,
    get offset() {
      return offset
    },
    async write(bytes) {
      if (state !== 'open') throw new PipelineError('E_INTERNAL', `write to ${file} after it was ${state}`, { file })
      try {
        for (let done = 0; done < bytes.length; ) done += writeSync(fh.fd, bytes, done, bytes.length - done)
      } catch (err) {
        throw ioError('write', err)
      }
      offset += bytes.length
    },
    async close() {
      if (state !== 'open') throw new PipelineError('E_INTERNAL', `close of ${file} after it was ${state}`, { file })
      state = 'closed'
      try {
        await fh.close()
      } catch (err) {
        throw ioError('close', err)
      }
    },
    async abort() {
      if (state !== 'open') return
      state = 'aborted'
      await fh.close().catch(() => undefined)
    },
  }
}
