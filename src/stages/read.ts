// `read`: the source of every record's stream. Opens the record named in the dataset (EDF/EDF+/
// BDF by extension, WFDB by .hea or base path, or the record's explicit `format`) and yields a
// `recording` item, reference annotations, gaps and blocks of samples in mV. Items from any
// stage before it are passed through first. A record of several parts (a list of paths) is read
// part after part as one record (read-parts.ts).
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
  async *transform(source, ctx) {
    yield* source as AsyncIterable<Item>
    const read = ctx.record.format === 'edf' ? readEdfItems : readWfdbItems
    yield* ctx.record.parts ? readParts(ctx.record, ctx.options, ctx, read) : read(ctx.record, ctx.options, ctx)
  },
})
