// The end of every record's stream: writes each item kind to its own part file under
// `.parts/<recordId>/` with backpressure (awaits 'drain' whenever write() says so). Part files
// are moved into the run's outputs only when the whole record is done (run/checkpoint-store.ts), so
// an interrupted record never leaves half its lines in the outputs. Beside them, order.bin
// records the order of the lines across kinds and the watermarks between them (run/item-order.ts),
// so a run over this one streams the record as it came. Watermarks themselves are not written.
import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { once } from 'node:events'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { Item } from '../core/items.ts'
import { createSerializer } from './serialize.ts'
import { createOrderWriter, ORDER_FILE } from '../formats/item-order.ts'

/** Kinds whose file names the run directory reserves for its own bookkeeping. */
export const RESERVED_KINDS = new Set(['checkpoints', 'progress', 'manifest'])
const KIND_PATTERN = /^[a-z][a-z0-9_-]*$/

export interface RecordSinkOptions {
  partsDir: string
  exclude: ReadonlySet<string>
  decimals: number
  /** Sees every item (written or not), e.g. to count signal seconds for progress. */
  onItem?: (item: Item) => void
}

export interface RecordSinkResult {
  /** Lines written per kind. */
  counts: Record<string, number>
}

/** Makes the final consumer of a record's pipeline. */
export function createRecordSink(opts: RecordSinkOptions) {
  return async function recordSink(source: AsyncIterable<Item>, { signal }: { signal: AbortSignal }): Promise<RecordSinkResult> {
    await mkdir(opts.partsDir, { recursive: true })
    const streams = new Map<string, Pending>()
    const counts: Record<string, number> = {}
    const serialize = createSerializer(opts.decimals)
    const order = createOrderWriter()
    const orderOut: Pending = { ws: createWriteStream(path.join(opts.partsDir, ORDER_FILE)), pending: '' }
    streams.set('\0order', orderOut)
    // A write error (disk full) fails the record; errors after we destroyed a stream on abort
    // are expected and only recorded, never left as unhandled 'error' events.
    let failure: Error | null = null
    const onError = (err: Error) => {
      failure ??= err
    }
    async function writeOrder(): Promise<void> {
      const bytes = order.take()
      if (bytes && !orderOut.ws.write(bytes)) await once(orderOut.ws, 'drain', { signal })
    }
    try {
      orderOut.ws.on('error', onError)
      for await (const item of source) {
        const kind = checkKind(item)
        if (kind === 'watermark') {
          order.watermark((item as { sample: number }).sample)
          continue
        }
        opts.onItem?.(item)
        if (opts.exclude.has(kind)) continue
        let out = streams.get(kind)
        if (!out) {
          const ws = createWriteStream(path.join(opts.partsDir, `${kind}.ndjson`))
          ws.on('error', onError)
          out = { ws, pending: '' }
          streams.set(kind, out)
        }
        counts[kind] = (counts[kind] ?? 0) + 1
        out.pending += serialize(item)
        order.line(kind)
        // Small lines (annotations, beats) are batched: one write per ~64 KB, not per line; the
        // order bytes go out with them, so what they hold stays bounded too.
        if (out.pending.length >= BATCH_CHARS) {
          await flush(out, signal)
          await writeOrder()
        }
        if (failure) throw failure
      }
      await Promise.all([...streams.values()].filter((o) => o !== orderOut).map((o) => flush(o, signal)))
      await writeOrder()
      await Promise.all([...streams.values()].map(async (out) => {
        await flush(out, signal)
        out.ws.end()
        await once(out.ws, 'close', { signal })
      }))
      if (failure) throw failure
      return { counts }
    } finally {
      for (const { ws } of streams.values()) if (!ws.closed) ws.destroy()
    }
  }
}

interface Pending {
  ws: WriteStream
  pending: string
}

const BATCH_CHARS = 64 * 1024

async function flush(out: Pending, signal: AbortSignal): Promise<void> {
  if (out.pending === '') return
  const text = out.pending
  out.pending = ''
  if (!out.ws.write(text)) await once(out.ws, 'drain', { signal })
}

function checkKind(item: Item): string {
  const kind = (item as { kind?: unknown } | null)?.kind
  if (typeof kind !== 'string' || !KIND_PATTERN.test(kind) || RESERVED_KINDS.has(kind)) {
    const found = item === null || typeof item !== 'object' ? String(item) : `kind ${JSON.stringify(kind)}`
    throw new PipelineError('E_STAGE_OUTPUT', `a stage yielded an item with ${found}; items need a "kind" of lower-case letters, digits, "-" or "_" (not ${[...RESERVED_KINDS].join(', ')})`, {})
  }
  return kind
}
