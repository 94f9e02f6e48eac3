// An excerpt cut into tiles for render-strip's `excerptTileSec`: a 10-minute excerpt drawn whole is
// a 75,000 px strip no image model takes, so it is drawn as consecutive strips of ordinary length
// instead. Tiles run from the excerpt's start; the last is shorter when the span is not a
// multiple (drawn at the same scale, so narrower: padding it would mean showing signal outside
// the excerpt, or paper without any). Times come from the excerpt's start, as the excerpt stage
// computes its own endMs, so each tile ends where the next starts and the last where the excerpt
// does.
import type { ExcerptItem } from '../core/items.ts'
import type { StripMarker } from './draw-strip.ts'
import { endMs } from './render-options.ts'

export interface Tile {
  /** From 0, in the excerpt's order. */
  index: number
  /** How many tiles the excerpt has. */
  count: number
  startSample: number
  /** One past the last sample. */
  endSample: number
  startMs: number
  endMs: number
}

type Span = Pick<ExcerptItem, 'startSample' | 'endSample' | 'startMs'>

/** The tiles of `tileSec` seconds (at least one sample) covering `span` at `fs` from its start. */
export function excerptTiles(span: Span, fs: number, tileSec: number): Tile[] {
  const step = Math.max(1, Math.round(tileSec * fs))
  const length = Math.max(0, span.endSample - span.startSample)
  const count = Math.ceil(length / step)
  const msAt = (offset: number) => endMs(span.startMs, offset, fs)
  return Array.from({ length: count }, (_, index) => {
    const from = index * step
    const to = Math.min(from + step, length)
    return { index, count, startSample: span.startSample + from, endSample: span.startSample + to, startMs: msAt(from), endMs: msAt(to) }
  })
}

/** A tile's file name (no extension): t<index>, zero-padded to 3 digits (more when an excerpt has over 1,000 tiles, so names still sort). */
export function tileFileName(t: Tile): string {
  return `t${String(t.index).padStart(Math.max(3, String(t.count - 1).length), '0')}`
}

/** The markers inside a tile. */
export function tileMarkers(markers: StripMarker[], t: Tile): StripMarker[] {
  return markers.filter((m) => m.sample >= t.startSample && m.sample < t.endSample)
}

/** The words a tile's strip title ends with, counted from 1 for the reader: "tile 2 of 6". */
export function tileTitle(t: Tile): string {
  return `tile ${t.index + 1} of ${t.count}`
}
