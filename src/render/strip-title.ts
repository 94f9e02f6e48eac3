// What a strip's header names before its times (render-strip's strips, render-video's frames).
// An excerpt's strips and clips are what a model is shown (a qa item's images and video), and a
// model may know public records by name (MIT-BIH's "203"), so an excerpt's title names its event
// or its set only, never its record: the same excerpt of two records is the same pixels. A
// window's strip (the demo's strips, the record's video) is for people, who want to see which
// record they are looking at, so it keeps the record id. The `title` option sets both at once:
// `record` puts the id first, `anonymous` leaves it out.
import { z } from '../core/stage-options.ts'
import type { ExcerptItem } from '../core/items.ts'

export type TitleMode = 'record' | 'anonymous'

/** The render stages' `title` option; absent: the record id on windows, none on excerpts. */
export const titleOption = z.enum(['record', 'anonymous']).optional()

/** A window's title: its record id, or nothing with title anonymous. */
export function windowTitle(recordId: string, mode: TitleMode | undefined): string {
  return mode === 'anonymous' ? '' : recordId
}

/** An excerpt's title: its event's label when reference markers are drawn, else its set; after the record id only with title record. */
export function excerptTitle(ex: Pick<ExcerptItem, 'set' | 'reason'>, markers: string, recordId: string, mode: TitleMode | undefined): string {
  // The event's label is the reference's: a strip drawn without reference markers (a model's input) does not print it either.
  const what = (markers === 'all' || markers === 'reference' ? ex.reason.event?.label : undefined) ?? ex.set
  return mode === 'record' ? `${recordId} ${what}` : what
}
