// Resolves the `stages:` list of a dataset: a built-in name, or a path (./, ../, / or a .js/.mjs/
// .ts/.mts file) to the user's own module whose default export is `defineStage({...})` or a
// factory `(options) => stage` (like pino transports: loaded by path, shape checked on load).
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { PipelineError } from '../core/errors.ts'
import { describeStageShapeProblem, type Stage } from '../core/stage.ts'
import type { StageEntry } from './dataset-schema.ts'

export interface ResolvedStage {
  stage: Stage<unknown>
  options: unknown
  /** 'builtin' or the plugin's absolute path. */
  source: string
  /** sha256 of the plugin's source file, so a changed plugin changes the run's config hash. */
  sourceHash?: string
}

/** True when a `use:` value names a file rather than a built-in stage. */
export function isStagePath(use: string): boolean {
  return /^(\.{1,2}[\\/]|[\\/])/.test(use) || /\.(m?[jt]s|cjs)$/.test(use)
}

/** Loads and checks every stage of a dataset, in order, with its parsed options. */
export async function resolveStages(entries: StageEntry[], datasetFile: string, builtins: Record<string, Stage<any>>): Promise<ResolvedStage[]> {
  const out: ResolvedStage[] = []
  for (const entry of entries) {
    const where = { file: datasetFile, yamlPath: entry.yamlPath, line: entry.line }
    let resolved: Omit<ResolvedStage, 'options'>
    if (isStagePath(entry.use)) {
      const abs = path.resolve(path.dirname(datasetFile), entry.use)
      resolved = await loadPluginStage(abs, entry.options, where.yamlPath)
    } else {
      const stage = builtins[entry.use]
      if (!stage) {
        throw new PipelineError('E_STAGE_UNKNOWN', `unknown stage "${entry.use}"; built-in stages: ${Object.keys(builtins).sort().join(', ')}; a module of your own is named by a path starting with ./ or /`, where)
      }
      resolved = { stage, source: 'builtin' }
    }
    const optionsWhere = { file: datasetFile, yamlPath: `${entry.yamlPath}.options`, line: entry.line }
    const options = resolved.stage.parseOptions ? resolved.stage.parseOptions(entry.options, optionsWhere) : entry.options
    out.push({ ...resolved, options })
  }
  return out
}

/** Imports a plugin module and checks its default export. */
export async function loadPluginStage(abs: string, options: Record<string, unknown>, yamlPath = ''): Promise<Omit<ResolvedStage, 'options'>> {
  const where = { file: abs, yamlPath }
  const isFile = await stat(abs).then((s) => s.isFile(), () => false)
  if (!isFile) throw new PipelineError('E_PLUGIN', 'stage module not found (paths are relative to the dataset file)', where)
  let mod: { default?: unknown }
  try {
    await ensureTypeScriptLoader()
    mod = (await import(pathToFileURL(abs).href)) as { default?: unknown }
  } catch (cause) {
    throw new PipelineError('E_PLUGIN', `stage module failed to load: ${(cause as Error).message?.split('\n')[0]}`, where, { cause })
  }
  let value = mod.default
  if (typeof value === 'function') {
    try {
      value = await (value as (o: unknown) => unknown)(options)
    } catch (cause) {
      throw new PipelineError('E_PLUGIN', `the stage factory (default export) threw: ${(cause as Error).message}`, where, { cause })
    }
  }
  const problem = value === undefined ? 'found no default export' : describeStageShapeProblem(value)
  if (problem) {
    throw new PipelineError('E_PLUGIN', `default export must be defineStage({ name, version, transform }) or a function returning one; ${problem}`, where)
  }
  const sourceHash = createHash('sha256').update(await readFile(abs)).digest('hex')
  return { stage: value as Stage<unknown>, source: abs, sourceHash }
}

const TSX_FLAG = Symbol.for('holter-pipeline.tsx')

/**
 * Plugins may be TypeScript, or JavaScript that imports 'holter-pipeline' (whose entry is
 * TypeScript). The CLI started from its bundle has no TypeScript loader, so tsx is registered
 * the first time a plugin is loaded: a process-wide hook, registered at most once (the flag
 * is process state by nature).
 */
async function ensureTypeScriptLoader(): Promise<void> {
  const g = globalThis as Record<symbol, unknown>
  // Inside a vitest worker (not a child it spawns, which inherits VITEST=true) imports already transform TypeScript.
  if (g[TSX_FLAG] || '__vitest_worker__' in globalThis) return
  const { register } = await import('tsx/esm/api')
  register()
  g[TSX_FLAG] = true
}
