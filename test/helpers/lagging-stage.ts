// A stage that holds the beats of one source back by `lagSec` of signal, as a slow detector
// would, and says so in its watermarks (lowered to the oldest beat it still holds): the stages
// after it must lose nothing however long the lag, far beyond the old fixed guesses (30 s of
// marker lag, 120 s of artifact hold).
import type { BeatItem, Item } from '../../src/core/items.ts'
import { defineStage } from '../../src/core/stage.ts'
import { createWatermarks } from '../../src/core/watermark.ts'

export function laggingStage(source: BeatItem['source'], lagSec: number) {
  return defineStage({
    name: 'lagging',
    version: 1,
    async *transform(items, ctx) {
      const held: BeatItem[] = []
      const marks = createWatermarks(ctx.recordId)
      for await (const item of items as AsyncIterable<Item>) {
        if (item.kind === 'beat' && item.source === source) {
          held.push(item)
          continue
        }
        if (item.kind === 'watermark') {
          marks.seen(item.sample)
          continue
        }
        yield item
        if (item.kind === 'block') {
          const passed = item.startSample + (item.leads[0]?.length ?? 0) - lagSec * item.fs
          while (held.length && held[0].sample < passed) yield held.shift()!
          const w = marks.next(held[0]?.sample ?? Infinity)
          if (w) yield w
        }
      }
      yield* held
      const w = marks.next()
      if (w) yield w
    },
  })
}
