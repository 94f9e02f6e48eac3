// One error type for the whole project (style rule 5): a stable code, a message that says what
// was expected, what was found and what to do, a context object (file, field, offset, yaml
// path, record, stage...) and the original cause. Only src/cli.ts maps codes to exit codes.

/** Every error code the project raises, with the process exit code the CLI uses for it. */
export const ERROR_CODES = {
  E_USAGE: 2,
  E_INTERNAL: 70,
  E_FILE_MISSING: 10,
  E_NOT_EDF: 11,
  E_EDF_HEADER_SHORT: 12,
  E_EDF_HEADER_FIELD: 13,
  E_EDF_DIGITAL_RANGE: 14,
  E_EDF_RECORD_DURATION: 15,
  E_TRUNCATED: 16,
  E_NO_ECG: 17,
  E_WFDB_DAT_MISSING: 18,
  E_WFDB_FORMAT: 19,
  E_WFDB_HEADER: 20,
  E_CONFIG_YAML: 21,
  E_CONFIG_KEY: 22,
  E_CONFIG_VALUE: 23,
  E_STAGE_UNKNOWN: 24,
  E_PLUGIN: 25,
  E_CONFIG_CHANGED: 26,
  E_RECORDS_FAILED: 27,
  E_EDF_ANNOTATION: 28,
  E_WFDB_ANNOTATION: 29,
  E_LEAD_SELECT: 30,
  E_CHECKPOINT: 31,
  E_STAGE_OUTPUT: 32,
  E_IO: 33,
  E_INTERRUPTED: 130,
} as const

export type ErrorCode = keyof typeof ERROR_CODES

/** Where an error happened; every field optional, all printable. */
export interface ErrorContext {
  file?: string
  field?: string
  offset?: number
  line?: number
  yamlPath?: string
  recordId?: string
  stage?: string
  [key: string]: unknown
}

/** The project's only error class: `code` is stable, `context` says where, `cause` keeps the original. */
export class PipelineError extends Error {
  readonly code: ErrorCode
  readonly context: ErrorContext

  constructor(code: ErrorCode, message: string, context: ErrorContext = {}, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'PipelineError'
    this.code = code
    this.context = context
  }

  /** One printable line: `file: offset N: message` plus stage and record when the runner added them. */
  toLine(): string {
    const c = this.context
    const where: string[] = []
    // Format modules often start their message with the file name already; do not repeat it.
    if (c.file && !this.message.startsWith(`${c.file}:`)) where.push(c.line !== undefined ? `${c.file}:${c.line}` : c.file)
    if (c.offset !== undefined) where.push(`byte ${c.offset}`)
    if (c.yamlPath) where.push(c.yamlPath)
    const who: string[] = []
    if (c.recordId) who.push(`record ${c.recordId}`)
    if (c.stage) who.push(`stage ${c.stage}`)
    const prefix = [...who, ...where].join(': ')
    return `${this.code}: ${prefix ? `${prefix}: ` : ''}${this.message}`
  }
}

/** Adds context (record, stage) to a PipelineError, or wraps a foreign error, keeping the cause. */
export function withContext(err: unknown, context: ErrorContext): PipelineError {
  if (err instanceof PipelineError) {
    const merged = { ...context, ...err.context }
    return Object.assign(new PipelineError(err.code, err.message, merged, { cause: err.cause }), { stack: err.stack })
  }
  const message = err instanceof Error ? err.message : String(err)
  return new PipelineError('E_INTERNAL', message, context, { cause: err })
}

/** True for the error an AbortSignal produces, whichever way it surfaced. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR')
}
