// Resolves the `stages:` list of a dataset: a built-in name, or a path (./, ../, / or a .js/.mjs/
// .ts/.mts file) to the user's own module whose default export is `defineStage({...})` or a
// factory `(options) => stage` (like pino transports: loaded by path, shape checked on load).
// Every entry is checked before any error is thrown, so a file's unknown stages, missing modules
// and bad options are all reported at once.
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { describeStageShapeProblem, type OptionsSource, type Stage } from '../core/stage.ts'
import { problemsError, problemsOf } from '../core/stage-options.ts'
import type { StageEntry } from './dataset-schema.ts'
import { importPlugin } from './plugin-loader.ts'
import { formatPath } from './yaml-lines.ts'

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

/** Loads and checks every stage of a dataset, in order, with its parsed options; throws one error listing every problem. */
export async function resolveStages(entries: StageEntry[], datasetFile: string, builtins: Record<string, Stage<any>>): Promise<ResolvedStage[]> {
  const { stages, problems } = await checkStages(entries, datasetFile, builtins)
  if (problems.length) throw problemsError(datasetFile, problems)
  return stages
}

/** Resolves what it can of every entry and collects the problems of the rest (for resolveStages and the dataset loader). */
export async function checkStages(entries: StageEntry[], datasetFile: string, builtins: Record<string, Stage<any>>): Promise<{ stages: ResolvedStage[]; problems: PipelineError[] }> {
  const stages: ResolvedStage[] = []
  const problems: PipelineError[] = []
  for (const entry of entries) {
    try {
      stages.push(await resolveStage(entry, datasetFile, builtins))
    } catch (err) {
      // Anything else is a bug in a stage, not a mistake in the file: it stops here.
      if (!(err instanceof PipelineError)) throw err
      problems.push(...problemsOf(err).map((p) => atEntry(p, entry, datasetFile)))
    }
  }
  return { stages, problems }
}

async function resolveStage(entry: StageEntry, datasetFile: string, builtins: Record<string, Stage<any>>): Promise<ResolvedStage> {
  let resolved: Omit<ResolvedStage, 'options'>
  if (isStagePath(entry.use)) {
    resolved = await loadPluginStage(path.resolve(path.dirname(datasetFile), entry.use), entry.options, entry.yamlPath)
  } else {
    const stage = builtins[entry.use]
    if (!stage) {
      throw new PipelineError('E_STAGE_UNKNOWN', `unknown stage "${entry.use}"; built-in stages: ${Object.keys(builtins).sort().join(', ')}; a module of your own is named by a path starting with ./ or /`, { file: datasetFile, yamlPath: entry.yamlPath, line: entry.line })
    }
    resolved = { stage, source: 'builtin' }
  }
  const where: OptionsSource = { file: datasetFile, yamlPath: `${entry.yamlPath}.options`, line: entry.line, lineOf: (p) => entry.optionLines?.[formatPath(p)] }
  const options = resolved.stage.parseOptions ? resolved.stage.parseOptions(entry.options, where) : entry.options
  return { ...resolved, options }
}

// Gives a problem its line in the dataset file when its thrower did not know it (a plugin's own
// parseOptions, a module that failed to load), without changing what the error itself says.
function atEntry(p: PipelineError, entry: StageEntry, datasetFile: string): PipelineError {
  const inDataset = p.context.file === undefined || p.context.file === datasetFile
  const prefix = `${entry.yamlPath}.options.`
  const key = p.context.yamlPath?.startsWith(prefix) ? p.context.yamlPath.slice(prefix.length) : undefined
  const line = (key !== undefined ? entry.optionLines?.[key] : undefined) ?? entry.line
  // A plugin's error names the plugin's file; the line in the dataset goes beside it.
  const added = inDataset ? (p.context.line === undefined ? { file: datasetFile, line } : null) : p.context.datasetLine === undefined ? { datasetLine: line } : null
  if (!added || line === undefined) return p
  // The thrower's stack stays: it shows where the plugin threw (--verbose).
  return Object.assign(new PipelineError(p.code, p.message, { ...p.context, ...added }, { cause: p.cause }), { stack: p.stack })
}

/** Imports a plugin module and checks its default export. */
export async function loadPluginStage(abs: string, options: Record<string, unknown>, yamlPath = ''): Promise<Omit<ResolvedStage, 'options'>> {
  const where = { file: abs, yamlPath }
  const isFile = await stat(abs).then((s) => s.isFile(), () => false)
  if (!isFile) throw new PipelineError('E_PLUGIN', 'stage module not found (paths are relative to the dataset file)', where)
  let mod: { default?: unknown }
  try {
    mod = await importPlugin(abs)
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
