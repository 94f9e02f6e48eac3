// The config hash that tells a run directory's results apart: sha256 over the dataset's
// normalized content (records, stages with their versions and plugin source hashes, output
// settings) in a canonical key order, so whitespace, comments and key order do not count.
import { createHash } from 'node:crypto'
import type { Dataset } from '../config/dataset-schema.ts'
import type { ResolvedStage } from '../config/plugins.ts'

/**
 * The part of a dataset that decides what the outputs hold. A run over an earlier run names that
 * run (its directory, config hash and the kinds read) instead of its records.
 */
export function configForHash(dataset: Dataset, stages: ResolvedStage[], input?: { run: string; configHash: string; kinds: string[] }): unknown {
  return {
    ...(input ? { input } : { records: dataset.records }),
    stages: stages.map((s) => ({ name: s.stage.name, version: s.stage.version, sourceHash: s.sourceHash ?? null, options: s.options ?? null })),
    output: dataset.output,
  }
}

/** sha256 hex of a JSON value with object keys sorted. */
export function hashConfig(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex')
}

/** JSON of a value with object keys sorted and undefined keys dropped (the form hashes are taken of). */
export function canonicalJson(value: unknown): string {
  // toJSON first, as JSON.stringify does (a Date's text; a Secret refuses), so two different
  // values never hash alike as {}; objects that are not plain data are refused, not emptied.
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') value = (value as { toJSON(): unknown }).toJSON()
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    if (value instanceof Map || value instanceof Set || value instanceof RegExp || value instanceof Promise || ArrayBuffer.isView(value)) {
      throw new TypeError(`cannot hash a ${value.constructor.name}: make the value plain data (objects, arrays, strings, numbers)`)
    }
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value ?? null)
}
