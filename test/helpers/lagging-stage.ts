// A stage that holds some items back by `lagSec` of signal, as a slow stage would, and says so
// in its watermarks (lowered to the oldest item it still holds): the beats of one source (a slow
// detector), or the quality windows (a slow quality stage). The stages after it must lose
// nothing however long the lag, far beyond the old fixed guesses (30 s of marker lag, 120 s of
// artifact hold).
import type { BeatItem, Item } from '../../src/core/items.ts'
import { defineStage } from '../../src/core/stage.ts'
import { createWatermarks, positionOf } from '../../src/core/watermark.ts'

/** Holds back the beats of `what` (a beat source), or the quality items (`'quality'`), by `lagSec`. */
export function laggingStage(what: BeatItem['source'] | 'quality', lagSec: number) {
  const holds = (item: Item) => (what === 'quality' ? item.kind === 'quality' : item.kind === 'beat' && item.source === what)
  return defineStage({
    name: 'lagging',
    version: 1,
    async *transform(items, ctx) {
      const held: Item[] = []
      const marks = createWatermarks(ctx.recordId)
      const at = (item: Item) => positionOf(item) ?? -Infinity
      for await (const item of items as AsyncIterable<Item>) {
        if (holds(item)) {
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
          while (held.length && at(held[0]) < passed) yield held.shift()!
          const w = marks.next(held.length ? at(held[0]) : Infinity)
          if (w) yield w
        }
      }
      yield* held
      const w = marks.next()
      if (w) yield w
    },
  })
}
