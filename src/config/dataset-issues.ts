// Turns the dataset schema's zod issues into PipelineErrors that say, in the file's own terms,
// where (YAML path and line), what was expected and what was found; an unknown key lists the
// keys allowed there. Each unknown key is a problem of its own, at its own line.
import { z } from 'zod'
import { PipelineError } from '../core/errors.ts'
import { datasetSchema } from './dataset-schema.ts'
import { formatPath, type Segments } from './yaml-lines.ts'

/** The problems one zod issue stands for (one per unknown key, else one). */
export function issueProblems(issue: z.core.$ZodIssue, file: string, lineAt: (segs: Segments) => number | undefined): PipelineError[] {
  const segs = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
  const line = lineAt(segs)
  if (issue.code === 'unrecognized_keys') {
    const allowed = allowedKeys(segs).join(', ')
    return issue.keys.map((key) => new PipelineError('E_CONFIG_KEY', `unknown key "${key}"; allowed keys here: ${allowed}`, { file, yamlPath: formatPath([...segs, key]), line: lineAt([...segs, key]) ?? line }))
  }
  return [new PipelineError('E_CONFIG_VALUE', describeIssue(issue), { file, yamlPath: formatPath(segs) || '(top level)', line })]
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

/** The keys the schema allows at a path (walks the zod schema: objects, arrays, optionals, unions). */
export function allowedKeys(segs: Segments): string[] {
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
