// Record-level checkpoints (design.md "Run directory and resume"). The run's outputs are
// `<kind>.ndjson` files in the run directory; `checkpoints.ndjson` gets one line per finished
// record, written (and fsynced) only after that record's lines were appended to the outputs and
// fsynced, holding the byte size of every output file at that moment. On open, every output is
// cut back to the sizes of the last complete checkpoint line and part files are discarded, so a
// crash at any byte leaves no duplicate, missing or torn line once the record is redone.
import { createReadStream, createWriteStream } from 'node:fs'
import { open, readdir, rename, rm, stat, truncate, unlink } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { appendDurable, repairNdjson } from './ndjson-file.ts'
import { ORDER_FILE } from '../formats/item-order.ts'

export const CHECKPOINT_FILE = 'checkpoints.ndjson'
const NOT_OUTPUTS = new Set([CHECKPOINT_FILE, 'progress.ndjson'])

export interface CheckpointLine {
  v: 1
  recordId: string
  index: number
  status: 'done' | 'failed'
  /** Size in bytes of every output file after this record was committed. */
  sizes: Record<string, number>
  /** Lines this record added per kind. */
  counts: Record<string, number>
  seconds: number
  error?: { code: string; message: string }
  at: string
}

/** A record whose outputs are complete: its checkpoint line and the bytes [start, end) its commit added to each output. */
export interface DoneRecord {
  line: CheckpointLine
  ranges: Record<string, [number, number]>
}

export interface CheckpointStore {
  /** Records whose outputs are complete in the run directory. */
  readonly done: ReadonlyMap<string, DoneRecord>
  /** Appends a finished record's part files to the outputs, then writes its checkpoint line. */
  commit(entry: { recordId: string; index: number; partsDir: string; counts: Record<string, number>; seconds: number }): Promise<CheckpointLine>
  /** Records a failed record (nothing of it is in the outputs). */
  fail(entry: { recordId: string; index: number; error: { code: string; message: string } }): Promise<void>
}

/** Opens the checkpoints of a run directory, cutting outputs back to the last checkpoint. */
export async function openCheckpointStore(runDir: string): Promise<CheckpointStore> {
  const file = path.join(runDir, CHECKPOINT_FILE)
  const { values } = await repairNdjson<CheckpointLine>(file)
  let sizes: Record<string, number> = { ...(values.at(-1)?.sizes ?? {}) }
  const done = foldCheckpoints(values)

  const present = new Set(await readdir(runDir))
  for (const [name, size] of Object.entries(sizes)) {
    if (size > 0 && !present.has(name)) {
      throw new PipelineError('E_CHECKPOINT', `output ${name} is missing but the last checkpoint says it holds ${size} bytes; the run directory was changed by hand (run with --restart to start over)`, { file: path.join(runDir, name) })
    }
  }
  for (const name of present) {
    if (!isOutput(name)) continue
    const full = path.join(runDir, name)
    const want = sizes[name]
    if (want === undefined) {
      await unlink(full)
      continue
    }
    const have = (await stat(full)).size
    if (have < want) {
      throw new PipelineError('E_CHECKPOINT', `output is ${have} bytes but the last checkpoint says ${want}; the run directory was changed by hand (run with --restart to start over)`, { file: full })
    }
    if (have > want) await truncate(full, want)
  }
  await rm(path.join(runDir, '.parts'), { recursive: true, force: true })

  return {
    done,
    async commit({ recordId, index, partsDir, counts, seconds }) {
      const next = { ...sizes }
      let renamed = false
      for (const part of (await readdir(partsDir)).sort()) {
        const target = path.join(runDir, part)
        // The first lines of an output: move the part file instead of copying it (a single
        // 24 h record's windows are ~400 MB). Otherwise append a copy.
        if (next[part] === undefined) {
          await rename(path.join(partsDir, part), target)
          renamed = true
        } else await pipeline(createReadStream(path.join(partsDir, part)), createWriteStream(target, { flags: 'a' }))
        const fh = await open(target, 'r+')
        try {
          await fh.sync()
          next[part] = (await fh.stat()).size
        } finally {
          await fh.close()
        }
      }
      // A new file's directory entry must be on disk before a checkpoint names it.
      if (renamed) await syncDir(runDir)
      const line: CheckpointLine = { v: 1, recordId, index, status: 'done', sizes: next, counts, seconds, at: new Date().toISOString() }
      await appendDurable(file, JSON.stringify(line) + '\n')
      done.set(recordId, { line, ranges: addedRanges(sizes, next) })
      sizes = next
      await rm(partsDir, { recursive: true, force: true })
      return line
    },
    async fail({ recordId, index, error }) {
      const line: CheckpointLine = { v: 1, recordId, index, status: 'failed', sizes: { ...sizes }, counts: {}, seconds: 0, error, at: new Date().toISOString() }
      await appendDurable(file, JSON.stringify(line) + '\n')
      done.delete(recordId)
    },
  }
}

/** The records checkpoint lines leave done, in the order they were first done (a later failed line undoes a done one). */
export function foldCheckpoints(lines: readonly CheckpointLine[]): Map<string, DoneRecord> {
  const done = new Map<string, DoneRecord>()
  let sizes: Record<string, number> = {}
  for (const line of lines) {
    if (line.status === 'done') done.set(line.recordId, { line, ranges: addedRanges(sizes, line.sizes) })
    else done.delete(line.recordId)
    sizes = line.sizes
  }
  return done
}

/** What the done records hold together: records, signal seconds and lines per kind. */
export function doneTotals(done: ReadonlyMap<string, DoneRecord>): { records: number; seconds: number; items: Record<string, number> } {
  const items: Record<string, number> = {}
  let seconds = 0
  for (const { line } of done.values()) {
    seconds += line.seconds
    for (const [kind, n] of Object.entries(line.counts)) items[kind] = (items[kind] ?? 0) + n
  }
  return { records: done.size, seconds, items }
}

// The bytes a commit added to each output: from its size before to its size after.
function addedRanges(before: Record<string, number>, after: Record<string, number>): Record<string, [number, number]> {
  const ranges: Record<string, [number, number]> = {}
  for (const [file, end] of Object.entries(after)) if (end > (before[file] ?? 0)) ranges[file] = [before[file] ?? 0, end]
  return ranges
}

// The files a record commits to: its <kind>.ndjson lines and their order (order.bin).
function isOutput(name: string): boolean {
  return (name.endsWith('.ndjson') && !NOT_OUTPUTS.has(name)) || name === ORDER_FILE
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r')
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}
