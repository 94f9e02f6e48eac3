// Runs one stage over an in-memory list of items (style rule 11, "stage" layer) with a context
// that records warnings; options go through the stage's own parseOptions.
import os from 'node:os'
import path from 'node:path'
import type { Item } from '../../src/core/items.ts'
import type { Stage, StageContext } from '../../src/core/stage.ts'
import type { RecordSpec } from '../../src/core/record.ts'
import { openItemJournal } from '../../src/run/item-journal.ts'
import { localStageContext } from '../../src/run/local-context.ts'

export interface StageRun {
  items: Item[]
  warnings: { code: string; message: string }[]
}

/** A stage context for tests: media under `runDir`/media/<recordId>/ (default: a folder of this process under the system's temporary folder). */
export function testContext<O>(stage: Stage<O>, rawOptions: unknown, record: RecordSpec, warnings: StageRun['warnings'], signal = new AbortController().signal, runDir = path.join(os.tmpdir(), `hp-stage-${process.pid}`)): StageContext<O> {
  const options = stage.parseOptions ? stage.parseOptions(rawOptions ?? {}, { file: 'test.yaml', yamlPath: 'stages[0].options' }) : (rawOptions as O)
  const ctx = localStageContext(record, options, { signal, warn: (code, message) => warnings.push({ code, message }), what: 'a stage test', runDir, mediaDir: path.join(runDir, 'media', record.id) })
  return { ...ctx, journal: (name) => openItemJournal(runDir, name) }
}

/** Runs `stage` over `input` and collects what it yields. */
export async function runStage<O>(stage: Stage<O>, input: Iterable<Item> | AsyncIterable<Item>, opts: { options?: unknown; record?: RecordSpec } = {}): Promise<StageRun> {
  const warnings: StageRun['warnings'] = []
  const ctx = testContext(stage, opts.options, opts.record ?? { id: 'rec', path: 'none', format: 'wfdb', annotator: false, annotatorExplicit: false }, warnings)
  const items: Item[] = []
  async function* source() {
    yield* input as AsyncIterable<Item>
  }
  for await (const item of stage.transform(source(), ctx)) items.push(item as Item)
  return { items, warnings }
}
