// One rule for the output paths of every command (convert's output, beats --out, render --text,
// --video and --strips): a missing folder is created, as `mkdir -p` would, and only a folder that
// cannot be created (no permission, a path component that is a file) is an error, E_IO naming
// the path and the reason. A file named where a folder is needed, or the reverse, is a usage
// error. All of it happens before any signal is read.
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { makeDirs } from '../sinks/make-dirs.ts'

/** Makes the folder an output file goes in; `label` names it in messages ("--text", "the output"). */
export async function prepareOutputFile(file: string, label: string, example: string): Promise<void> {
  if ((await kindOf(file)) === 'folder') throw new PipelineError('E_USAGE', `${label} ${file} is a folder; give a file name such as ${path.join(file, example)}`, { file })
  await makeFolder(path.dirname(file), `the folder of ${label}`)
}

/** Makes an output folder (render --strips); a file there is a usage error. */
export async function prepareOutputFolder(dir: string, label: string): Promise<void> {
  if ((await kindOf(dir)) === 'file') throw new PipelineError('E_USAGE', `${label} ${dir} is a file; ${label} needs a folder (made when missing): name a folder`, { file: dir })
  await makeFolder(dir, `the ${label} folder`)
}

/** mkdir -p, naming the file in the way when a component of the path is one (mkdir says only ENOTDIR). */
async function makeFolder(dir: string, what: string): Promise<void> {
  const abs = path.resolve(dir)
  for (let d = abs; d !== path.dirname(d); d = path.dirname(d)) {
    const kind = await kindOf(d)
    if (kind === 'folder') break
    if (kind === 'file') throw new PipelineError('E_IO', `cannot create ${what} ${abs}: ${d} is a file, not a folder; choose another path`, { file: abs })
  }
  await makeDirs(abs, what)
}

async function kindOf(p: string): Promise<'file' | 'folder' | null> {
  const st = await stat(p).catch(() => null)
  return st === null ? null : st.isDirectory() ? 'folder' : 'file'
}
