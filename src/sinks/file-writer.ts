// Writes a binary output file from a stream of chunks, with backpressure, to a temporary name
// first and renamed into place only when complete, so an interrupted conversion never leaves a
// file that looks whole.
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { PipelineError } from '../core/errors.ts'

/** Streams `chunks` into `file` atomically; returns the bytes written. */
export async function writeFileAtomic(file: string, chunks: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<number> {
  const tmp = `${file}.partial-${process.pid}`
  const ws = createWriteStream(tmp)
  try {
    await pipeline(Readable.from(chunks, { objectMode: false }), ws, { signal })
    await rename(tmp, file)
    return ws.bytesWritten
  } catch (err) {
    await rm(tmp, { force: true })
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EACCES') {
      throw new PipelineError('E_IO', `cannot write ${file}: ${(err as Error).message}`, { file }, { cause: err })
    }
    throw err
  }
}
