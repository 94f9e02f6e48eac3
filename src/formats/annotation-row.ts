// One row of a reference-annotation sidecar, the same for CSV and JSON. A row names its
// `symbol` (MIT mnemonic: N, V, A, +, ~, ...), optionally its `aux` text ("(AFIB" for a rhythm
// change) and its position as `sample` (an index at the recording's rate), `time_ms` or `time_s`
// (from the recording's start): at least one per row. `sample` places the annotation when given;
// a time then only supplies timeMs. Other fields (`is_beat`, ...) are ignored: whether a row is a
// beat follows from its symbol, as for embedded annotations. Empty, null and absent are alike.
import { PipelineError, type ErrorCode } from '../core/errors.ts'

/** The code of every malformed-sidecar error. */
export const SIDECAR_ERROR: ErrorCode = 'E_ANNOTATION_SIDECAR'

/** A sidecar row: at least one of sample and timeMs is set. */
export interface SidecarRow {
  /** 1-based line where the row starts, for messages. */
  line: number
  sample: number | null
  timeMs: number | null
  symbol: string
  aux: string
}

/** A live parser of one sidecar file: push decoded text in file order, then call end(). */
export interface SidecarParser {
  push(text: string): SidecarRow[]
  end(): SidecarRow[]
}

export const POSITION_FIELDS = ['sample', 'time_ms', 'time_s'] as const

/** Longest row (or unclosed value) a parser holds before it gives up: a sidecar row is ~30 characters. */
export const MAX_ROW_CHARS = 64 * 1024

/** A PipelineError for `file:line`, the message saying what was expected, found and how to fix it. */
export function sidecarError(file: string, line: number, field: string | undefined, message: string, cause?: unknown): PipelineError {
  return new PipelineError(SIDECAR_ERROR, `${file}:${line}: ${message}`, { file, line, ...(field ? { field } : {}) }, cause === undefined ? undefined : { cause })
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** Builds a row from named values (CSV strings or JSON values). */
export function parseSidecarRow(get: (name: string) => unknown, file: string, line: number): SidecarRow {
  const sample = numberOf(get('sample'), 'sample', file, line)
  if (sample !== null && !(Number.isSafeInteger(sample) && sample >= 0)) {
    throw sidecarError(file, line, 'sample', `field "sample": expected a whole number >= 0 (a sample index at the recording's rate), found ${show(get('sample'))}; correct it, or leave it empty and give time_ms`)
  }
  const ms = numberOf(get('time_ms'), 'time_ms', file, line)
  const s = ms === null ? numberOf(get('time_s'), 'time_s', file, line) : null
  const timeMs = ms ?? (s === null ? null : Math.round(s * 1e6) / 1e3)
  if (timeMs !== null && timeMs < 0) {
    const field = ms === null ? 'time_s' : 'time_ms'
    throw sidecarError(file, line, field, `field "${field}": expected a time >= 0 from the start of the recording, found ${show(get(field))}; correct the time`)
  }
  if (sample === null && timeMs === null) {
    throw sidecarError(file, line, 'sample', `expected a position in "sample", "time_ms" or "time_s", found none; fill in one of them`)
  }
  const symbol = textOf(get('symbol'), 'symbol', file, line).trim()
  if (symbol === '') throw sidecarError(file, line, 'symbol', `field "symbol": expected an annotation symbol (MIT mnemonic such as N, V, A or +), found none; fill it in or delete the row`)
  return { line, sample, timeMs, symbol, aux: textOf(get('aux'), 'aux', file, line) }
}

function numberOf(v: unknown, field: string, file: string, line: number): number | null {
  if (v === undefined || v === null || v === '') return null
  if (typeof v === 'number' && Number.isFinite(v)) return v
  if (typeof v === 'string') {
    const t = v.trim()
    if (t === '') return null
    if (DECIMAL.test(t)) return Number(t)
  }
  throw sidecarError(file, line, field, `field "${field}": expected a number, found ${show(v)}; write it as a plain decimal number (e.g. 1027.778) or leave it empty`)
}

function textOf(v: unknown, field: string, file: string, line: number): string {
  if (v === undefined || v === null) return ''
  if (typeof v === 'string') return v
  throw sidecarError(file, line, field, `field "${field}": expected text, found ${show(v)}; write it as a string`)
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 40 ? `${s.slice(0, 40)}...` : s
}
