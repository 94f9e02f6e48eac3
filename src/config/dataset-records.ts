// The `records:` list after the schema: paths resolved against the dataset's folder, ids and
// formats defaulted, and the checks that span records. A recording file listed twice (in two
// records, whatever their ids, or twice among one record's parts) is refused: it is almost
// always a copy-paste slip, and its outputs would be written twice under two ids.
import path from 'node:path'
import type { z } from 'zod'
import { PipelineError } from '../core/errors.ts'
import type { RecordSpec } from '../core/record.ts'
import { guessFormat, recordingName } from '../formats/recording-name.ts'
import { recordSchema } from './dataset-schema.ts'
import type { Segments } from './yaml-lines.ts'

export type RawRecord = z.infer<typeof recordSchema>

interface Seen {
  yamlPath: string
  line?: number
}

/** A record to check: `index` is its position in the file; `whole` is false when only some of its fields are valid. */
export interface RecordAt {
  value: RawRecord
  index: number
  whole: boolean
}

/**
 * The records of a `records:` list, for the checks across records even when some have their own
 * problems (reported by the schema): a record that fails keeps its valid fields if its path is one.
 */
export function recordsToCheck(list: unknown): RecordAt[] {
  if (!Array.isArray(list)) return []
  return list.flatMap((item: unknown, index): RecordAt[] => {
    const parsed = recordSchema.safeParse(item)
    if (parsed.success) return [{ value: parsed.data, index, whole: true }]
    if (!item || typeof item !== 'object') return []
    const valid = Object.entries(recordSchema.shape).flatMap(([key, schema]) => {
      const field = schema.safeParse((item as Record<string, unknown>)[key])
      return field.success && field.data !== undefined ? [[key, field.data] as const] : []
    })
    const value = Object.fromEntries(valid) as RawRecord
    return value.path === undefined ? [] : [{ value, index, whole: false }]
  })
}

/** Normalizes the records and collects the problems across them (a file listed twice, a duplicate id, parts of mixed formats). */
export function normalizeRecords(items: RecordAt[], dir: string, file: string, lineAt: (segs: Segments) => number | undefined): { records: RecordSpec[]; problems: PipelineError[] } {
  const problems: PipelineError[] = []
  const ids = new Map<string, number>()
  const files = new Map<string, Seen>()
  const records = items.map(({ value: r, index: i, whole }): RecordSpec => {
    const list = Array.isArray(r.path) ? r.path : [r.path]
    const all = list.map((p) => path.resolve(dir, p))
    const abs = all[0]
    const id = r.id ?? recordingName(abs)
    const format = r.format ?? guessFormat(abs)
    const odd = all.findIndex((p) => (r.format ?? guessFormat(p)) !== format)
    if (odd > 0) {
      problems.push(new PipelineError('E_CONFIG_VALUE', `the parts of one record must share a format: part ${odd} (${path.basename(all[odd])}) is not ${format} like part 0; list only EDF files or only WFDB records, or make them separate records`, { file, yamlPath: `records[${i}].path[${odd}]`, line: lineAt(['records', i, 'path', odd]) }))
    }
    let listedTwice = false
    all.forEach((p, j) => {
      const segs: Segments = Array.isArray(r.path) ? ['records', i, 'path', j] : ['records', i, 'path']
      const here: Seen = { yamlPath: Array.isArray(r.path) ? `records[${i}].path[${j}]` : `records[${i}].path`, line: lineAt(segs) }
      // A WFDB record is named with or without its .hea: both are the same files.
      const key = format === 'wfdb' ? p.replace(/\.hea$/i, '') : p
      const first = files.get(key)
      if (!first) return void files.set(key, here)
      listedTwice = true
      const at = `${first.yamlPath}${first.line !== undefined ? ` (line ${first.line})` : ''}`
      problems.push(new PipelineError('E_CONFIG_VALUE', `recording ${key} is also listed at ${at}: reading it twice would write its outputs twice, under two record ids; list each recording once`, { file, ...here }))
    })
    // The same file under the same default id is reported once, as the file listed twice; a
    // record with an invalid id has no id to compare.
    if (!whole) return { id, path: abs, source: list[0], format, annotator: 'atr', annotatorExplicit: false }
    if (ids.has(id) && !listedTwice) {
      problems.push(new PipelineError('E_CONFIG_VALUE', `duplicate record id "${id}" (also records[${ids.get(id)}]); give one of them an explicit "id"`, { file, yamlPath: `records[${i}]`, line: lineAt(['records', i]) }))
    }
    if (!ids.has(id)) ids.set(id, i)
    const source = list[0]
    return { id, path: abs, ...(all.length > 1 ? { parts: all } : {}), source, format, leads: r.leads, annotator: r.annotator ?? 'atr', annotatorExplicit: r.annotator !== undefined, patient: r.patient }
  })
  return { records, problems }
}
