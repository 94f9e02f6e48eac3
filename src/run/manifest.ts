// `manifest.json` of a run directory: what produced the outputs (config hash, tool and stage
// versions, input files with size and mtime) and every session that worked on it. Written
// atomically (temp file + rename) so a crash never leaves half a manifest. Holds no secrets:
// the config has only names of environment variables, never their values.
import { readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { InputFile, RecordSpec } from '../core/record.ts'

export type { InputFile }

export interface Manifest {
  tool: { name: string; version: string; node: string }
  name: string
  datasetFile: string
  configHash: string
  stages: { name: string; version: number | string; source: string; sourceHash?: string }[]
  inputs: { recordId: string; files: InputFile[] }[]
  /** The earlier run this one reads (a dataset's `input:`): its directory, config hash and the kinds read. */
  input?: { run: string; configHash: string; kinds: string[] }
  /** The records as the run read them (a run over this one takes its record specs from here). */
  records?: RecordSpec[]
  config: unknown
  sessions: { startedAt: string; endedAt?: string; status?: string; pid: number }[]
}

export const MANIFEST_FILE = 'manifest.json'

/** Reads a run directory's manifest, or null when there is none yet. */
export async function readManifest(runDir: string): Promise<Manifest | null> {
  const file = path.join(runDir, MANIFEST_FILE)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new PipelineError('E_IO', `cannot read manifest: ${(err as Error).message}`, { file }, { cause: err })
  }
  try {
    return JSON.parse(text) as Manifest
  } catch (cause) {
    throw new PipelineError('E_CHECKPOINT', 'manifest.json is not valid JSON (run with --restart to start over)', { file }, { cause })
  }
}

/** Writes the manifest atomically. */
export async function writeManifest(runDir: string, manifest: Manifest): Promise<void> {
  const file = path.join(runDir, MANIFEST_FILE)
  const tmp = `${file}.tmp-${process.pid}`
  await writeFile(tmp, JSON.stringify(manifest, null, 2) + '\n')
  await rename(tmp, file)
}
