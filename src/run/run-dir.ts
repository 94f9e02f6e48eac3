// Opens a run directory for a dataset: a new one is created; an existing one is resumed only
// when it was made by the same config and its inputs are unchanged, otherwise the run refuses to
// mix results unless `restart` discards what is there.
import { readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { MANIFEST_FILE, readManifest, type Manifest, type InputFile } from './manifest.ts'
import { LOCK_FILE } from './run-lock.ts'
import { ORDER_FILE } from '../formats/item-order.ts'
import { describeConfigChange } from './config-diff.ts'

const RUN_ENTRIES = new Set(['manifest.json', 'journal', 'media', '.parts', ORDER_FILE])

/**
 * Prepares `runDir` (created and locked by the caller); returns the previous manifest when
 * resuming, null for a fresh run. `config` (configForHash's value) lets a refusal say what
 * changed since the run directory was made.
 */
export async function openRunDir(runDir: string, configHash: string, inputs: Manifest['inputs'], restart: boolean, config?: unknown): Promise<Manifest | null> {
  // A damaged manifest still says this is a run directory: --restart may clear it.
  let previous: Manifest | null = null
  let isRun: boolean
  try {
    previous = await readManifest(runDir)
    isRun = previous !== null
  } catch (err) {
    if (!(restart && err instanceof PipelineError && err.code === 'E_CHECKPOINT')) throw err
    isRun = true
  }
  const leftovers = (await readdir(runDir)).filter((n) => !n.startsWith('.') && n !== LOCK_FILE)
  if (!isRun && leftovers.length > 0) {
    // Never clear a folder that is not a run directory, even with --restart: `--out .` or a
    // mistyped path must not cost a user their files.
    throw new PipelineError('E_CONFIG_CHANGED', `the output directory is not empty and is not a run directory (${leftovers.slice(0, 3).join(', ')}${leftovers.length > 3 ? ', ...' : ''}); choose another --out (--restart only clears run directories)`, { file: runDir })
  }
  if (restart) {
    // Only what a run writes: outputs and bookkeeping (*.ndjson), journals, media, parts, and the
    // manifest last, so a restart cut short still leaves a folder that says it is a run.
    const names = (await readdir(runDir)).filter((name) => name.endsWith('.ndjson') || RUN_ENTRIES.has(name))
    for (const name of names.sort((a, b) => Number(a === MANIFEST_FILE) - Number(b === MANIFEST_FILE))) await rm(path.join(runDir, name), { recursive: true, force: true })
    return null
  }
  if (!previous) return null
  if (previous.configHash !== configHash) {
    const changes = config === undefined ? [] : describeConfigChange(previous.config, config)
    const what = changes.length ? `; changed since: ${changes.join('; ')}` : ` (hash ${previous.configHash.slice(0, 12)}, now ${configHash.slice(0, 12)})`
    throw new PipelineError('E_CONFIG_CHANGED', `this run directory holds results of a different dataset config${what}; pass --restart to discard them, or --out to write elsewhere`, { file: path.join(runDir, 'manifest.json'), changes })
  }
  const changed = changedInputs(previous.inputs, inputs)
  if (changed.length > 0) {
    throw new PipelineError('E_CONFIG_CHANGED', `input files changed since this run started (${changed.slice(0, 3).join(', ')}${changed.length > 3 ? `, and ${changed.length - 3} more` : ''}); pass --restart to redo the run with the new files`, { file: path.join(runDir, 'manifest.json'), changed })
  }
  return previous
}

function changedInputs(before: Manifest['inputs'], now: Manifest['inputs']): string[] {
  const key = (f: InputFile) => `${f.size}:${Math.round(f.mtimeMs)}`
  const seen = new Map<string, string>()
  for (const r of before) for (const f of r.files) seen.set(f.path, key(f))
  const out: string[] = []
  for (const r of now) for (const f of r.files) if (seen.has(f.path) && seen.get(f.path) !== key(f)) out.push(f.path)
  return out
}
