// The dataset file's schema (zod, strict: an unknown key is an error that lists the allowed keys).
// Stage options are left open here: each stage validates its own options.
import { z } from 'zod'
import type { RecordSpec } from '../core/record.ts'

export type { RecordSpec }

const leadSelector = z.union([z.string().min(1), z.number().int().min(0)])
const onePath = z.union([z.string().min(1), z.number()]).transform(String)

// An id names folders (.parts/<id>, media/<id>), so not only dots: ".." would climb out. A
// number is taken as text (WFDB records and Icentia11k patients are named by number).
const idText = z.union([z.string(), z.number().int().min(0)]).transform(String).pipe(z.string().regex(/^(?!\.+$)[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" and "-" only, not only dots'))

const patientSchema = z.strictObject({
  /** The case: records of one person share it (Icentia11k's segments of one patient); default: the record's id (caseIdOf). */
  id: idText.optional(),
  age: z.number().int().min(0).max(130).optional(),
  sex: z.enum(['M', 'F']).optional(),
  history: z.string().optional(),
})

// The fields that make sense for many records at once: a glob's defaults (not id, which names one record).
const recordDefaults = {
  format: z.enum(['edf', 'wfdb']).optional(),
  leads: z.array(leadSelector).min(1).optional(),
  /** WFDB annotator extension (e.g. atr, qrs); false to skip reference annotations. */
  annotator: z.union([z.string().regex(/^[A-Za-z0-9_]+$/), z.literal(false)]).optional(),
  patient: patientSchema.optional(),
}

export const recordSchema = z.strictObject({
  /** Stable id used in every item and output; defaults to the file's base name. */
  id: idText.optional(),
  /** A number is taken as text: WFDB records are often named by number (path: 100). A list
   * names the consecutive parts of one recording (Icentia11k's segments), read as one record. */
  path: z.union([onePath, z.array(onePath).min(1)]),
  ...recordDefaults,
})

/** Records by pattern (relative to the dataset file; "!" patterns exclude), each match one record, with defaults for all of them. */
export const globSchema = z.strictObject({
  glob: z.union([z.string().min(1, 'a glob pattern cannot be empty'), z.array(z.string().min(1, 'a glob pattern cannot be empty')).min(1, 'give at least one glob pattern')]),
  ...recordDefaults,
})

// Which branch an entry is, is told by its keys (glob or path): dataset-issues reports the
// problems of that branch only, not the union's.
export const recordEntry = z.union([recordSchema, globSchema])

export const stageEntry = z.union([
  z.string().min(1),
  z.strictObject({
    use: z.string().min(1),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
])

export const datasetSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" and "-" only').optional(),
  out: z.string().min(1).optional(),
  concurrency: z.strictObject({ records: z.number().int().min(1).max(64).optional() }).optional(),
  /** The recordings to read (a list of records and globs, or one glob); or, with `input`, none: the records are an earlier run's. */
  records: z.union([z.array(recordEntry).min(1), globSchema]).optional(),
  /** An earlier run to read instead of recordings: its directory and the item kinds to stream from it. */
  input: z.strictObject({ run: z.string().min(1), kinds: z.array(z.string().regex(/^[a-z][a-z0-9_-]*$/, 'an item kind: lower-case letters, digits, "-" and "_"')).min(1) }).optional(),
  /** The content cache's folder (model answers...), relative to the dataset file; default <runDir>/cache. */
  cache: z.string().min(1).optional(),
  stages: z.array(stageEntry).min(1),
  output: z
    .strictObject({
      /** Item kinds never written (default: block, the raw sample stream). */
      exclude: z.array(z.string()).optional(),
      /** Decimals kept when typed arrays (window samples) are written (default 4: 0.1 uV in mV). */
      decimals: z.number().int().min(0).max(9).optional(),
    })
    .optional(),
})

export type RawDataset = z.infer<typeof datasetSchema>

/** A stage entry after parsing: what to load and its raw options, with where it was written. */
export interface StageEntry {
  use: string
  options: Record<string, unknown>
  yamlPath: string
  /** Line of the entry in the dataset file, for messages. */
  line?: number
  /** Line of each key and item inside `options`, by its path there (`events.labels[0]`), for the stage's own option messages. */
  optionLines?: Record<string, number>
}

/** The validated dataset: everything the runner needs, paths absolute. */
export interface Dataset {
  file: string
  name: string
  out: string
  concurrency: { records: number }
  records: RecordSpec[]
  stages: StageEntry[]
  output: { exclude: string[]; decimals: number }
  /** An earlier run this one reads instead of recordings (its directory absolute); records then come from it. */
  input?: { run: string; kinds: string[] }
  /** The content cache's folder (absolute); default <runDir>/cache. */
  cache?: string
}
