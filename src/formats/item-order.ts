// order.bin: the order of a run's output lines across its <kind>.ndjson files, with the
// watermarks between them, so a later run can stream a record's items exactly as they came
// (src/run/input-run.ts) although each kind went to its own file. One byte per line: the index
// of its kind in the record's table, which the bytes themselves define as kinds first appear; a
// watermark is a marker byte and its sample. Each record's bytes are appended and checkpointed
// like its NDJSON lines, so its byte range in order.bin comes from checkpoints.ndjson as theirs
// do, and each range stands alone (its table starts empty).
//   0x00-0xFB  the next line of kind #n
//   0xFC L s   kind #(table size) is named s (L bytes of UTF-8)
//   0xFD w     a watermark at sample w (6 bytes, little-endian)
import { createReadStream } from 'node:fs'
import { PipelineError } from '../core/errors.ts'

export const ORDER_FILE = 'order.bin'
const MAX_KINDS = 0xfc
const DEFINE = 0xfc
const WATERMARK = 0xfd

export interface OrderWriter {
  line(kind: string): void
  watermark(sample: number): void
  /** The bytes recorded since the last call (null when none). */
  take(): Buffer | null
}

/** Records one record's order. */
export function createOrderWriter(): OrderWriter {
  const table = new Map<string, number>()
  let buf = Buffer.allocUnsafe(4096)
  let n = 0
  let last = -1
  const room = (k: number) => {
    if (n + k <= buf.length) return
    const next = Buffer.allocUnsafe(Math.max(buf.length * 2, n + k))
    buf.copy(next, 0, 0, n)
    buf = next
  }
  return {
    line(kind) {
      let index = table.get(kind)
      if (index === undefined) {
        if (table.size >= MAX_KINDS) throw new PipelineError('E_STAGE_OUTPUT', `a record's stream has more than ${MAX_KINDS} item kinds (the ${MAX_KINDS + 1}th is "${kind}"); use fewer kinds`, {})
        const name = Buffer.from(kind, 'utf8')
        if (name.length > 0xff) throw new PipelineError('E_STAGE_OUTPUT', `item kind "${kind.slice(0, 40)}..." is ${name.length} bytes long; kinds may be at most 255 bytes (UTF-8): use a shorter kind`, {})
        room(2 + name.length)
        buf[n++] = DEFINE
        buf[n++] = name.length
        n += name.copy(buf, n)
        index = table.size
        table.set(kind, index)
      }
      room(1)
      buf[n++] = index
    },
    watermark(sample) {
      const w = Math.max(0, Math.floor(sample))
      if (!(w > last) || !Number.isSafeInteger(w) || w >= 2 ** 48) return
      last = w
      room(7)
      buf[n++] = WATERMARK
      buf.writeUIntLE(w, n, 6)
      n += 6
    },
    take() {
      if (n === 0) return null
      const out = Buffer.from(buf.subarray(0, n))
      n = 0
      return out
    },
  }
}

export type OrderEntry = { kind: string } | { watermark: number }

/** The entries of bytes [start, end) of an order file (one record's range). */
export async function* readOrder(file: string, start: number, end: number, signal?: AbortSignal): AsyncGenerator<OrderEntry> {
  if (end <= start) return
  const table: string[] = []
  let carry: Buffer | null = null
  const bad = (what: string) => new PipelineError('E_CHECKPOINT', `${file} is damaged in bytes ${start}-${end}: ${what}; run the input run again with --restart`, { file })
  let got = 0
  for await (const piece of createReadStream(file, { start, end: end - 1, signal, highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    got += piece.length
    const b: Buffer = carry ? Buffer.concat([carry, piece]) : piece
    carry = null
    let i = 0
    while (i < b.length) {
      const code = b[i]
      if (code === DEFINE) {
        if (i + 2 > b.length || i + 2 + b[i + 1] > b.length) break
        table.push(b.toString('utf8', i + 2, i + 2 + b[i + 1]))
        i += 2 + b[i + 1]
      } else if (code === WATERMARK) {
        if (i + 7 > b.length) break
        yield { watermark: b.readUIntLE(i + 1, 6) }
        i += 7
      } else if (code < table.length) {
        yield { kind: table[code] }
        i++
      } else throw bad(`kind #${code} used before it is named`)
    }
    if (i < b.length) carry = b.subarray(i)
  }
  if (carry) throw bad('it ends inside an entry')
  // A file cut short between two entries parses cleanly: only the count tells entries are missing.
  if (got < end - start) throw bad(`the file ends at byte ${start + got}`)
}
