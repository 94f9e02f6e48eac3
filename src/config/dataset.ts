// Loads and validates a dataset file once, at the edge (design.md "Configuration"). Every
// problem names the file, the YAML path and its line, what was expected and what was found; all
// the problems of a file (schema, records, stages and their options) are reported together, in
// one error listing them, so a file is fixed in one go rather than one run per mistake.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { LineCounter, parseDocument, type Node } from 'yaml'
import { PipelineError } from '../core/errors.ts'
import type { PlannedDataset, Stage } from '../core/stage.ts'
import { problemsError } from '../core/stage-options.ts'
import { issueProblems } from './dataset-issues.ts'
import { normalizeRecords, recordsToCheck } from './dataset-records.ts'
import { datasetSchema, stageEntry, type Dataset, type StageEntry } from './dataset-schema.ts'
import { checkStages, type ResolvedStage } from './plugins.ts'
import { caseIdOf } from './case-id.ts'
import { formatPath, lineOf, linesUnder, type Segments } from './yaml-lines.ts'

export { allowedKeys } from './dataset-issues.ts'

/**
 * Reads and validates a dataset file, its stages included (names, modules, options), and
 * resolves its paths against its folder. `builtins` defaults to the built-in stages.
 */
export async function loadDataset(file: string, builtins?: Record<string, Stage<any>>): Promise<Dataset> {
  return (await loadDatasetStages(file, builtins)).dataset
}

/** loadDataset, with the stages it resolved on the way (so a run does not load them twice). */
export async function loadDatasetStages(file: string, builtins?: Record<string, Stage<any>>): Promise<{ dataset: Dataset; stages: ResolvedStage[] }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT'
    throw new PipelineError(missing ? 'E_FILE_MISSING' : 'E_IO', missing ? 'dataset file not found' : `cannot read dataset file: ${(cause as Error).message}`, { file }, { cause })
  }
  const found = inspectDataset(text, file)
  // Imported here rather than passed in by the run command, which loads the dataset before it
  // resolves the stages: a file's stage problems must be listed with its other problems.
  const stages = builtins ?? (await import('../stages/index.ts')).BUILTIN_STAGES
  const { problems, stages: resolved } = await checkStages(found.entries, file, stages)
  if (problems.length === 0) problems.push(...planProblems(found.entries, resolved, file, { cases: found.dataset && !found.dataset.input ? found.dataset.records.map(caseIdOf) : null }))
  const all = [...found.problems, ...problems]
  if (all.length) throw problemsError(file, all)
  return { dataset: found.dataset!, stages: resolved }
}

/** Validates dataset text without its stages (exported for tests and for tools that build datasets in memory). */
export function parseDataset(text: string, file: string): Dataset {
  const found = inspectDataset(text, file)
  if (found.problems.length) throw problemsError(file, found.problems)
  return found.dataset!
}

interface Inspected {
  /** Set when there are no problems. */
  dataset?: Dataset
  /** The stage entries that are well formed, for the stage checks, even when other parts are not. */
  entries: StageEntry[]
  problems: PipelineError[]
}

// Checks as much as it can: the whole schema, then each record and stage entry on its own, so
// the checks across records and the stages' own checks still run when another part is wrong.
function inspectDataset(text: string, file: string): Inspected {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    // The first syntax error only: the parser's next ones mostly follow from it, and nothing
    // after it can be checked against the schema.
    const e = doc.errors[0]
    const pos = lines.linePos(e.pos[0])
    return { entries: [], problems: [new PipelineError('E_CONFIG_YAML', `invalid YAML at line ${pos.line}, column ${pos.col}: ${e.message.split('\n')[0]}`, { file, line: pos.line })] }
  }
  const root = doc.contents as Node | null
  const lineAt = (segs: Segments) => lineOf(root, segs, lines)
  const raw = doc.toJS() as unknown
  const parsed = datasetSchema.safeParse(raw, { reportInput: true })
  const problems = parsed.success ? [] : parsed.error.issues.flatMap((issue) => issueProblems(issue, file, lineAt))
  const top = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  const dir = path.dirname(path.resolve(file))
  const records = normalizeRecords(recordsToCheck(top.records), dir, file, lineAt)
  problems.push(...records.problems)
  const input = parsed.success && parsed.data.input ? { run: path.resolve(dir, parsed.data.input.run), kinds: parsed.data.input.kinds } : undefined
  if (top.records === undefined && top.input === undefined) problems.push(new PipelineError('E_CONFIG_VALUE', 'required records are missing: list the recordings to read (records: [{path: ...}], or by pattern: records: {glob: data/mitdb/*.hea}), or name an earlier run to read instead (input: {run: <dir>, kinds: [window, beat]})', { file, yamlPath: 'records' }))
  if (top.records !== undefined && top.input !== undefined) problems.push(new PipelineError('E_CONFIG_VALUE', 'give records or input, not both: a run over an earlier run reads that run\'s records', { file, yamlPath: 'input', line: lineAt(['input']) }))
  const listed = wellFormed(top.stages, stageEntry).map(({ value: s, index: i }): StageEntry => {
    const entry = typeof s === 'string' ? { use: s, options: {} } : { use: s.use, options: s.options ?? {} }
    const optionLines = typeof s === 'string' ? undefined : linesUnder(root, ['stages', i, 'options'], lines)
    return { ...entry, yamlPath: formatPath(['stages', i]), line: lineAt(['stages', i]), ...(optionLines ? { optionLines } : {}) }
  })
  for (const e of listed) {
    if (e.use === 'read-run') problems.push(new PipelineError('E_CONFIG_VALUE', 'read-run is not listed in stages: name the earlier run with input: {run: <dir>, kinds: [...]} (its records, its manifest entry and its config hash come from there)', { file, yamlPath: e.yamlPath, line: e.line }))
  }
  // A run over a run starts with the stage that streams the earlier run's records.
  const entries: StageEntry[] = input ? [{ use: 'read-run', options: input, yamlPath: 'input', line: lineAt(['input']) }, ...listed] : listed
  if (!parsed.success || problems.length) return { entries, problems }
  const r = parsed.data
  const name = r.name ?? path.basename(file).replace(/\.ya?ml$/i, '')
  const dataset: Dataset = {
    file: path.resolve(file),
    name,
    // Default output: runs/<name> under the current directory (where the user runs the command).
    out: r.out ? path.resolve(dir, r.out) : path.resolve('runs', name),
    concurrency: { records: r.concurrency?.records ?? 2 },
    records: records.records,
    stages: entries,
    output: { exclude: r.output?.exclude ?? ['block'], decimals: r.output?.decimals ?? 4 },
    ...(input ? { input } : {}),
    ...(r.cache ? { cache: path.resolve(dir, r.cache) } : {}),
  }
  return { dataset, entries, problems }
}

// What each stage's checkPlan finds against the others and the records (every entry resolved, so they pair up).
function planProblems(entries: StageEntry[], resolved: ResolvedStage[], file: string, dataset: PlannedDataset): PipelineError[] {
  const planned = resolved.map((r) => ({ name: r.stage.name, options: r.options, builtin: r.source === 'builtin' }))
  return resolved.flatMap((r, i) => (r.stage.checkPlan?.(planned, i, dataset) ?? []).map((message) => new PipelineError('E_CONFIG_VALUE', message, { file, yamlPath: `${entries[i].yamlPath}.options`, line: entries[i].line })))
}

// The items of a list that pass their own schema, with their positions (none when it is not a list).
function wellFormed<T>(list: unknown, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }): { value: T; index: number }[] {
  if (!Array.isArray(list)) return []
  return list.flatMap((item, index) => {
    const r = schema.safeParse(item)
    return r.success ? [{ value: r.data, index }] : []
  })
}
