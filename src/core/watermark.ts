// Watermarks (design.md "Ordering, excerpts and ids"): a `watermark` item says "nothing before
// sample S is still to come from the stages before me". The read stage sends one after each
// block; a stage that holds items back (clean's look-ahead, detect's late beats, a render stage
// waiting for markers) lowers every watermark it passes on to the lowest position it may still
// emit; a stage that joins items by time waits for the watermark instead of a guessed number of
// seconds. Positions (positionOf) are per kind: docs/items.md lists them with where each kind
// sits in the stream. Watermarks are never written to the outputs.
import type { AnyItem, Item, WatermarkItem } from './items.ts'

export type { WatermarkItem }

/** Whether an item is a watermark. */
export function isWatermark(item: Item | AnyItem): item is WatermarkItem {
  return item.kind === 'watermark'
}

/** A watermark item. */
export function watermark(recordId: string, sample: number): WatermarkItem {
  return { kind: 'watermark', recordId, sample }
}

/**
 * The sample an item is positioned at, which a watermark speaks about: a span's start (block,
 * window, quality, excerpt), a mark's sample (beat, annotation), a gap's atSample, the end of
 * what becomes an item only when it is complete (a rhythm episode when it closes, a render item
 * when its file is written); null for record-level items (recording, summary). Custom kinds:
 * their `startSample`, else their `sample`, else null.
 */
export function positionOf(item: Item | AnyItem): number | null {
  const x = item as unknown as Record<string, unknown>
  switch (item.kind) {
    case 'recording':
    case 'summary':
    case 'watermark':
      return null
    case 'gap':
      return x.atSample as number
    case 'rhythm':
    case 'render':
    case 'qa':
    case 'prediction':
      return x.endSample as number
  }
  if (typeof x.startSample === 'number') return x.startSample
  if (typeof x.sample === 'number') return x.sample
  return null
}

/**
 * The watermarks a stage passes on: `seen` takes each one from upstream, `next(held)` gives the
 * one to yield now (the upstream's, lowered to `held`, the lowest position the stage may still
 * emit), or null when it would not move forward. Never goes backwards.
 */
export function createWatermarks(recordId: string) {
  let upstream = -Infinity
  let sent = -Infinity
  return {
    /** The latest upstream watermark (-Infinity before the first). */
    get upstream() {
      return upstream
    },
    seen(sample: number): void {
      if (sample > upstream) upstream = sample
    },
    next(held = Infinity): WatermarkItem | null {
      const at = Math.min(upstream, held)
      if (!(at > sent)) return null
      sent = at
      return watermark(recordId, at)
    },
  }
}

export type Watermarks = ReturnType<typeof createWatermarks>

/**
 * Values that wait for the watermark: each is released, in the order added, once the watermark
 * has reached the sample it needs (`until`: everything positioned before it has arrived). A join
 * (the render stages' windows and excerpts waiting for their beats, src/render/marker-join.ts)
 * adds what it holds and releases on each watermark.
 */
export function createWaitList<T>() {
  const queue: { value: T; until: number; position: number }[] = []
  let head = 0
  return {
    get size() {
      return queue.length - head
    },
    /** Holds `value` until the watermark reaches `until`; `position` is where the value's own output will be positioned. */
    add(value: T, until: number, position = until): void {
      queue.push({ value, until, position })
    },
    /** The values released by watermark `sample`, oldest first (a value waits for those before it). */
    release(sample: number): T[] {
      const out: T[] = []
      while (head < queue.length && queue[head].until <= sample) out.push(queue[head++].value)
      if (head > 64 && head * 2 > queue.length) {
        queue.splice(0, head)
        head = 0
      }
      return out
    },
    /** Everything still held (the record ended), oldest first. */
    drain(): T[] {
      const out = queue.slice(head).map((q) => q.value)
      queue.length = 0
      head = 0
      return out
    },
    /** The lowest position among the values held (Infinity when none). */
    lowest(): number {
      let low = Infinity
      for (let i = head; i < queue.length; i++) if (queue[i].position < low) low = queue[i].position
      return low
    },
  }
}

export type WaitList<T> = ReturnType<typeof createWaitList<T>>
