// Spans to draw (a window, an excerpt) joined with the beats that fall inside them, for the
// render stages' markers: a span waits until the watermark has passed its end, so every beat in
// it has come by, however late the stages before send their beats (detect's come a chunk or more
// after their samples). What is held is bounded by how far the watermark trails the stream:
// the spans waiting, and the beats from the oldest of them (or the watermark) on.
import { PipelineError } from '../core/errors.ts'
import type { BeatItem } from '../core/items.ts'
import { createWaitList } from '../core/watermark.ts'
import type { StripMarker } from './draw-strip.ts'

/** How far, in seconds of signal, the watermark may trail the spans arriving: a stage upstream holding items back longer is not waiting for a reason. */
const MAX_HOLD_SEC = 6 * 3600

export type MarkerSource = 'all' | 'detector' | 'reference' | 'none'

export interface Joined<T> {
  span: T
  markers: StripMarker[]
}

export interface MarkerJoin<T> {
  /** A beat passing by (kept when its source is drawn). */
  beat(b: BeatItem): void
  /** A span waiting for its markers (fs: its sampling rate, for the bound on what is held). */
  add(span: T, fs: number): void
  /** The spans complete now that nothing before `sample` is still to come, oldest first. */
  watermark(sample: number): Joined<T>[]
  /** The record ended: every span still held. */
  end(): Joined<T>[]
  /** The lowest start among the spans held (Infinity when none). */
  lowest(): number
}

/** A join for markers of `which` sources, in stage `stage` (named in its errors). */
export function createMarkerJoin<T extends { startSample: number; endSample: number }>(which: MarkerSource, stage: string): MarkerJoin<T> {
  const waiting = createWaitList<T>()
  let beats: StripMarker[] = []
  let passed = -Infinity // the last watermark
  let first = Infinity // the first span's start: where waiting began when no watermark has come
  const joined = (span: T): Joined<T> => ({ span, markers: beats.filter((b) => b.sample >= span.startSample && b.sample < span.endSample) })
  return {
    beat(b) {
      if (which === 'all' || which === b.source) beats.push({ sample: b.sample, label: b.label, source: b.source })
    },
    add(span, fs) {
      waiting.add(span, span.endSample, span.startSample)
      // How far the watermark trails the spans arriving (a long span alone is no reason to fail).
      first = Math.min(first, span.startSample)
      const behind = span.startSample - Math.max(passed, first)
      if (behind > MAX_HOLD_SEC * fs) {
        throw new PipelineError('E_WATERMARK', `${stage}: holds ${Math.round(behind / fs / 3600)} h of signal waiting for the watermark to pass (it has not moved past sample ${Math.max(passed, first)}); a stage before it holds items back without passing watermarks on, or drops them (docs/writing-stages.md)`, { field: 'watermark' })
      }
    },
    watermark(sample) {
      passed = Math.max(passed, sample)
      const out = waiting.release(sample).map(joined)
      // Beats before the oldest span held, and before the watermark (every span still to come
      // starts at or after it), can no longer be drawn.
      const from = Math.min(waiting.lowest(), sample)
      if (beats.length > 64 && beats[0].sample < from) beats = beats.filter((b) => b.sample >= from)
      return out
    },
    end() {
      const out = waiting.drain().map(joined)
      beats = []
      return out
    },
    lowest: () => waiting.lowest(),
  }
}
