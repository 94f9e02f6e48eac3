// One record's stream: an empty source, the configured stages in order, and the record sink,
// wired by `node:stream/promises` `pipeline` with the run's AbortSignal. Pipeline pulls items
// through the async generators one at a time, so a slow sink slows the reader (backpressure)
// and the items in flight stay bounded whatever the recording's length. The record's media
// folder starts empty (what an unfinished attempt left is removed) and is removed again when
// the record fails, so no file is left without the committed item that names it.
import { pipeline } from 'node:stream/promises'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { isAbortError, PipelineError, withContext } from '../core/errors.ts'
import type { Item } from '../core/items.ts'
import { watermark } from '../core/watermark.ts'
import type { RecordSpec } from '../core/record.ts'
import type { ItemJournal, RunServices } from '../core/services.ts'
import type { StageContext } from '../core/stage.ts'
import type { ResolvedStage } from '../config/plugins.ts'
import { createRecordSink } from '../sinks/record-sink.ts'
import { createMediaStore, type OwnedMediaStore } from '../sinks/media-store.ts'

export interface RecordRunEnv {
  runDir: string
  /** Every record of the run (ctx.records). */
  records: readonly RecordSpec[]
  stages: ResolvedStage[]
  exclude: ReadonlySet<string>
  decimals: number
  signal: AbortSignal
  services: RunServices
  warn(recordId: string, code: string, message: string): void
  journal(name: string): Promise<ItemJournal>
  /** Called about once per `progressMs` (at the first item after each tick of a timer) with the signal seconds and item counts so far. */
  progress(recordId: string, seconds: number, items: Record<string, number>): void
  progressMs?: number
  /** The signal seconds a record stands for when its stream holds no block or window (a run over QA items): the input run's. */
  inputSeconds?(index: number): number
}

export interface RecordRunResult {
  partsDir: string
  counts: Record<string, number>
  /** What the stages counted (ctx.count): work with no item of its own, model calls and tokens. */
  work: Record<string, number>
  seconds: number
}

/** Streams one record through every stage into its part files. */
export async function runRecord(record: RecordSpec, index: number, env: RecordRunEnv): Promise<RecordRunResult> {
  const partsDir = path.join(env.runDir, '.parts', record.id)
  const mediaDir = path.join(env.runDir, 'media', record.id)
  await rm(mediaDir, { recursive: true, force: true })
  let seconds = 0
  let windowEnd = 0 // a run over an earlier run has windows, not blocks: they tell the signal's length
  let items = 0
  const live: Record<string, number> = {}
  // A timer marks when progress is due, so the items themselves never read the clock (a
  // Date.now() per item, on every beat of a day, is not free).
  let due = true
  const onItem = (item: Item) => {
    items++
    live[item.kind] = (live[item.kind] ?? 0) + 1
    if (item.kind === 'block') seconds += (item.leads[0]?.length ?? 0) / item.fs
    else if (item.kind === 'window') windowEnd = Math.max(windowEnd, (item.startSample + item.lengthSamples) / item.fs)
    if (due) {
      due = false
      env.progress(record.id, seconds || windowEnd, written(live, env.exclude))
    }
  }
  const work: Record<string, number> = {}
  const count = (name: string, n = 1) => {
    live[name] = (live[name] ?? 0) + n
    work[name] = (work[name] ?? 0) + n
  }
  const media = createMediaStore({ runDir: env.runDir, dir: mediaDir, signal: env.signal })
  const shared: SharedContext = { signal: env.signal, runDir: env.runDir, records: env.records, run: env.services, warn: (code, message) => env.warn(record.id, code, message), journal: env.journal, count }
  const transforms = stageTransforms(record, index, env.stages, shared, () => media)
  const sink = createRecordSink({ partsDir, exclude: env.exclude, decimals: env.decimals, onItem })
  const clock = setInterval(() => (due = true), env.progressMs ?? 250)
  clock.unref()
  try {
    const result = await (pipeline as (...args: unknown[]) => Promise<{ counts: Record<string, number> }>)(emptySource, ...transforms, sink, { signal: env.signal })
    if (items === 0) throw nothingRead(record)
    return { partsDir, counts: result.counts, work, seconds: seconds || windowEnd || (env.inputSeconds?.(index) ?? 0) }
  } catch (err) {
    await discard([media])
    await rm(mediaDir, { recursive: true, force: true }).catch(() => undefined)
    throw isAbortError(err) ? err : withContext(err, { recordId: record.id })
  } finally {
    clearInterval(clock)
  }
}

/** What every stage of one record shares in its context (the media store is the record's, or one per stage). */
export type SharedContext = Pick<StageContext, 'signal' | 'runDir' | 'warn' | 'journal' | 'count' | 'run'> & { records?: readonly RecordSpec[] }

/** The stages of one record as transforms, each with its context and errors tagged with its name. */
export function stageTransforms(record: RecordSpec, index: number, stages: ResolvedStage[], shared: SharedContext, mediaOf: (stage: number) => OwnedMediaStore) {
  return stages.map((s, i) => {
    const media = mediaOf(i)
    const ctx: StageContext = { recordId: record.id, recordIndex: index, record, options: s.options, ...shared, records: shared.records ?? [record], media, mediaDir: media.dir }
    const out = (source: AsyncIterable<Item>) => s.stage.transform(source, ctx) as AsyncIterable<Item>
    // A reader of the user's own that sends no watermarks gets read's: one after each block.
    const own = i === 0 && s.source !== 'builtin' ? (source: AsyncIterable<Item>) => withBlockWatermarks(out(source), record.id) : out
    return (source: AsyncIterable<Item>) => tagErrors(s, own(source))
  })
}

/**
 * The watermarks a source stage of the user's own does not send: when its next block comes, one
 * at the end of the block before (what came with a block is placed at or after its start), until
 * the stage sends one itself.
 */
async function* withBlockWatermarks(items: AsyncIterable<Item>, recordId: string): AsyncGenerator<Item> {
  let own = false
  let ended = -1
  for await (const item of items) {
    // Something not an item at all is passed on for the sink's check to name.
    const it = item as Item | null
    if (it?.kind === 'watermark') own = true
    else if (it?.kind === 'block' && !own) {
      if (ended >= 0) yield watermark(recordId, ended)
      ended = it.startSample + (it.leads[0]?.length ?? 0)
    }
    yield item
  }
}

/**
 * Streams one record through `stages` into `consume` (the sink), outside a run directory;
 * `mediaDirs[i]`, when given, is stage i's media folder instead of `mediaDir` (`pipeline render`
 * writes each modality where its flag says). Media written by a record that fails are removed.
 */
export async function streamRecord<T>(record: RecordSpec, stages: ResolvedStage[], shared: SharedContext & { mediaDir: string }, consume: (items: AsyncIterable<Item>) => Promise<T>, mediaDirs: (string | undefined)[] = []): Promise<T> {
  const stores = new Map<string, OwnedMediaStore>()
  const mediaOf = (i: number) => {
    const dir = mediaDirs[i] ?? shared.mediaDir
    if (!stores.has(dir)) stores.set(dir, createMediaStore({ runDir: shared.runDir, dir, signal: shared.signal }))
    return stores.get(dir)!
  }
  const transforms = stageTransforms(record, 0, stages, shared, mediaOf)
  try {
    return await (pipeline as (...args: unknown[]) => Promise<T>)(emptySource, ...transforms, consume, { signal: shared.signal })
  } catch (err) {
    await discard([...stores.values()])
    throw isAbortError(err) ? err : withContext(err, { recordId: record.id })
  }
}

async function discard(stores: OwnedMediaStore[]): Promise<void> {
  for (const s of stores) await s.discardAll().catch(() => undefined)
}

async function* emptySource(): AsyncGenerator<Item> {}

function nothingRead(record: RecordSpec): PipelineError {
  return new PipelineError('E_STAGE_OUTPUT', `no stage produced any item for record ${record.id}: nothing read it; put the read stage first in stages: (or name an earlier run with input: {run: ...})`, { recordId: record.id, field: 'stages' })
}

/**
 * Names the stage in an error thrown inside it (the innermost stage's name wins); an error that
 * is not a PipelineError is our bug in a built-in stage (E_INTERNAL), but the user's own failing
 * in a stage of theirs (E_STAGE_FAILED, naming the module). A plain iterator rather than an async
 * generator with `yield*`: every item of every stage passes here, and a generator wrapper adds a
 * promise per item.
 */
function tagErrors(s: ResolvedStage, items: AsyncIterable<Item>): AsyncIterable<Item> {
  const stage = s.stage.name
  const tag = (err: unknown): never => {
    if (isAbortError(err)) throw err
    if (s.source !== 'builtin' && !(err instanceof PipelineError)) {
      const message = err instanceof Error ? err.message : String(err)
      throw new PipelineError('E_STAGE_FAILED', `your stage "${stage}" (${s.source}) failed: ${message}; the error comes from that module (run with --verbose for its stack)`, { stage, file: s.source }, { cause: err })
    }
    throw withContext(err, { stage })
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
