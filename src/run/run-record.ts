// One record's stream: an empty source, the configured stages in order, and the record sink,
// wired by `node:stream/promises` `pipeline` with the run's AbortSignal. Pipeline pulls items
// through the async generators one at a time, so a slow sink slows the reader (backpressure)
// and the items in flight stay bounded whatever the recording's length.
import { pipeline } from 'node:stream/promises'
import path from 'node:path'
import { isAbortError, withContext } from '../core/errors.ts'
import type { Item } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import type { ResolvedStage } from '../config/plugins.ts'
import type { StageContext } from '../core/stage.ts'
import type { ItemJournal } from './item-journal.ts'
import { createRecordSink } from '../sinks/record-sink.ts'

export interface RecordRunEnv {
  runDir: string
  stages: ResolvedStage[]
  exclude: ReadonlySet<string>
  decimals: number
  signal: AbortSignal
  warn(recordId: string, code: string, message: string): void
  journal(name: string): Promise<ItemJournal>
  /** Called about once per `progressMs` (at the first item after each tick of a timer) with the signal seconds and item counts so far. */
  progress(recordId: string, seconds: number, items: Record<string, number>): void
  progressMs?: number
}

export interface RecordRunResult {
  partsDir: string
  counts: Record<string, number>
  seconds: number
}

/** Streams one record through every stage into its part files. */
export async function runRecord(record: RecordSpec, index: number, env: RecordRunEnv): Promise<RecordRunResult> {
  const partsDir = path.join(env.runDir, '.parts', record.id)
  const mediaDir = path.join(env.runDir, 'media', record.id)
  let seconds = 0
  const live: Record<string, number> = {}
  // A timer marks when progress is due, so the items themselves never read the clock (a
  // Date.now() per beat cost 25 ms of the 24 h benchmark's main thread).
  let due = true
  const onItem = (item: Item) => {
    live[item.kind] = (live[item.kind] ?? 0) + 1
    if (item.kind === 'block') {
      const b = item as Extract<Item, { kind: 'block' }>
      seconds += (b.leads[0]?.length ?? 0) / b.fs
    }
    if (due) {
      due = false
      env.progress(record.id, seconds, written(live, env.exclude))
    }
  }
  const count = (name: string, n = 1) => {
    live[name] = (live[name] ?? 0) + n
  }
  const transforms = stageTransforms(record, index, env.stages, { signal: env.signal, runDir: env.runDir, mediaDir, warn: (code, message) => env.warn(record.id, code, message), journal: env.journal, count })
  const sink = createRecordSink({ partsDir, exclude: env.exclude, decimals: env.decimals, onItem })
  const clock = setInterval(() => (due = true), env.progressMs ?? 250)
  clock.unref()
  try {
    const result = await (pipeline as (...args: unknown[]) => Promise<{ counts: Record<string, number> }>)(
      emptySource,
      ...transforms,
      sink,
      { signal: env.signal },
    )
    return { partsDir, counts: result.counts, seconds }
  } catch (err) {
    throw isAbortError(err) ? err : withContext(err, { recordId: record.id })
  } finally {
    clearInterval(clock)
  }
}

/** What every stage of one record shares in its context. */
export type SharedContext = Pick<StageContext, 'signal' | 'runDir' | 'mediaDir' | 'warn' | 'journal' | 'count'>

/** The stages of one record as transforms, each with its context and errors tagged with its name. */
export function stageTransforms(record: RecordSpec, index: number, stages: ResolvedStage[], shared: SharedContext) {
  return stages.map((s) => {
    const ctx: StageContext = { recordId: record.id, recordIndex: index, record, options: s.options, ...shared }
    return (source: AsyncIterable<Item>) => tagErrors(s.stage.name, s.stage.transform(source, ctx))
  })
}

/**
 * Streams one record through `stages` into `consume` (the sink), outside a run directory;
 * `mediaDirs[i]`, when given, is stage i's media folder instead of shared.mediaDir (`pipeline
 * render` writes each modality where its flag says).
 */
export async function streamRecord<T>(record: RecordSpec, stages: ResolvedStage[], shared: SharedContext, consume: (items: AsyncIterable<Item>) => Promise<T>, mediaDirs: (string | undefined)[] = []): Promise<T> {
  const transforms = stages.flatMap((s, i) => stageTransforms(record, 0, [s], { ...shared, mediaDir: mediaDirs[i] ?? shared.mediaDir }))
  try {
    return await (pipeline as (...args: unknown[]) => Promise<T>)(emptySource, ...transforms, consume, { signal: shared.signal })
  } catch (err) {
    throw isAbortError(err) ? err : withContext(err, { recordId: record.id })
  }
}

async function* emptySource(): AsyncGenerator<Item> {}

/**
 * Names the stage in an error thrown inside it (the innermost stage's name wins). A plain
 * iterator rather than an async generator with `yield*`: every item of every stage passes here.
 * In a microbenchmark of 500,000 items through 5 pass-through stages, the generator wrappers
 * took 3-4 us per item and these 2-3 us, against 2 us with no wrapper at all.
 */
function tagErrors(stage: string, items: AsyncIterable<Item>): AsyncIterable<Item> {
  const tag = (err: unknown): never => {
    throw isAbortError(err) ? err : withContext(err, { stage })
  }
  return {
    [Symbol.asyncIterator]() {
      const it = items[Symbol.asyncIterator]()
      return {
        next: () => it.next().catch(tag),
        return: (value?: unknown) => (it.return ? it.return(value).catch(tag) : Promise.resolve({ done: true as const, value: undefined })),
      }
    },
  }
}

function written(counts: Record<string, number>, exclude: ReadonlySet<string>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [k, n] of Object.entries(counts)) if (!exclude.has(k)) out[k] = n
  return out
}
