// The one partial-file protocol: a file is written under `<file>.partial` and renamed to its
// name only when complete, so an interrupted write never leaves a file that looks whole under
// the name items (or a user) rely on; a failed write removes the partial file, and a failure to
// remove it is reported beside the error that caused it, never instead of it.
import { rename, rm } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'

/** The temporary name of `file` while it is written. */
export function partialPath(file: string): string {
  return `${file}.partial`
}

/** Gives the finished partial file its name; E_IO (the partial removed) when the rename fails. */
export async function commitPartial(file: string): Promise<void> {
  const partial = partialPath(file)
  try {
    await rename(partial, file)
  } catch (err) {
    throw await discardAfter(file, new PipelineError('E_IO', `cannot move the finished ${partial} to ${file}: ${(err as Error).message}`, { file }, { cause: err }))
  }
}

/** Removes the partial file of `file` and returns `error` (with the cleanup's own failure in its context, if any). */
export async function discardAfter<E>(file: string, error: E): Promise<E> {
  await rm(partialPath(file), { force: true }).catch((cleanup: unknown) => {
    if (error instanceof PipelineError) error.context.cleanup = String(cleanup)
  })
  return error
}

/** A write failure as E_IO naming the file, unless it is an abort (kept as it is) or already a PipelineError. */
export function writeError(file: string, err: unknown): unknown {
  if ((err as Error)?.name === 'AbortError' || err instanceof PipelineError) return err
  return new PipelineError('E_IO', `cannot write ${file}: ${(err as Error).message}; check that the folder is writable and the disk is not full`, { file }, { cause: err })
}
