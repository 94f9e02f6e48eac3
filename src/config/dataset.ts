// Loads and validates a dataset file once, at the edge (design.md "Configuration"). Every error
// names the file, the YAML path and its line, what was expected and what was found.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { LineCounter, parseDocument, isMap, isPair, isScalar, type Node } from 'yaml'
import { z } from 'zod'
import { PipelineError } from '../core/errors.ts'
import { datasetSchema, type Dataset, type RawDataset, type RecordSpec } from './dataset-schema.ts'

/** Reads, parses and validates a dataset file; paths in it are resolved against its folder. */
export async function loadDataset(file: string): Promise<Dataset> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT'
    throw new PipelineError(missing ? 'E_FILE_MISSING' : 'E_IO', missing ? 'dataset file not found' : `cannot read dataset file: ${(cause as Error).message}`, { file }, { cause })
  }
  return parseDataset(text, file)
}

/** Validates dataset text (exported for tests and for tools that build datasets in memory). */
export function parseDataset(text: string, file: string): Dataset {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    const e = doc.errors[0]
    const pos = lines.linePos(e.pos[0])
    throw new PipelineError('E_CONFIG_YAML', `invalid YAML at line ${pos.line}, column ${pos.col}: ${e.message.split('\n')[0]}`, { file, line: pos.line })
  }
  const raw = doc.toJS() as unknown
  const parsed = datasetSchema.safeParse(raw, { reportInput: true })
  if (!parsed.success) throw issueToError(parsed.error.issues[0], doc.contents as Node | null, lines, file)
  return normalize(parsed.data, file, (segs) => lineOf(doc.contents as Node | null, segs, lines))
}

function normalize(raw: RawDataset, file: string, lineAt: (segs: (string | number)[]) => number | undefined): Dataset {
  const dir = path.dirname(path.resolve(file))
  const name = raw.name ?? path.basename(file).replace(/\.ya?ml$/i, '')
  const seen = new Map<string, number>()
  const records = raw.records.map((r, i): RecordSpec => {
    const all = (Array.isArray(r.path) ? r.path : [r.path]).map((p) => path.resolve(dir, p))
    const abs = all[0]
    const id = r.id ?? recordingName(abs)
    const format = r.format ?? guessFormat(abs)
    const odd = all.findIndex((p) => (r.format ?? guessFormat(p)) !== format)
    if (odd > 0) {
      throw new PipelineError('E_CONFIG_VALUE', `the parts of one record must share a format: part ${odd} (${path.basename(all[odd])}) is not ${format} like part 0; list only EDF files or only WFDB records, or make them separate records`, { file, yamlPath: `records[${i}].path[${odd}]`, line: lineAt(['records', i, 'path', odd]) })
    }
    if (seen.has(id)) {
      throw new PipelineError('E_CONFIG_VALUE', `duplicate record id "${id}" (also records[${seen.get(id)}]); give one of them an explicit "id"`, { file, yamlPath: `records[${i}]` })
    }
    seen.set(id, i)
    const source = Array.isArray(r.path) ? r.path[0] : r.path
    return { id, path: abs, ...(all.length > 1 ? { parts: all } : {}), source, format, leads: r.leads, annotator: r.annotator ?? 'atr', annotatorExplicit: r.annotator !== undefined, patient: r.patient }
  })
  const stages = raw.stages.map((s, i) => {
    const entry = typeof s === 'string' ? { use: s, options: {} } : { use: s.use, options: s.options ?? {} }
    return { ...entry, yamlPath: `stages[${i}]`, line: lineAt(['stages', i]) }
  })
  return {
    file: path.resolve(file),
    name,
    // Default output: runs/<name> under the current directory (where the user runs the command).
    out: raw.out ? path.resolve(dir, raw.out) : path.resolve('runs', name),
    concurrency: { records: raw.concurrency?.records ?? 2 },
    records,
    stages,
    output: { exclude: raw.output?.exclude ?? ['block'], decimals: raw.output?.decimals ?? 4 },
  }
}

/** A recording's name from its file: the base name without .hea, .edf, .bdf or .rec (a record's default id). */
export function recordingName(p: string): string {
  return path.basename(p).replace(/\.(hea|edf|bdf|rec)$/i, '')
}

/** EDF-family extensions read as EDF; anything else (.hea, no extension) names a WFDB record. */
export function guessFormat(p: string): 'edf' | 'wfdb' {
  return /\.(edf|bdf|rec)$/i.test(p) ? 'edf' : 'wfdb'
}

function issueToError(issue: z.core.$ZodIssue, root: Node | null, lines: LineCounter, file: string): PipelineError {
  const segs = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
  const line = lineOf(root, segs, lines)
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]
    const where = formatPath([...segs, key])
    const allowed = allowedKeys(segs)
    return new PipelineError('E_CONFIG_KEY', `unknown key "${key}"; allowed keys here: ${allowed.join(', ')}`, { file, yamlPath: where, line: lineOf(root, [...segs, key], lines) ?? line })
  }
  const where = formatPath(segs) || '(top level)'
  return new PipelineError('E_CONFIG_VALUE', describeIssue(issue), { file, yamlPath: where, line })
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    const found = (issue as { input?: unknown }).input
    return found === undefined ? `required ${issue.expected} is missing` : `expected ${issue.expected}, found ${JSON.stringify(found)}`
  }
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
  if (issue.code === 'invalid_union') {
    const found = JSON.stringify((issue as { input?: unknown }).input)
    if (issue.path[0] === 'stages') return `expected a stage name or path, or {use: name-or-path, options: {...}}, found ${found}`
    if (issue.path[0] === 'records' && issue.path.at(-1) === 'path') return `expected a recording path, or a list of the paths of its consecutive parts, found ${found}`
    const expected = [...new Set(issue.errors.map((branch) => (branch[0] as { expected?: string } | undefined)?.expected).filter(Boolean))]
    return `expected ${expected.length ? expected.join(' or ') : 'another value'}, found ${found}`
  }
  return issue.message
}

function formatPath(segs: (string | number)[]): string {
  return segs.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '')
}

/** The keys the schema allows at a path (walks the zod schema: objects, arrays, optionals, unions). */
export function allowedKeys(segs: (string | number)[]): string[] {
  let schema: unknown = datasetSchema
  for (const seg of segs) schema = child(unwrap(schema), seg)
  const obj = unwrap(schema)
  return obj instanceof z.ZodObject ? Object.keys(obj.shape) : []
}

function unwrap(s: unknown): unknown {
  let cur = s
  while (cur instanceof z.ZodOptional || cur instanceof z.ZodDefault) cur = cur.unwrap()
  if (cur instanceof z.ZodUnion) return cur.options.find((o: unknown) => unwrap(o) instanceof z.ZodObject) ?? cur
  return cur
}

function child(s: unknown, seg: string | number): unknown {
  if (s instanceof z.ZodArray && typeof seg === 'number') return s.element
  if (s instanceof z.ZodObject && typeof seg === 'string') return s.shape[seg]
  return undefined
}

function lineOf(root: Node | null, segs: (string | number)[], lines: LineCounter): number | undefined {
  let node: unknown = root
  let keyNode: unknown
  for (const seg of segs) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === seg)
      keyNode = pair?.key
      node = pair?.value
    } else if (node && typeof node === 'object' && 'items' in node && typeof seg === 'number') {
      node = (node as { items: unknown[] }).items[seg]
      keyNode = node
    } else break
  }
  const target = (keyNode ?? node) as { range?: [number, number] } | undefined
  return target?.range ? lines.linePos(target.range[0]).line : undefined
}
