// Writes one media file (a PNG strip) whole: to a temporary name first, renamed into place when
// complete, so a run interrupted mid-write never leaves a truncated image under the final name
// (a record redone on resume writes the same names again).
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'

/** Writes `bytes` to `file` atomically, creating its directory; returns the bytes written. */
export async function writeMediaFile(file: string, bytes: Uint8Array, signal: AbortSignal): Promise<number> {
  const tmp = `${file}.partial`
  try {
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(tmp, bytes, { signal })
    await rename(tmp, file)
    return bytes.byteLength
  } catch (err) {
    await rm(tmp, { force: true })
    if ((err as Error).name === 'AbortError') throw err
    throw new PipelineError('E_IO', `cannot write ${file}: ${(err as Error).message}`, { file }, { cause: err })
  }
}
