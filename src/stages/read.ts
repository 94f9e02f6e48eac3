// `read`: the source of every record's stream. Opens the record named in the dataset (EDF/EDF+/
// BDF by extension, WFDB by .hea or base path, or the record's explicit `format`) and yields a
// `recording` item, reference annotations, gaps and blocks of samples in mV. Items from any
// stage before it are passed through first. A record of several parts (a list of paths) is read
// part after part as one record (read-parts.ts).
// An async generator like every stage. (A hand-written iterator that saved the wrapping
// generator's promise per item was measured side by side and gave nothing: 24 h read alone
// 0.29-0.40 s against 0.31-0.37 s, whole chain 2.24-2.53 against 1.93-2.58 s, 4 alternating rounds.)
import { defineStage } from '../core/stage.ts'
import type { Item } from '../core/items.ts'
import { parseReadOptions, type ReadOptions } from '../readers/read-options.ts'
import { readEdfItems } from '../readers/read-edf.ts'
import { readWfdbItems } from '../readers/read-wfdb.ts'
import { readParts } from '../readers/read-parts.ts'

export default defineStage<ReadOptions>({
  name: 'read',
  version: 1,
  parseOptions: parseReadOptions,
  async *transform(source, ctx) {
    for await (const item of source) yield item
    const read = ctx.record.format === 'edf' ? readEdfItems : readWfdbItems
    for await (const item of ctx.record.parts ? readParts(ctx.record, ctx.options, ctx, read) : read(ctx.record, ctx.options, ctx)) yield item
  },
})
