// The only I/O of the EDF layer: read the header of a file without reading its data. The fixed
// 256 bytes say how long the full header is; the second read fetches exactly that, so opening a
// 24 h recording costs two small reads.
import { open, type FileHandle } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'
import { EDF_FIXED_HEADER_BYTES, parseEdfFixedHeader, parseEdfHeader, type EdfHeader } from './edf-header.ts'

async function readAt(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buf = new Uint8Array(length)
  let done = 0
  while (done < length) {
    const { bytesRead } = await handle.read(buf, done, length - done, position + done)
    if (bytesRead === 0) break
    done += bytesRead
  }
  return buf.subarray(0, done)
}

function openError(err: unknown, filePath: string): PipelineError {
  const code = (err as { code?: string }).code
  if (code === 'ENOENT') {
    return new PipelineError('E_FILE_MISSING', `file not found: ${filePath}; check the path (relative paths start at the dataset file's folder)`, { file: filePath }, { cause: err })
  }
  const why = err instanceof Error ? err.message : String(err)
  return new PipelineError('E_IO', `${filePath}: expected a readable EDF file, could not read it (${why}); check the path and its permissions`, { file: filePath }, { cause: err })
}

/** Reads and validates the header of an EDF/BDF file; the data records are left on disk. */
export async function readEdfHeaderFromFile(filePath: string): Promise<{ header: EdfHeader; fileSize: number }> {
  let handle: FileHandle
  try {
    handle = await open(filePath, 'r')
  } catch (err) {
    throw openError(err, filePath)
  }
  let result: { header: EdfHeader; fileSize: number }
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) {
      throw new PipelineError('E_IO', `${filePath}: expected an EDF file, found a ${stat.isDirectory() ? 'directory' : 'special file'}; point to the .edf file itself`, { file: filePath })
    }
    const fixed = await readAt(handle, 0, EDF_FIXED_HEADER_BYTES)
    const { headerBytes } = parseEdfFixedHeader(fixed, filePath)
    const full = await readAt(handle, 0, headerBytes)
    result = { header: parseEdfHeader(full, filePath, stat.size), fileSize: stat.size }
  } catch (err) {
    // Close quietly here: a failing close must not hide the error that got us here.
    await handle.close().catch(() => undefined)
    throw err instanceof PipelineError ? err : openError(err, filePath)
  }
  await handle.close()
  return result
}
