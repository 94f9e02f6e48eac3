// `read`: the source of every record's stream. Opens the record named in the dataset (EDF/EDF+/
// BDF by extension, WFDB by .hea or base path, or the record's explicit `format`) and yields a
// `recording` item, reference annotations, gaps and blocks of samples in mV. Items from any
// stage before it are passed through first. A record of several parts (a list of paths) is read
// part after part as one record (read-parts.ts).
// Unlike the other stages, its transform is a plain async iterator (followedBy below) rather than
// an async generator: wrapping the reader's generator in another one costs a promise per item on
// the record's busiest hop (117,000 items on the 24 h benchmark file).
import { defineStage } from '../core/stage.ts'
import type { Item } from '../core/items.ts'
import { parseReadOptions, type ReadOptions } from './read-options.ts'
import { readEdfItems } from './read-edf.ts'
import { readWfdbItems } from './read-wfdb.ts'
import { readParts } from './read-parts.ts'

export default defineStage<ReadOptions>({
  name: 'read',
  version: 1,
  parseOptions: parseReadOptions,
  transform(source, ctx) {
    const read = ctx.record.format === 'edf' ? readEdfItems : readWfdbItems
    return followedBy(source, () => (ctx.record.parts ? readParts(ctx.record, ctx.options, ctx, read) : read(ctx.record, ctx.options, ctx)))
  },
})

/**
 * The items of `first`, then those of `then()` (started when `first` ends). A plain iterator
 * rather than an async generator with `yield*`, which would add a promise per item for the
 * reader's items, the bulk of the record's stream.
 */
function followedBy(first: AsyncIterable<Item>, then: () => AsyncIterable<Item>): AsyncIterable<Item> {
  return {
    [Symbol.asyncIterator]() {
      let it: AsyncIterator<Item> = first[Symbol.asyncIterator]()
      let second = false
      const next = async (): Promise<IteratorResult<Item>> => {
        const r = await it.next()
        if (!r.done || second) return r
        second = true
        it = then()[Symbol.asyncIterator]()
        return it.next()
      }
      return {
        next: () => (second ? it.next() : next()),
        return: async (value?: unknown) => (await it.return?.(value)) ?? { done: true as const, value: undefined },
      }
    },
  }
}
