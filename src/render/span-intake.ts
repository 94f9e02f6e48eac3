// What the render stages that draw spans (render-strip, render-video) take from the stream: the
// windows and excerpts to draw, each joined with the beats inside it once the watermark has
// passed its end (marker-join.ts), the recent samples excerpts are cut from (span-cutter.ts),
// the recording item, and whether windows came at all. The stages keep only how they draw.
import type { ExcerptItem, Item, RecordingItem, WindowItem } from '../core/items.ts'
import { createMarkerJoin, type Joined, type MarkerSource } from './marker-join.ts'
import { noWindows } from './render-options.ts'
import { createSpanCutter } from './span-cutter.ts'

export type RenderSpan = { startSample: number; endSample: number } & ({ window: WindowItem } | { excerpt: ExcerptItem })

export interface SpanIntakeOptions {
  /** Whose beats are drawn as markers. */
  markers: MarkerSource
  /** Draw the segment stage's windows (those `wantWindow` accepts). */
  windows: boolean
  wantWindow?: (w: WindowItem) => boolean
  /** The excerpt sets drawn. */
  excerpts?: readonly string[]
  /** The stage's `leads` option: the only leads held for excerpts (all when absent). */
  leads?: (number | string)[]
}

export interface SpanIntake {
  /** The recording item, once it has passed. */
  readonly recording: RecordingItem | null
  /** Takes an item that is not a watermark (the stage has passed it on). */
  take(item: Item): void
  /**
   * The spans complete now that nothing before `sample` is still to come, oldest first. Cut
   * their excerpts before taking the next item: the samples before them may go then.
   */
  watermark(sample: number): Joined<RenderSpan>[]
  /** The record ended: every span still held (E_CONFIG_VALUE when samples came but no windows, and windows were wanted). */
  end(): Joined<RenderSpan>[]
  /** The lowest start among the spans held (what the stage's watermark must not pass). */
  lowest(): number
  /** The samples of an excerpt, the leads the stage draws (its `leads` option), with their labels and rate. */
  cut(ex: ExcerptItem): { samples: Float32Array[]; labels: string[]; fs: number }
}

/** The intake of stage `stage` (named in its errors). */
export function createSpanIntake(stage: string, o: SpanIntakeOptions): SpanIntake {
  const join = createMarkerJoin<RenderSpan>(o.markers, stage)
  const sets = new Set(o.excerpts ?? [])
  const cutter = sets.size ? createSpanCutter(stage, o.leads) : null
  let recording: RecordingItem | null = null
  let blocks = 0
  let windows = 0
  return {
    get recording() {
      return recording
    },
    take(item) {
      if (item.kind === 'recording') recording = item
      else if (item.kind === 'beat') join.beat(item)
      else if (item.kind === 'block') {
        blocks++
        cutter?.feed(item)
      } else if (item.kind === 'window') {
        windows++
        cutter?.feed(item)
        if (o.windows && (o.wantWindow?.(item) ?? true)) join.add({ startSample: item.startSample, endSample: item.startSample + item.lengthSamples, window: item }, item.fs)
      } else if (item.kind === 'excerpt' && sets.has(item.set)) {
        join.add({ startSample: item.startSample, endSample: item.endSample, excerpt: item }, item.fs)
      }
    },
    watermark(sample) {
      const ready = join.watermark(sample)
      cutter?.keepFrom(Math.min(sample, join.lowest()))
      return ready
    },
    end() {
      if (o.windows && blocks > 0 && windows === 0 && !sets.size) throw noWindows(stage)
      return join.end()
    },
    lowest: () => join.lowest(),
    cut: (ex) => cutter!.cut(ex.startSample, ex.endSample),
  }
}
