// Numeric flags, checked as strictly as the dataset file's values but in flag terms. yargs'
// `type: 'number'` lets 0 and negatives through and turns "abc" into NaN, so every numeric flag
// goes through numberFlag; the message quotes what was typed, which is read again from the raw
// arguments (the parsed value NaN has lost it).
import { Parser } from 'yargs/helpers'
import { PipelineError } from '../core/errors.ts'

/** What a numeric flag allows. */
export interface NumberRule {
  /** Said in the message, e.g. "a positive number of seconds". */
  expected: string
  ok(n: number): boolean
  /** A good value, shown as what to do. */
  example: number
}

/** A number > 0 of `unit`. */
export const positive = (unit: string, example: number): NumberRule => ({ expected: `a positive number of ${unit}`, ok: (n) => n > 0, example })

/** A number >= 0 of `unit`. */
export const atLeastZero = (unit: string, example: number): NumberRule => ({ expected: `a number of ${unit} >= 0`, ok: (n) => n >= 0, example })

/** An integer in [min, max]. */
export const integerIn = (min: number, max: number, example: number): NumberRule => ({ expected: `an integer from ${min} to ${max}`, ok: (n) => Number.isInteger(n) && n >= min && n <= max, example })

/** The value of `flag` (e.g. "--window") checked against `rule`; undefined when the flag was not given. */
export function numberFlag(args: readonly string[], flag: string, value: unknown, rule: NumberRule): number | undefined {
  if (value === undefined) return undefined
  const name = flag.replace(/^-+/, '')
  if (Array.isArray(value)) throw new PipelineError('E_USAGE', `${flag} was given ${value.length} times; give it once`, { field: name })
  if (typeof value === 'number' && Number.isFinite(value) && rule.ok(value)) return value
  const typed = typedValue(args, name) ?? String(value)
  const found = typed.trim() !== '' && Number(typed) === value ? typed : JSON.stringify(typed)
  throw new PipelineError('E_USAGE', `${flag}: expected ${rule.expected}, found ${found}; give for example ${flag} ${rule.example}`, { field: name })
}

/** The text typed for `--name` (its last occurrence), or undefined. */
function typedValue(args: readonly string[], name: string): string | undefined {
  const parsed = Parser([...args], { string: [name] })[name] as unknown
  const last = Array.isArray(parsed) ? parsed.at(-1) : parsed
  return typeof last === 'string' ? last : undefined
}
