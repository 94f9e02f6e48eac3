// Writes a binary output file from a stream of chunks, with backpressure, under its partial name
// first and renamed into place only when complete (partial-file.ts), so an interrupted
// conversion never leaves a file that looks whole.
import { createWriteStream } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { commitPartial, discardAfter, partialPath, writeError } from './partial-file.ts'

/** Streams `chunks` into `file` atomically; returns the bytes written. */
export async function writeFileAtomic(file: string, chunks: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<number> {
  const ws = createWriteStream(partialPath(file))
  try {
    await pipeline(Readable.from(chunks, { objectMode: false }), ws, { signal })
  } catch (err) {
    throw await discardAfter(file, writeError(file, err))
  }
  await commitPartial(file)
  return ws.bytesWritten
}
