// `readRecord` pushes one record through the built-in `read` stage in process with a hand-made
// StageContext, collecting every item and every ctx.warn call. (`runCli` lives in child.ts.)
import type { AnnotationItem, GapItem, Item, RecordingItem, SampleBlock } from '../../src/core/items.ts'
import type { RecordSpec } from '../../src/core/record.ts'
import type { StageContext } from '../../src/core/stage.ts'
import { guessFormat } from '../../src/formats/recording-name.ts'
import read from '../../src/stages/read.ts'
import type { ReadOptions } from '../../src/readers/read-options.ts'
import { testContext } from './stage-context.ts'

export interface Warning {
  code: string
  message: string
}

/** A record spec as the config would make it (format from the extension, annotator atr). */
export function recordSpec(file: string, extra: Partial<RecordSpec> = {}): RecordSpec {
  return { id: 'rec', path: file, format: guessFormat(file), annotator: 'atr', annotatorExplicit: false, ...extra }
}

/** A StageContext for the read stage; options go through the stage's own parseOptions. */
export function readContext(spec: RecordSpec, rawOptions: Record<string, unknown> = {}, warnings: Warning[] = []): StageContext<ReadOptions> {
  return testContext(read, rawOptions, spec, warnings)
}

export interface ReadResult {
  items: Item[]
  warnings: Warning[]
}

/** Reads a whole record through the read stage (rejects with the stage's error, if any). */
export async function readRecord(spec: RecordSpec, rawOptions: Record<string, unknown> = {}): Promise<ReadResult> {
  const warnings: Warning[] = []
  const items: Item[] = []
  const ctx = readContext(spec, rawOptions, warnings)
  for await (const item of read.transform(empty(), ctx)) items.push(item as Item)
  return { items, warnings }
}

/** Items yielded before the stage failed, and the error (null when it did not fail). */
export async function readUntilError(spec: RecordSpec, rawOptions: Record<string, unknown> = {}): Promise<ReadResult & { error: unknown }> {
  const warnings: Warning[] = []
  const items: Item[] = []
  try {
    for await (const item of read.transform(empty(), readContext(spec, rawOptions, warnings))) items.push(item as Item)
  } catch (error) {
    return { items, warnings, error }
  }
  return { items, warnings, error: null }
}

async function* empty(): AsyncGenerator<Item> {}

export const blocksOf = (items: Item[]) => items.filter((i): i is SampleBlock => i.kind === 'block')
export const annotationsOf = (items: Item[]) => items.filter((i): i is AnnotationItem => i.kind === 'annotation')
export const gapsOf = (items: Item[]) => items.filter((i): i is GapItem => i.kind === 'gap')
export const recordingOf = (items: Item[]) => items.find((i): i is RecordingItem => i.kind === 'recording')!

/** One lead of all blocks, concatenated (tests only: a whole recording in memory). */
export function concatLead(items: Item[], lead: number): Float32Array {
  const blocks = blocksOf(items)
  const out = new Float32Array(blocks.reduce((n, b) => n + b.leads[lead].length, 0))
  let at = 0
  for (const b of blocks) {
    out.set(b.leads[lead], at)
    at += b.leads[lead].length
  }
  return out
}
