// Options that render-strip and render-video share: which leads, the paper's scale and
// the markers; each stage adds its own next to its code. Also what all three render stages
// share: picking the leads, and the error for a stage that got no windows.
import { PipelineError } from '../core/errors.ts'
import { leadIndex } from '../formats/lead-match.ts'
import { z } from '../core/stage-options.ts'
import type { ExcerptItem } from '../core/items.ts'
import { titleOption, type TitleMode } from './strip-title.ts'

export const stripOptionFields = {
  /** Leads to draw, by index among the window's leads or by label (default: every lead). */
  leads: z.array(z.union([z.number().int().min(0), z.string().min(1)])).min(1).optional(),
  /** Paper speed, mm per second of signal. */
  speedMmPerS: z.number().positive().max(200).default(25),
  /** Gain, mm per mV. */
  gainMmPerMv: z.number().positive().max(100).default(10),
  /** Pixels per mm of paper (5 = 127 dpi). */
  pxPerMm: z.number().min(1).max(20).default(5),
  /** Height of each lead's band, mm. */
  leadHeightMm: z.number().min(10).max(100).default(30),
  /** Beat markers: every beat item, only the detector's or the reference's, or none. */
  markers: z.enum(['all', 'detector', 'reference', 'none']).default('all'),
  /** Worker threads that draw (and encode PNGs). */
  threads: z.number().int().min(1).max(8).default(1),
  /** What the header names first: the record id (`record`) or not (`anonymous`); default: the id on windows only (src/render/strip-title.ts). */
  title: titleOption,
}

export type StripOptionValues = { leads?: (number | string)[]; speedMmPerS: number; gainMmPerMv: number; pxPerMm: number; leadHeightMm: number; markers: 'all' | 'detector' | 'reference' | 'none'; threads: number; title?: TitleMode }

/** The excerpt sets a render stage draws (the excerpt stage's `set` names). */
export const excerptSetsOption = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]))

/** An option a render stage no longer has: an error saying what replaced it. */
export function retiredOption(message: string) {
  return z.unknown().superRefine((_v, ctx) => {
    ctx.addIssue({ code: 'custom', message })
  })
}

/** markerLagSec's replacement, said where it is written. */
export const MARKER_LAG_RETIRED = 'markerLagSec is gone: a strip now waits for the watermark, until every beat in it has come by, however late the stages before send them; remove the option'

/** An excerpt's media file name (no extension): e<event sample>-<label> for one centred on an event, else x<start sample>. */
export function excerptFileName(ex: ExcerptItem): string {
  const e = ex.reason.event
  if (e) return `e${String(e.sample).padStart(9, '0')}-${e.label.replace(/[^\w.-]/g, '_')}`
  return `x${String(ex.startSample).padStart(9, '0')}`
}

/**
 * The indices of the leads a render stage wants among `labels` (a window's or a cut's; all of
 * them when `wanted` is absent), or an error naming the stage's option and the choices.
 */
export function pickLeads(stage: string, wanted: (number | string)[] | undefined, labels: string[]): number[] {
  if (!wanted) return labels.map((_, i) => i)
  return wanted.map((w) => leadIndex(stage, 'leads', w, labels))
}

/** The error for a render stage that saw samples but no windows. */
export function noWindows(stage: string): PipelineError {
  return new PipelineError('E_CONFIG_VALUE', `${stage}: no window items reached this stage; put a segment stage before it (stages: [read, ..., segment, ${stage}])`, { field: 'stages' })
}

/** Where `samples` samples at `fs` from `startMs` end, in ms. */
export function endMs(startMs: number, samples: number, fs: number): number {
  return startMs + Math.round((samples / fs) * 1000)
}
