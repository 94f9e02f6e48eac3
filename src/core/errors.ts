// One error type for the whole project: a stable code, a message that says what
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
  E_RUN_LOCKED: 34,
  E_ANNOTATION_SIDECAR: 35,
  E_FFMPEG_MISSING: 36,
  E_FFMPEG: 37,
  E_STAGE_FAILED: 38,
  E_INPUT_RUN: 39,
  E_SECRET_MISSING: 40,
  E_WATERMARK: 41,
  E_MODEL_CALL: 42,
  E_MODEL_BUDGET: 43,
  E_MODEL_INPUT: 44,
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
const BRAND = Symbol.for('holter-pipeline.PipelineError')

export class PipelineError extends Error {
  readonly code: ErrorCode
  readonly context: ErrorContext

  /**
   * instanceof by brand, not by class identity: a user's stage plugin may load its own copy of
   * this module (through 'holter-pipeline'), and its errors must still be recognized.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true
  }

  constructor(code: ErrorCode, message: string, context: ErrorContext = {}, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'PipelineError'
    Object.defineProperty(this, BRAND, { value: true })
    this.code = code
    this.context = context
  }

  /**
   * One printable line: `CODE: record R: stage S: file:line: byte N: yaml.path: message`, without
   * repeating what the message's first line already says. A message of several lines (a config
   * file's problems, one per line) keeps them below that line, each indented under it.
   */
  toLine(): string {
    const c = this.context
    const [head, ...rest] = this.message.split('\n')
    const says = (text: string) => head.includes(text)
    const parts: string[] = []
    if (c.recordId) parts.push(`record ${c.recordId}`)
    if (c.stage) parts.push(`stage ${c.stage}`)
    const fileSaid = c.file !== undefined && says(c.file)
    if (c.file && !fileSaid) parts.push(c.line !== undefined ? `${c.file}:${c.line}` : c.file)
    const offsetSaid = c.offset === undefined || says(`byte ${c.offset}`)
    if (!offsetSaid && !fileSaid) parts.push(`byte ${c.offset}`)
    if (c.yamlPath && !says(c.yamlPath)) parts.push(c.yamlPath)
    const suffix = !offsetSaid && fileSaid ? ` (at byte ${c.offset})` : ''
    const below = rest.map((l) => (/^\s/.test(l) ? l : `  ${l}`))
    return [`${this.code}: ${parts.length ? `${parts.join(': ')}: ` : ''}${head}${suffix}`, ...below].join('\n')
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
