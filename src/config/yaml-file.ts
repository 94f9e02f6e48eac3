// A small YAML file of one mapping validated by a zod schema (the judge of `pipeline score
// --judge`, F1-Bio's model of `--f1-bio`): every problem names the file, the key and its line,
// as a dataset file's do, and all of them are reported at once.
import { readFile } from 'node:fs/promises'
import { LineCounter, parseDocument, type Node } from 'yaml'
import { PipelineError } from '../core/errors.ts'
import { problemsError, z } from '../core/stage-options.ts'
import { formatPath, lineOf, type Segments } from './yaml-lines.ts'

/** A problem a caller finds in a valid mapping (what the schema cannot say), at a key path. */
export interface YamlProblem {
  code: 'E_CONFIG_KEY' | 'E_CONFIG_VALUE'
  message: string
  at: Segments
}

export interface YamlFileOptions<S extends z.ZodType> {
  schema: S
  /** What the file is, for messages ("judge file"). */
  what: string
  /** What to give instead, for messages ("a YAML file of one openai-compatible model (...)"). */
  hint: string
  /** Further checks of the parsed value. */
  check?: (value: z.infer<S>) => YamlProblem[]
}

/** The file's mapping, parsed by the schema; throws one error listing every problem. */
export async function readYamlFile<S extends z.ZodType>(file: string, o: YamlFileOptions<S>): Promise<z.infer<S>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT'
    throw new PipelineError(missing ? 'E_FILE_MISSING' : 'E_IO', missing ? `${o.what} not found; give ${o.hint}` : `cannot read ${o.what}: ${(cause as Error).message}`, { file }, { cause })
  }
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    const pos = lines.linePos(doc.errors[0].pos[0])
    throw new PipelineError('E_CONFIG_YAML', `invalid YAML at line ${pos.line}, column ${pos.col}: ${doc.errors[0].message.split('\n')[0]}`, { file, line: pos.line })
  }
  const raw = doc.toJS() as unknown
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new PipelineError('E_CONFIG_VALUE', `expected a mapping, found ${raw === null || raw === undefined ? 'an empty file' : JSON.stringify(raw).slice(0, 60)}; give ${o.hint}`, { file, yamlPath: '(top level)' })
  }
  const parsed = o.schema.safeParse(raw, { reportInput: true })
  const problems = parsed.success ? (o.check?.(parsed.data) ?? []) : parsed.error.issues.flatMap((issue) => issueProblems(issue, o.schema))
  if (problems.length) {
    const lineAt = (segs: Segments) => lineOf(doc.contents as Node | null, segs, lines)
    throw problemsError(file, problems.map((p) => new PipelineError(p.code, p.message, { file, yamlPath: formatPath(p.at) || '(top level)', line: lineAt(p.at) })))
  }
  return parsed.data as z.infer<S>
}

// A zod issue in the file's terms: one problem per unknown key (each at its own line).
function issueProblems(issue: z.core.$ZodIssue, schema: z.ZodType): YamlProblem[] {
  const at = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
  const input = (issue as { input?: unknown }).input
  if (issue.code === 'unrecognized_keys') {
    const allowed = keysAt(schema, at).join(', ')
    return issue.keys.map((key) => ({ code: 'E_CONFIG_KEY', message: `unknown key "${key}"; allowed keys here: ${allowed}`, at: [...at, key] }))
  }
  if (issue.code === 'invalid_type' && input === undefined) return [{ code: 'E_CONFIG_VALUE', message: `required ${issue.expected} is missing`, at }]
  const found = input === undefined ? '' : `, found ${JSON.stringify(input)}`
  return [{ code: 'E_CONFIG_VALUE', message: `${issue.message}${found}`, at }]
}

// The keys the schema allows at a path of the file (its objects, through optionals and defaults).
function keysAt(schema: z.ZodType, segs: Segments): string[] {
  const shapeOf = (s: unknown): Record<string, unknown> | undefined => {
    let cur = s
    while (cur instanceof z.ZodOptional || cur instanceof z.ZodDefault) cur = cur.unwrap()
    return cur instanceof z.ZodObject ? cur.shape : undefined
  }
  let cur: unknown = schema
  for (const seg of segs) cur = shapeOf(cur)?.[seg]
  return Object.keys(shapeOf(cur) ?? {})
}
