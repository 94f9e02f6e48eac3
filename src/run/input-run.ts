// An earlier run as the input of a new one (design.md "Phases are runs over runs"): its finished
// records, each streamed back as it was written. A record's lines of each kind are the byte range
// its checkpoint line added to <kind>.ndjson (from the sizes before and after it, so no file is
// read whole), and order.bin (item-order.ts) interleaves them and the watermarks as the record's
// stream had them. The input run is only read: a torn tail of a run still going is left alone.
// A folder `pipeline qa export` wrote is opened as one too (input-qa-folder.ts).
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { AnyItem, Item } from '../core/items.ts'
import type { InputFile, RecordSpec } from '../core/record.ts'
import { watermark } from '../core/watermark.ts'
import { CHECKPOINT_FILE, foldCheckpoints, type CheckpointLine } from './checkpoint-store.ts'
import { readOrder, ORDER_FILE } from '../formats/item-order.ts'
import { readManifest, type Manifest } from './manifest.ts'
import { readNdjson } from './ndjson-file.ts'
import { posixRelative } from '../sinks/posix-path.ts'
import { LOCK_FILE } from './run-lock.ts'
import { reviveItem } from './revive-item.ts'
import { openQaFolder } from './input-qa-folder.ts'

export interface InputRecord {
  spec: RecordSpec
  /** Signal seconds the record held. */
  seconds: number
  /** When its checkpoint was written (a record redone in the input run gets a new one). */
  at: string
  /** [start, end) of its bytes in each output file. */
  ranges: Record<string, [number, number]>
  /** Lines per kind. */
  counts: Record<string, number>
  /** What stands for the record in the new run's manifest (a changed one is a changed input on resume); default: its checkpoint line. */
  probe?: InputFile
}

export interface InputRun {
  dir: string
  manifest: Manifest
  /** The finished records, in the input dataset's order. */
  records: InputRecord[]
  /** The finished record of that id, if it is one. */
  record(id: string): InputRecord | undefined
  /** Whether a run was writing to it when it was opened (its records may grow). */
  locked: boolean
  /** The only item kinds it holds, when not any (an exported QA folder: qa). */
  kinds?: string[]
  /** The items of `record` whose kind is in `kinds`, with the watermarks, in the order they were written. */
  items(record: InputRecord, kinds: ReadonlySet<string>, toRunDir: string, signal?: AbortSignal): AsyncGenerator<Item | AnyItem>
}

/** The key under which a run's records share the input run at `dir` (RunServices.once), opened once per run. */
export function inputRunKey(dir: string): string {
  return `input-run:${dir}`
}

/** Opens the run directory `dir` (absolute, as the dataset's input.run) for reading. */
export async function openInputRun(dir: string): Promise<InputRun> {
  const manifest = await readManifest(dir).catch((cause: unknown) => {
    throw new PipelineError('E_INPUT_RUN', `the input run's manifest cannot be read: ${(cause as Error).message}`, { file: path.join(dir, 'manifest.json') }, { cause })
  })
  if (!manifest) {
    const folder = await openQaFolder(dir)
    if (folder) return folder
    throw new PipelineError('E_INPUT_RUN', `${dir} is not a run directory (no manifest.json) nor a folder 'pipeline qa export' wrote (no inputs/manifest.json); name the --out folder of an earlier 'pipeline run' (or an exported QA folder) in input.run`, { file: dir, field: 'input.run' })
  }
  const { values } = await readNdjson<CheckpointLine>(path.join(dir, CHECKPOINT_FILE))
  const specs = new Map((manifest.records ?? (manifest.config as { records?: RecordSpec[] })?.records ?? []).map((r) => [r.id, r]))
  const byId = new Map<string, InputRecord>()
  for (const { line, ranges } of foldCheckpoints(values).values()) {
    const spec = specs.get(line.recordId)
    if (!spec) throw new PipelineError('E_INPUT_RUN', `record ${line.recordId} is in ${CHECKPOINT_FILE} but not in the run's manifest; the run directory was changed by hand`, { file: path.join(dir, 'manifest.json') })
    byId.set(line.recordId, { spec, seconds: line.seconds, at: line.at, ranges, counts: line.counts })
  }
  const position = new Map(manifest.inputs.map((r, i) => [r.recordId, i]))
  const at = (r: InputRecord) => position.get(r.spec.id) ?? -1
  const records = [...byId.values()].sort((a, b) => at(a) - at(b))
  if (records.some((r) => Object.keys(r.ranges).some((f) => f !== ORDER_FILE)) && !(await exists(path.join(dir, ORDER_FILE)))) {
    throw new PipelineError('E_INPUT_RUN', `${dir} was written by an older version, without ${ORDER_FILE} (the order of its lines); run it again with --restart to use it as an input`, { file: dir })
  }
  return {
    dir,
    manifest,
    records,
    record: (id) => byId.get(id),
    locked: await exists(path.join(dir, LOCK_FILE)),
    items: (record, kinds, toRunDir, signal) => replay(dir, record, kinds, toRunDir, signal),
  }
}

async function* replay(dir: string, record: InputRecord, kinds: ReadonlySet<string>, toRunDir: string, signal?: AbortSignal): AsyncGenerator<Item | AnyItem> {
  const range = record.ranges[ORDER_FILE]
  if (!range) {
    // Lines without their order: a record written before order.bin, in a run resumed since.
    if (Object.keys(record.ranges).length) throw new PipelineError('E_INPUT_RUN', `record ${record.spec.id} of ${dir} was written without ${ORDER_FILE} (the order of its lines), by an older version; run the input run again with --restart to use it as an input`, { file: dir })
    return
  }
  // Per output file: its lines of this record, where they start and how many were read.
  const readers = new Map<string, { lines: AsyncGenerator<string>; start: number; read: number }>()
  const id = record.spec.id
  const revive = reviveItem(posixRelative(toRunDir, dir))
  try {
    for await (const entry of readOrder(path.join(dir, ORDER_FILE), range[0], range[1], signal)) {
      if ('watermark' in entry) {
        yield watermark(id, entry.watermark)
        continue
      }
      if (!kinds.has(entry.kind)) continue
      const file = `${entry.kind}.ndjson`
      let reader = readers.get(file)
      if (!reader) {
        const r = record.ranges[file]
        if (!r) throw new PipelineError('E_CHECKPOINT', `${path.join(dir, ORDER_FILE)} names ${entry.kind} lines of record ${id}, but its checkpoint gives ${file} none; run the input run again with --restart`, { file: path.join(dir, file) })
        reader = { lines: readLines(path.join(dir, file), r[0], r[1], signal), start: r[0], read: 0 }
        readers.set(file, reader)
      }
      const next = await reader.lines.next()
      if (next.done) throw new PipelineError('E_CHECKPOINT', `${file} of the input run holds fewer lines of record ${id} than ${ORDER_FILE} names`, { file: path.join(dir, file) })
      let item: AnyItem
      try {
        item = JSON.parse(next.value) as AnyItem
      } catch (cause) {
        const full = path.join(dir, file)
        const line = (await linesBefore(full, reader.start, signal)) + reader.read + 1
        throw new PipelineError('E_CHECKPOINT', `${full}:${line} (a line of record ${id}) is not valid JSON: the input run is damaged; run it again with --restart, then this run`, { file: full, line }, { cause })
      }
      reader.read++
      yield revive(item)
    }
  } finally {
    for (const r of readers.values()) await r.lines.return(undefined)
  }
}

/** The lines of bytes [start, end) of a file, streamed. */
async function* readLines(file: string, start: number, end: number, signal?: AbortSignal): AsyncGenerator<string> {
  let carry = ''
  for await (const chunk of createReadStream(file, { start, end: end - 1, encoding: 'utf8', highWaterMark: 256 * 1024, signal }) as AsyncIterable<string>) {
    const text = carry + chunk
    let from = 0
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      yield text.slice(from, nl)
      from = nl + 1
    }
    carry = text.slice(from)
  }
  if (carry !== '') throw new PipelineError('E_CHECKPOINT', `${file} ends inside a line in bytes ${start}-${end}`, { file })
}

// The lines that end before byte `end` of a file (for a message naming file:line; errors only).
async function linesBefore(file: string, end: number, signal?: AbortSignal): Promise<number> {
  if (end === 0) return 0
  let n = 0
  for await (const chunk of createReadStream(file, { start: 0, end: end - 1, signal }) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++
  }
  return n
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(() => true, () => false)
}
