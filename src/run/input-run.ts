// An earlier run as the input of a new one (design.md "Phases are runs over runs"): its finished
// records, each streamed back as it was written. A record's lines of each kind are the byte range
// its checkpoint line added to <kind>.ndjson (from the sizes before and after it, so no file is
// read whole), and order.bin (item-order.ts) interleaves them and the watermarks as the record's
// stream had them. The input run is only read: a torn tail of a run still going is left alone.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { AnyItem, Item } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { watermark } from '../core/watermark.ts'
import { CHECKPOINT_FILE, type CheckpointLine } from './checkpoint-store.ts'
import { readOrder, ORDER_FILE } from '../formats/item-order.ts'
import { readManifest, type Manifest } from './manifest.ts'
import { readNdjson } from './ndjson-file.ts'
import { LOCK_FILE } from './run-lock.ts'
import { reviveItem } from './revive-item.ts'

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
}

export interface InputRun {
  dir: string
  manifest: Manifest
  /** The finished records, in the input dataset's order. */
  records: InputRecord[]
  /** Whether a run was writing to it when it was opened (its records may grow). */
  locked: boolean
  /** The items of `record` whose kind is in `kinds`, with the watermarks, in the order they were written. */
  items(record: InputRecord, kinds: ReadonlySet<string>, toRunDir: string, signal?: AbortSignal): AsyncGenerator<Item | AnyItem>
}

/** Opens the run directory `dir` for reading. */
export async function openInputRun(dir: string): Promise<InputRun> {
  const abs = path.resolve(dir)
  const manifest = await readManifest(abs).catch((cause: unknown) => {
    throw new PipelineError('E_INPUT_RUN', `the input run's manifest cannot be read: ${(cause as Error).message}`, { file: path.join(abs, 'manifest.json') }, { cause })
  })
  if (!manifest) throw new PipelineError('E_INPUT_RUN', `${abs} is not a run directory (no manifest.json); name the --out folder of an earlier 'pipeline run' in input.run`, { file: abs, field: 'input.run' })
  const { values } = await readNdjson<CheckpointLine>(path.join(abs, CHECKPOINT_FILE))
  const specs = new Map((manifest.records ?? (manifest.config as { records?: RecordSpec[] })?.records ?? []).map((r) => [r.id, r]))
  const done = new Map<string, InputRecord>()
  let sizes: Record<string, number> = {}
  for (const line of values) {
    if (line.status === 'done') {
      const ranges: Record<string, [number, number]> = {}
      for (const [file, end] of Object.entries(line.sizes)) if (end > (sizes[file] ?? 0)) ranges[file] = [sizes[file] ?? 0, end]
      const spec = specs.get(line.recordId)
      if (!spec) throw new PipelineError('E_INPUT_RUN', `record ${line.recordId} is in ${CHECKPOINT_FILE} but not in the run's manifest; the run directory was changed by hand`, { file: path.join(abs, 'manifest.json') })
      done.set(line.recordId, { spec, seconds: line.seconds, at: line.at, ranges, counts: line.counts })
    } else done.delete(line.recordId)
    sizes = line.sizes
  }
  const order = manifest.inputs.map((r) => r.recordId)
  const records = [...done.values()].sort((a, b) => order.indexOf(a.spec.id) - order.indexOf(b.spec.id))
  if (records.some((r) => Object.keys(r.ranges).some((f) => f !== ORDER_FILE)) && !(await exists(path.join(abs, ORDER_FILE)))) {
    throw new PipelineError('E_INPUT_RUN', `${abs} was written by an older version, without ${ORDER_FILE} (the order of its lines); run it again with --restart to use it as an input`, { file: abs })
  }
  return {
    dir: abs,
    manifest,
    records,
    locked: await exists(path.join(abs, LOCK_FILE)),
    items: (record, kinds, toRunDir, signal) => replay(abs, record, kinds, toRunDir, signal),
  }
}

async function* replay(dir: string, record: InputRecord, kinds: ReadonlySet<string>, toRunDir: string, signal?: AbortSignal): AsyncGenerator<Item | AnyItem> {
  const range = record.ranges[ORDER_FILE]
  if (!range) {
    // Lines without their order: a record written before order.bin, in a run resumed since.
    if (Object.keys(record.ranges).length) throw new PipelineError('E_INPUT_RUN', `record ${record.spec.id} of ${dir} was written without ${ORDER_FILE} (the order of its lines), by an older version; run the input run again with --restart to use it as an input`, { file: dir })
    return
  }
  const readers = new Map<string, AsyncGenerator<string>>()
  const id = record.spec.id
  const revive = reviveItem(path.relative(toRunDir, dir).split(path.sep).join('/'))
  try {
    for await (const entry of readOrder(path.join(dir, ORDER_FILE), range[0], range[1], signal)) {
      if ('watermark' in entry) {
        yield watermark(id, entry.watermark)
        continue
      }
      if (!kinds.has(entry.kind)) continue
      const file = `${entry.kind}.ndjson`
      let lines = readers.get(file)
      if (!lines) {
        const r = record.ranges[file]
        if (!r) throw new PipelineError('E_CHECKPOINT', `${path.join(dir, ORDER_FILE)} names ${entry.kind} lines of record ${id}, but its checkpoint gives ${file} none; run the input run again with --restart`, { file: path.join(dir, file) })
        lines = readLines(path.join(dir, file), r[0], r[1], signal)
        readers.set(file, lines)
      }
      const next = await lines.next()
      if (next.done) throw new PipelineError('E_CHECKPOINT', `${file} of the input run holds fewer lines of record ${id} than ${ORDER_FILE} names`, { file: path.join(dir, file) })
      yield revive(JSON.parse(next.value) as AnyItem)
    }
  } finally {
    for (const r of readers.values()) await r.return(undefined)
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

async function exists(file: string): Promise<boolean> {
  return stat(file).then(() => true, () => false)
}
