// The stage contract (design.md "Units"). A stage is a plain object whose
// `transform` is an async generator over items; the runner wires stages with
// `node:stream/promises` `pipeline`, so backpressure, abort and error propagation come from Node.
import type { AnyItem, Item } from './items.ts'
import type { RecordSpec } from './record.ts'
import type { ItemJournal, MediaStore, RunServices } from './services.ts'

/** Where a stage's options came from, for error messages. */
export interface OptionsSource {
  file: string
  yamlPath: string
  /** Line of the stage's entry (or its options) in the dataset file. */
  line?: number
  /** Line of an option inside the stage's options, by its path there (e.g. ['events', 'padSec']), when the YAML gives one. */
  lineOf?(path: (string | number)[]): number | undefined
}

/** What a stage sees of the run while it transforms one record's stream. */
export interface StageContext<O = unknown> {
  recordId: string
  /** Position of the record in the dataset's list. */
  recordIndex: number
  record: RecordSpec
  /** Every record of the run, in the dataset's order (what a split by case is decided on). */
  records: readonly RecordSpec[]
  options: O
  signal: AbortSignal
  /** Run directory (item paths are relative to it). */
  runDir: string
  /** The record's media folder (media.dir). */
  mediaDir: string
  /** Writes and reads the record's media files (complete under their names when announced). */
  media: MediaStore
  /** Services shared by all records of the run: limiters, the content cache, secrets. */
  run: RunServices
  /** Report a problem that does not stop the record (written to progress.ndjson and the summary). */
  warn(code: string, message: string, data?: Record<string, unknown>): void
  /** An item-level checkpoint store that survives interruption (see src/run/item-journal.ts). */
  journal(name: string): Promise<ItemJournal>
  /**
   * Counts work for live progress (`pipeline tail`): work that has no item of its own yet
   * (render-video's frames, written into a video that becomes an item only when it closes),
   * tokens and cost of model calls.
   */
  count(name: string, n?: number): void
}

/** What a plan check knows of the dataset besides its stages. */
export interface PlannedDataset {
  /**
   * The cases of the records listed (globs expanded): each record's patient.id, else its id. Null
   * when they are not known at load: a run over an earlier run reads that run's records, or the
   * file has other problems.
   */
  cases: readonly string[] | null
}

/** A stage of a dataset as the loader resolved it, for checks across stages. */
export interface PlannedStage {
  name: string
  options: unknown
  /** A stage of this package (a plugin's stage may make or need anything). */
  builtin?: boolean
}

export interface Stage<O = unknown> {
  /** Unique name; equals the file name for built-ins. */
  name: string
  /** Bump when the stage's output changes, so the run manifest tells results apart. */
  version: number | string
  /** Validates and defaults this stage's options; throws PipelineError E_CONFIG_* naming `where`. */
  parseOptions?: (raw: unknown, where: OptionsSource) => O
  /**
   * Checks this stage's options against the other stages of the dataset (`stages[self]` is this
   * one, options parsed) and the dataset's cases, once all are resolved; returns the problems, each a
   * message that names the options involved (the loader adds the file and the stage's place).
   */
  checkPlan?: (stages: readonly PlannedStage[], self: number, dataset: PlannedDataset) => string[]
  /** Receives the record's items; yields what goes downstream (every item it does not handle, unchanged). */
  transform: (source: AsyncIterable<Item>, ctx: StageContext<O>) => AsyncIterable<Item | AnyItem>
}

/** Identity helper that types a stage object (like citty's defineCommand). */
export function defineStage<O = Record<string, unknown>>(stage: Stage<O>): Stage<O> {
  return stage
}

/** Checks that a value has the shape of a stage; returns the missing or wrong part, or null. */
export function describeStageShapeProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return `found ${value === null ? 'null' : typeof value}`
  const s = value as Record<string, unknown>
  if (typeof s.name !== 'string' || s.name.length === 0) return 'found no string "name"'
  if (typeof s.version !== 'number' && typeof s.version !== 'string') return `stage "${s.name}" has no "version" (number or string)`
  if (typeof s.transform !== 'function') return `stage "${s.name}" has no "transform" function`
  if (s.parseOptions !== undefined && typeof s.parseOptions !== 'function') return `stage "${s.name}": "parseOptions" is not a function`
  if (s.checkPlan !== undefined && typeof s.checkPlan !== 'function') return `stage "${s.name}": "checkPlan" is not a function`
  return null
}
