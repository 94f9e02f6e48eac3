// `read`: the source of every record's stream. Opens the record named in the dataset (EDF/EDF+/
// BDF by extension, WFDB by .hea or base path, or the record's explicit `format`) and yields a
// `recording` item, reference annotations, gaps and blocks of samples in mV. Items from any
// stage before it are passed through first. A record of several parts (a list of paths) is read
// part after part as one record (src/readers/read-parts.ts).
// After each block comes a watermark at the block's end: the readers place annotations and gaps
// before the block that holds them, so nothing before it is still to come. (An EDF+ file may
// store an annotation in a data record after the one its onset falls in; such an annotation
// arrives behind the watermark, and the stage says so once.)
import { defineStage } from '../core/stage.ts'
import type { Item } from '../core/items.ts'
import { positionOf, watermark } from '../core/watermark.ts'
import { parseReadOptions, type ReadOptions } from '../readers/read-options.ts'
import { readRecordItems } from '../readers/read-record.ts'

export default defineStage<ReadOptions>({
  name: 'read',
  version: 1,
  parseOptions: parseReadOptions,
  async *transform(source, ctx) {
    for await (const item of source) yield item
    const items: AsyncIterable<Item> = readRecordItems(ctx.record, ctx.options, ctx)
    let passed = -Infinity
    let late = 0
    for await (const item of items) {
      if (item.kind === 'block') {
        yield item
        passed = item.startSample + (item.leads[0]?.length ?? 0)
        yield watermark(ctx.recordId, passed)
        continue
      }
      if (passed > -Infinity && (positionOf(item) ?? Infinity) < passed && late++ === 0) {
        ctx.warn('W_LATE_ANNOTATION', `an ${item.kind} at sample ${positionOf(item)} is stored after the signal up to sample ${passed}; stages that wait for the signal to pass (event strips, excerpts) may miss it`)
      }
      yield item
    }
  },
})
