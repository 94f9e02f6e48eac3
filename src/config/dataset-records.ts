// The `records:` list after the schema: globs expanded (dataset-glob.ts), paths resolved against
// the dataset's folder, ids and formats defaulted, and the checks that span records. A recording
// file listed twice (in two records, whatever their ids, twice among one record's parts, or by a
// glob and by name) is refused: it is almost always a copy-paste slip, and its outputs would be
// written twice under two ids.
import path from 'node:path'
import type { z } from 'zod'
import { PipelineError } from '../core/errors.ts'
import type { RecordSpec } from '../core/record.ts'
import { guessFormat, recordingName } from '../formats/recording-name.ts'
import { expandGlob } from './dataset-glob.ts'
import { globSchema, recordSchema } from './dataset-schema.ts'
import { formatPath, type Segments } from './yaml-lines.ts'

export type RawRecord = z.infer<typeof recordSchema>
export type RawGlob = z.infer<typeof globSchema>

interface Seen {
  yamlPath: string
  line?: number
  /** For a globbed record: the file it matched, relative to the dataset folder. */
  matched?: string
}

/** A record or glob to check: `segs` is where it is in the file; `whole` is false when only some of its fields are valid. */
export interface RecordAt {
  value: RawRecord | RawGlob
  segs: Segments
  whole: boolean
}

// One record to add: its fields, its files, and where each of them was written.
interface Candidate {
  fields: Omit<RawRecord, 'path'>
  list: string[]
  all: string[]
  pathAt: (j: number) => Seen
  at: Seen
  whole: boolean
}

/**
 * The records of a `records:` value (a list of records and globs, or one glob), for the checks
 * across records even when some have their own problems (reported by the schema): an entry that
 * fails keeps its valid fields if its path (or glob) is one.
 */
export function recordsToCheck(records: unknown): RecordAt[] {
  if (isGlob(records)) return toCheck(records, ['records'])
  if (!Array.isArray(records)) return []
  return records.flatMap((item: unknown, index) => toCheck(item, ['records', index]))
}

function toCheck(item: unknown, segs: Segments): RecordAt[] {
  const schema = isGlob(item) ? globSchema : recordSchema
  const parsed = schema.safeParse(item)
  if (parsed.success) return [{ value: parsed.data, segs, whole: true }]
  if (!item || typeof item !== 'object') return []
  const valid = Object.entries(schema.shape).flatMap(([key, field]) => {
    const r = field.safeParse((item as Record<string, unknown>)[key])
    return r.success && r.data !== undefined ? [[key, r.data] as const] : []
  })
  const value = Object.fromEntries(valid) as RawRecord | RawGlob
  return ('glob' in value ? value.glob : value.path) === undefined ? [] : [{ value, segs, whole: false }]
}

function isGlob(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && 'glob' in v
}

/** Normalizes the records and collects the problems across them (a glob's patterns, a file listed twice, a duplicate id, parts of mixed formats). */
export function normalizeRecords(items: RecordAt[], dir: string, file: string, lineAt: (segs: Segments) => number | undefined): { records: RecordSpec[]; problems: PipelineError[] } {
  const problems: PipelineError[] = []
  const seen = (segs: Segments, matched?: string): Seen => ({ yamlPath: formatPath(segs), line: lineAt(segs), ...(matched ? { matched } : {}) })
  const candidates = items.flatMap(({ value, segs, whole }): Candidate[] => {
    if ('glob' in value) {
      const { glob, ...fields } = value
      const found = expandGlob(glob, segs, dir, file, lineAt)
      problems.push(...found.problems)
      return found.matches.map((m) => ({ fields, list: [m.source], all: [m.path], pathAt: () => seen(m.segs, m.source), at: seen(m.segs, m.source), whole }))
    }
    const { path: p, ...fields } = value
    const list = Array.isArray(p) ? p : [p]
    const pathAt = (j: number) => seen(Array.isArray(p) ? [...segs, 'path', j] : [...segs, 'path'])
    return [{ fields, list, all: list.map((x) => path.resolve(dir, x)), pathAt, at: seen(segs), whole }]
  })
  const ids = new Map<string, Seen>()
  const files = new Map<string, Seen>()
  const records = candidates.map(({ fields: r, list, all, pathAt, at, whole }): RecordSpec => {
    const abs = all[0]
    const id = r.id ?? recordingName(abs)
    const format = r.format ?? guessFormat(abs)
    const odd = all.findIndex((p) => (r.format ?? guessFormat(p)) !== format)
    if (odd > 0) {
      problems.push(new PipelineError('E_CONFIG_VALUE', `the parts of one record must share a format: part ${odd} (${path.basename(all[odd])}) is not ${format} like part 0; list only EDF files or only WFDB records, or make them separate records`, { file, ...pathAt(odd) }))
    }
    let listedTwice = false
    all.forEach((p, j) => {
      const { matched, ...here } = pathAt(j)
      // A WFDB record is named with or without its .hea: both are the same files.
      const key = format === 'wfdb' ? p.replace(/\.hea$/i, '') : p
      const first = files.get(key)
      if (!first) return void files.set(key, { ...here, ...(matched ? { matched } : {}) })
      listedTwice = true
      const hint = matched || first.matched ? ': leave it out of the glob (a "!" pattern) or drop the other entry' : ''
      problems.push(new PipelineError('E_CONFIG_VALUE', `recording ${key} is also ${first.matched ? 'matched by' : 'listed at'} ${placeOf(first)}: reading it twice would write its outputs twice, under two record ids; list each recording once${hint}`, { file, ...here }))
    })
    // The same file under the same default id is reported once, as the file listed twice; a
    // record with an invalid id has no id to compare.
    if (!whole) return { id, path: abs, source: list[0], format, annotator: 'atr', annotatorExplicit: false }
    const first = ids.get(id)
    if (first && !listedTwice) problems.push(duplicateId(id, at, first, file))
    if (!first) ids.set(id, at)
    return { id, path: abs, ...(all.length > 1 ? { parts: all } : {}), source: list[0], format, leads: r.leads, annotator: r.annotator ?? 'atr', annotatorExplicit: r.annotator !== undefined, ...(r.patient ? { patient: { ...r.patient } } : {}) }
  })
  return { records, problems }
}

function placeOf(s: Seen): string {
  return `${s.yamlPath}${s.line !== undefined ? ` (line ${s.line})` : ''}`
}

// A globbed record is named by its file: the fix is an explicit id on the record listed by
// path, or, when both were globbed, listing one of them by path with an id of its own.
function duplicateId(id: string, here: Seen, first: Seen, file: string): PipelineError {
  const { matched, ...where } = here
  if (!matched && !first.matched) return new PipelineError('E_CONFIG_VALUE', `duplicate record id "${id}" (also ${first.yamlPath}); give one of them an explicit "id"`, { file, ...where })
  const fix = !matched ? 'give this record an explicit "id"' : !first.matched ? `give ${first.yamlPath} an explicit "id"` : `list one of them as {path: ${matched}, id: <another id>} and leave it out of its glob with a "!" pattern`
  return new PipelineError('E_CONFIG_VALUE', `duplicate record id "${id}"${matched ? ` for ${matched}` : ''} (also ${first.matched ? `${first.matched}, matched by ` : ''}${placeOf(first)}): a globbed record's id is its file's base name, so files of the same name in two folders get the same id; ${fix}`, { file, ...where })
}
