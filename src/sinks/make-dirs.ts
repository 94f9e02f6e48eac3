// `mkdir -p` that fails at once. Node's own recursive mkdir loops for ever where a folder's
// mkdir answers ENOENT although its parent exists (under /proc, for one: `--out /proc/nope`
// spun at 90 % CPU), so the missing folders are made one at a time from the deepest one that
// exists, and any refusal is an E_IO naming the folder.
import { mkdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'

/** Creates `dir` and its missing parents; E_IO (naming `what`, e.g. "the run directory") when that cannot be done. */
export async function makeDirs(dir: string, what = 'the folder'): Promise<void> {
  const abs = path.resolve(dir)
  const missing: string[] = []
  for (let d = abs; ; d = path.dirname(d)) {
    // ENOTDIR: a folder above `d` is a file; walking on up finds it and says so.
    const st = await stat(d).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err.code === 'ENOTDIR' ? null : Promise.reject(ioError(what, abs, d, err))))
    if (st) {
      if (!st.isDirectory()) throw new PipelineError('E_IO', `cannot create ${what} ${abs}: ${d} is a file, not a folder; choose another path`, { file: abs })
      break
    }
    missing.push(d)
    if (path.dirname(d) === d) break
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && (await stat(d).catch(() => null))?.isDirectory()) continue
      throw ioError(what, abs, d, err)
    }
  }
}

function ioError(what: string, target: string, at: string, err: unknown): PipelineError {
  const e = err as NodeJS.ErrnoException
  const where = at === target ? '' : ` (at ${at})`
  return new PipelineError('E_IO', `cannot create ${what} ${target}${where}: ${e.code ?? e.message}; choose a folder you can write to`, { file: target }, { cause: err })
}
