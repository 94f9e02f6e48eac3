// A record's items as the read stage yields them, for the stage and for commands that read a
// record again (the multi-task export re-reads its excerpts' samples): EDF or WFDB by the
// record's format, a record of several parts read part after part.
import type { Item } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import type { ReadContext } from './read-context.ts'
import type { ReadOptions } from './read-options.ts'
import { readEdfItems } from './read-edf.ts'
import { readWfdbItems } from './read-wfdb.ts'
import { readParts } from './read-parts.ts'

/** The items of `spec`: its recording item, annotations (when asked), gaps and blocks. */
export function readRecordItems(spec: RecordSpec, opts: ReadOptions, ctx: ReadContext): AsyncGenerator<Item> {
  const read = spec.format === 'edf' ? readEdfItems : readWfdbItems
  return spec.parts ? readParts(spec, opts, ctx, read) : read(spec, opts, ctx)
}
