// Reading back our own NDJSON files (checkpoints, journals, progress). A torn last line is what
// a crash leaves behind and is cut off; a bad line in the middle is corruption and is an error
// naming file:line. Checkpoints and journals are small (one line per record or
// per paid call), so they are read whole; a log that only grows is cut from its end (cutTornTail).
import { open, readFile, truncate, type FileHandle } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'

export interface NdjsonContents<T> {
  values: T[]
  /** Bytes of the file that hold complete, valid lines. */
  validBytes: number
  /** True when an incomplete or unparseable last line was found (and not counted). */
  tornTail: boolean
  /** Byte offset just past each value's line. */
  ends: number[]
}

/** Reads complete lines; a missing file reads as empty. */
export async function readNdjson<T = unknown>(file: string): Promise<NdjsonContents<T>> {
  let buf: Buffer
  try {
    buf = await readFile(file)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { values: [], validBytes: 0, tornTail: false, ends: [] }
    throw new PipelineError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { file }, { cause: err })
  }
  return parseNdjsonBuffer<T>(buf, file)
}

/** Parses a buffer of NDJSON, cutting off a torn tail. */
export function parseNdjsonBuffer<T>(buf: Buffer, file: string): NdjsonContents<T> {
  const values: T[] = []
  const ends: number[] = []
  let start = 0
  let line = 0
  while (start < buf.length) {
    const nl = buf.indexOf(10, start)
    line++
    if (nl < 0) return { values, validBytes: start, tornTail: true, ends }
    const text = buf.toString('utf8', start, nl)
    try {
      values.push(JSON.parse(text) as T)
    } catch (cause) {
      // The last line may be a torn write padded by the file system; anything earlier is damage.
      if (nl === buf.length - 1) return { values, validBytes: start, tornTail: true, ends }
      throw new PipelineError('E_CHECKPOINT', `line ${line} is not valid JSON; the file is damaged (delete the run directory or run with --restart)`, { file, line }, { cause })
    }
    start = nl + 1
    ends.push(start)
  }
  return { values, validBytes: start, tornTail: false, ends }
}

/** Reads a file's complete lines and truncates away a torn tail so appends start on a clean line. */
export async function repairNdjson<T = unknown>(file: string): Promise<NdjsonContents<T>> {
  const contents = await readNdjson<T>(file)
  if (contents.tornTail) await truncate(file, contents.validBytes)
  return contents
}

/**
 * Cuts a file back to just after its last newline, reading only its end (a few KB, more only
 * while no newline is found), so appends start on a line of their own. A missing file is fine.
 */
export async function cutTornTail(file: string, block = 4096): Promise<void> {
  let fh: FileHandle
  try {
    fh = await open(file, 'r+')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
    throw new PipelineError('E_IO', `cannot open ${file}: ${(err as Error).message}`, { file }, { cause: err })
  }
  try {
    const { size } = await fh.stat()
    const buf = Buffer.alloc(block)
    for (let end = size; end > 0; end -= block) {
      const start = Math.max(0, end - block)
      const { bytesRead } = await fh.read(buf, 0, end - start, start)
      const nl = buf.lastIndexOf(10, bytesRead - 1)
      if (nl >= 0) {
        if (start + nl + 1 < size) await fh.truncate(start + nl + 1)
        return
      }
    }
    if (size > 0) await fh.truncate(0)
  } finally {
    await fh.close()
  }
}

/** Appends lines and flushes them to disk before resolving (for checkpoints and journals). */
export async function appendDurable(file: string, text: string): Promise<void> {
  const fh = await open(file, 'a')
  try {
    await fh.write(text)
    await fh.sync()
  } finally {
    await fh.close()
  }
}
