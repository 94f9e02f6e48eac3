// Stage options are validated next to each stage with a zod schema; this turns
// every problem into a PipelineError that names the dataset file, the YAML path and, where the
// YAML gives one, the option's own line. Several problems make one error listing them all (a
// user fixes a file in one go instead of one run per mistake); the dataset loader merges these
// lists with the file's other problems (problemsOf / problemsError).
import { z } from 'zod'
import { PipelineError, type ErrorCode } from './errors.ts'
import type { OptionsSource } from './stage.ts'

export { z }

/** Parses `raw` with `schema` or throws E_CONFIG_KEY / E_CONFIG_VALUE naming each bad option. */
export function parseOptionsWith<S extends z.ZodType>(schema: S, raw: unknown, where: OptionsSource): z.infer<S> {
  const result = schema.safeParse(raw ?? {}, { reportInput: true })
  if (result.success) return result.data
  throw problemsError(where.file, result.error.issues.flatMap((issue) => optionProblems(schema, issue, where)))
}

function optionProblems(schema: z.ZodType, issue: z.core.$ZodIssue, where: OptionsSource): PipelineError[] {
  const segs = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
  const at = [where.yamlPath, ...segs.map(String)].filter(Boolean).join('.')
  const lineAt = (path: (string | number)[]) => where.lineOf?.(path) ?? where.line
  if (issue.code === 'unrecognized_keys') {
    const object = objectAt(schema, segs)
    const allowed = object ? `; allowed options${segs.length ? ` in ${segs.join('.')}` : ''}: ${Object.keys(object.shape).join(', ')}` : '; remove it'
    return issue.keys.map((key) => new PipelineError('E_CONFIG_KEY', `unknown option "${key}"${allowed}`, { file: where.file, yamlPath: `${at}.${key}`, line: lineAt([...segs, key]) }))
  }
  const input = (issue as { input?: unknown }).input
  const found = input === undefined ? '' : `, found ${JSON.stringify(input)}`
  return [new PipelineError('E_CONFIG_VALUE', `${issue.message}${found}`, { file: where.file, yamlPath: at, line: lineAt(segs) })]
}

// The object schema at `segs` (an unknown key's place), through defaults, optionals, pipes, lists,
// records and unions (the one option that fits), so the keys listed are those allowed there; null
// where that is ambiguous.
function objectAt(schema: z.ZodType, segs: (string | number)[]): z.ZodObject | null {
  let s: unknown = schema
  let i = 0
  for (;;) {
    const def = (s as { _zod?: { def?: Record<string, any> } } | undefined)?._zod?.def
    if (!def) return null
    if ('innerType' in def) s = def.innerType
    else if (def.type === 'pipe') s = def.in
    else if (def.type === 'union') {
      const found = (def.options as z.ZodType[]).map((o) => objectAt(o, segs.slice(i))).filter((o) => o !== null)
      return found.length === 1 ? found[0] : null
    } else if (i === segs.length) return s instanceof z.ZodObject ? s : null
    else if (def.type === 'object') s = def.shape[segs[i++]]
    else if (def.type === 'array') (s = def.element), i++
    else if (def.type === 'record') (s = def.valueType), i++
    else return null
  }
}

/** A problem as an error's context lists it (plain data, so the context stays printable). */
export interface ConfigProblem {
  code: ErrorCode
  message: string
  /** The file the problem is in, when it is not the listed file (a plugin module). */
  file?: string
  yamlPath?: string
  /** Line in the listed file. */
  line?: number
}

/**
 * One error for a file's problems (at least one): the problem itself when there is one (its
 * message unchanged), else `N problems:` and one line per problem in file order, with the first
 * one's code. A problem in another file (a plugin) gives its line in this one as `datasetLine`.
 */
export function problemsError(file: string, problems: PipelineError[]): PipelineError {
  if (problems.length === 1) return problems[0]
  const listed: ConfigProblem[] = problems.map((p) => {
    const own = p.context.file === undefined || p.context.file === file
    const line = own ? p.context.line : (p.context.datasetLine as number | undefined)
    return { code: p.code, message: p.message, ...(own ? {} : { file: p.context.file }), yamlPath: p.context.yamlPath, line }
  })
  // Stable: problems on one line (or without one) keep the order they were found in.
  const order = listed.map((p, i) => i).sort((a, b) => (listed[a].line ?? Infinity) - (listed[b].line ?? Infinity))
  const sorted = order.map((i) => listed[i])
  const lines = sorted.map((p) => `  ${describeProblem(p)}`)
  return new PipelineError(sorted[0].code, `${sorted.length} problems:\n${lines.join('\n')}`, { file, problems: sorted }, { cause: problems[order[0]] })
}

/** The problems an error stands for: the ones it lists when it is a problemsError, else itself. */
export function problemsOf(err: PipelineError): PipelineError[] {
  const listed = err.context.problems
  if (!Array.isArray(listed)) return [err]
  return (listed as ConfigProblem[]).map((p) => new PipelineError(p.code, p.message, p.file ? { file: p.file, yamlPath: p.yamlPath, datasetLine: p.line } : { file: err.context.file, yamlPath: p.yamlPath, line: p.line }))
}

function describeProblem(p: ConfigProblem): string {
  // Invalid YAML says its line (and column) itself.
  const saysLine = p.line !== undefined && new RegExp(`\\bline ${p.line}\\b`).test(p.message)
  const where = [p.line !== undefined && !saysLine ? `line ${p.line}` : '', p.yamlPath ?? ''].filter(Boolean).join(' ')
  const other = p.file && !p.message.includes(p.file) ? `${p.file}: ` : ''
  return `${where ? `${where}: ` : ''}${other}${p.message}`
}
