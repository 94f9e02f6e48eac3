// The writer of render-text's per-record text file (sinks are the only writers, style rule 8).
// Bytes go to `<file>.partial` as the stream flows, with backpressure (write() waits for 'drain'
// when the stream asks), and the file takes its name only on close(): a record interrupted and
// redone from its start on resume never leaves half a file under the real name, and opening
// truncates whatever partial file the interrupted run left. A write error is kept, not left as
// an unhandled 'error' event, and rejects the next write() or close().
// write() copies the bytes into a chunk of CHUNK bytes and hands the stream whole chunks, which
// go back to a small pool when written: a 24 h text is 217 MB in 25 KB windows, and a Buffer per
// window was 8,640 allocations, as many stream writes and garbage to collect. The stream holds
// up to HIGH_WATER (a few chunks) before write() waits: with the default 16 KiB every window
// waited for its own write, so formatting and the disk took turns instead of overlapping.
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'

/** Bytes of a chunk, and chunks the stream holds before write() waits for 'drain' (a bound on what is buffered). */
const CHUNK = 1 << 20
const HIGH_WATER = 4 * CHUNK
/** Written chunks kept for reuse. */
const POOL = 6

export interface TextFile {
  /** The final path; bytes go to `${file}.partial` until close(). */
  readonly file: string
  /** Bytes written so far: where the next write lands. */
  readonly offset: number
  /** Appends a copy of bytes (the caller may reuse them at once); waits for 'drain' when needed. */
  write(bytes: Uint8Array): Promise<void>
  /** Flushes, closes and renames `<file>.partial` to `file`; on failure removes the partial and throws E_IO. */
  close(): Promise<void>
  /** Closes without keeping anything: removes the partial file. Does nothing after close() or a first abort(). */
  abort(): Promise<void>
}

/** Opens `<file>.partial` (creating its directory), truncating any left from an interrupted run. */
export async function createTextFile(file: string, opts: { signal?: AbortSignal } = {}): Promise<TextFile> {
  const partial = `${file}.partial`
  const ioError = (what: string, err: unknown) =>
    new PipelineError('E_IO', `cannot ${what} ${partial}: ${(err as Error).message}; check that the run directory is writable and the disk is not full`, { file: partial }, { cause: err })
  try {
    await mkdir(path.dirname(file), { recursive: true })
  } catch (err) {
    throw ioError('create the directory of', err)
  }
  const ws = createWriteStream(partial, { highWaterMark: HIGH_WATER })
  let failure: Error | null = null
  ws.on('error', (err) => {
    failure ??= err
  })
  let offset = 0
  let state: 'open' | 'closed' | 'aborted' = 'open'
  const pool: Buffer[] = []
  let chunk: Buffer | null = null
  let filled = 0
  const recycle = (written: Buffer) => (err?: Error | null) => {
    if (!err && pool.length < POOL) pool.push(written)
  }
  /** Hands the filled part of the chunk to the stream; false when the stream asks to wait. */
  const flush = (): boolean => {
    if (!chunk || filled === 0) return true
    const full = chunk
    const more = ws.write(full.subarray(0, filled), recycle(full))
    chunk = null
    filled = 0
    return more
  }

  // Resolves once the descriptor is closed (or failed to open), whichever way the stream ended.
  const closed = new Promise<void>((resolve) => ws.once('close', resolve))
  // Open before the first write: writes rarely wait now (HIGH_WATER), so a failing open is
  // reported here by name, and the partial file is there from the start.
  try {
    await once(ws, 'ready', opts.signal ? { signal: opts.signal } : {})
  } catch (err) {
    ws.destroy()
    await closed
    if (failure === null) await rm(partial, { force: true }) // aborted: the open may have gone through
    throw failure === null && (err as Error).name === 'AbortError' ? err : ioError('open', failure ?? err)
  }
  return {
    file,
    get offset() {
      return offset
    },
    async write(bytes) {
      if (state !== 'open') throw new PipelineError('E_INTERNAL', `write to ${partial} after it was ${state}`, { file: partial })
      if (failure) throw ioError('write', failure)
      if (bytes.length === 0) return
      offset += bytes.length
      let more = true
      if (chunk && filled + bytes.length > chunk.length) more = flush()
      if (bytes.length > CHUNK) {
        more = ws.write(Buffer.from(bytes)) && more // a copy of more than a chunk goes alone
      } else {
        chunk ??= pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK)
        chunk.set(bytes, filled)
        filled += bytes.length
      }
      if (!more) {
        // once() rejects on an 'error' event while waiting, and on abort (kept as the AbortError).
        try {
          await once(ws, 'drain', opts.signal ? { signal: opts.signal } : {})
        } catch (err) {
          throw failure === null && (err as Error).name === 'AbortError' ? err : ioError('write', failure ?? err)
        }
      }
    },
    async close() {
      if (state !== 'open') throw new PipelineError('E_INTERNAL', `close of ${partial} after it was ${state}`, { file: partial })
      state = 'closed'
      try {
        flush()
        ws.end()
        await finished(ws)
        if (failure) throw failure
        await rename(partial, file)
      } catch (err) {
        const error = ioError('write', err)
        // A failed removal is reported with the error that caused it, never instead of it.
        await rm(partial, { force: true }).catch((cleanup: unknown) => {
          error.context.cleanup = String(cleanup)
        })
        throw error
      } finally {
        if (!ws.closed) ws.destroy()
      }
    },
    async abort() {
      if (state !== 'open') return
      state = 'aborted'
      ws.destroy()
      await closed
      await rm(partial, { force: true })
    },
  }
}
