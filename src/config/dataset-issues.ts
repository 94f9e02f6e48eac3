// Turns the dataset schema's zod issues into PipelineErrors that say, in the file's own terms,
// where (YAML path and line), what was expected and what was found; an unknown key lists the
// keys allowed there. Each unknown key is a problem of its own, at its own line. A union of
// objects (a record {path} or a glob {glob}) is reported as the branch its value's keys choose,
// so `format: mp3` in a record is that field's problem, not "invalid input" for the whole list.
import { z } from 'zod'
import { PipelineError } from '../core/errors.ts'
import { datasetSchema } from './dataset-schema.ts'
import { formatPath, type Segments } from './yaml-lines.ts'

/** The problems one zod issue stands for (one per unknown key, else one); `at` is where the issue's path starts. */
export function issueProblems(issue: z.core.$ZodIssue, file: string, lineAt: (segs: Segments) => number | undefined, at: Segments = []): PipelineError[] {
  const segs = [...at, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))]
  const input = (issue as { input?: unknown }).input
  if (issue.code === 'invalid_union') {
    const options = unionOptions(schemaAt(segs))
    const branch = options.some((o) => bare(o) instanceof z.ZodObject) ? pickOption(options, input) : undefined
    if (branch !== undefined && issue.errors[branch]) return issue.errors[branch].flatMap((i) => issueProblems(i, file, lineAt, segs))
  }
  const line = lineAt(segs)
  if (issue.code === 'unrecognized_keys') {
    const keys = allowedKeys(segs, input)
    const allowed = keys.join(', ')
    return issue.keys.map((key) => {
      const hint = key === 'id' && keys.includes('glob') ? '; a glob names each match by its file: to give a recording an id, list it as {path, id} and leave it out of the glob (a "!" pattern)' : ''
      return new PipelineError('E_CONFIG_KEY', `unknown key "${key}"; allowed keys here: ${allowed}${hint}`, { file, yamlPath: formatPath([...segs, key]), line: lineAt([...segs, key]) ?? line })
    })
  }
  return [new PipelineError('E_CONFIG_VALUE', describeIssue(issue, segs), { file, yamlPath: formatPath(segs) || '(top level)', line })]
}

function describeIssue(issue: z.core.$ZodIssue, segs: Segments): string {
  if (issue.code === 'invalid_type') {
    const found = (issue as { input?: unknown }).input
    return found === undefined ? `required ${issue.expected} is missing` : `expected ${issue.expected}, found ${JSON.stringify(found)}`
  }
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
  if (issue.code === 'invalid_union') {
    const found = JSON.stringify((issue as { input?: unknown }).input)
    const last = segs.at(-1)
    if (segs[0] === 'stages') return `expected a stage name or path, or {use: name-or-path, options: {...}}, found ${found}`
    if (segs[0] === 'records' && last === 'path') return `expected a recording path, or a list of the paths of its consecutive parts, found ${found}`
    if (segs[0] === 'records' && last === 'glob') return `expected a glob pattern (data/mitdb/*.hea), or a list of patterns, found ${found}`
    if (segs.length === 1 && last === 'records') return `expected a list of records ([{path: ...}, {glob: ...}]), or one glob ({glob: data/mitdb/*.hea}), found ${found}`
    if (segs.length === 2 && segs[0] === 'records') return `expected a record ({path: ...}) or a glob ({glob: ...}), found ${found}`
    const expected = [...new Set(issue.errors.map((branch) => (branch[0] as { expected?: string } | undefined)?.expected).filter(Boolean))]
    return `expected ${expected.length ? expected.join(' or ') : 'another value'}, found ${found}`
  }
  return issue.message
}

/** The keys the schema allows at a path (walks the zod schema: objects, arrays, optionals, unions; `input` picks a union's branch). */
export function allowedKeys(segs: Segments, input?: unknown): string[] {
  const at = schemaAt(segs)
  const options = unionOptions(at)
  const pick = pickOption(options, input) ?? options.findIndex((o) => bare(o) instanceof z.ZodObject)
  const obj = bare(options.length ? options[pick] : at)
  return obj instanceof z.ZodObject ? Object.keys(obj.shape) : []
}

function schemaAt(segs: Segments): unknown {
  let schema: unknown = datasetSchema
  for (const seg of segs) schema = child(schema, seg)
  return schema
}

// The schema without its optional or default wrapper.
function bare(s: unknown): unknown {
  let cur = s
  while (cur instanceof z.ZodOptional || cur instanceof z.ZodDefault) cur = cur.unwrap()
  return cur
}

function unionOptions(s: unknown): unknown[] {
  const u = bare(s)
  return u instanceof z.ZodUnion ? [...u.options] : []
}

// The branch of a union a value is meant for: a list's for a list; for an object, the object
// branch with a key of its own in the value (glob, or path and id), else the first object branch.
function pickOption(options: unknown[], input: unknown): number | undefined {
  const found = (test: (o: unknown) => boolean) => {
    const i = options.findIndex((o) => test(bare(o)))
    return i >= 0 ? i : undefined
  }
  if (Array.isArray(input)) return found((o) => o instanceof z.ZodArray)
  if (!input || typeof input !== 'object') return undefined
  const shapes = options.map((o) => bare(o)).filter((o): o is z.ZodObject => o instanceof z.ZodObject).map((o) => o.shape)
  const owns = (shape: object) => Object.keys(shape).some((k) => k in input && shapes.every((s) => s === shape || !(k in s)))
  return found((o) => o instanceof z.ZodObject && owns(o.shape)) ?? found((o) => o instanceof z.ZodObject)
}

function child(s: unknown, seg: string | number): unknown {
  const cur = bare(s)
  if (cur instanceof z.ZodUnion) return cur.options.map((o: unknown) => child(o, seg)).find((c: unknown) => c !== undefined)
  if (cur instanceof z.ZodArray && typeof seg === 'number') return cur.element
  if (cur instanceof z.ZodObject && typeof seg === 'string') return cur.shape[seg]
  return undefined
}
