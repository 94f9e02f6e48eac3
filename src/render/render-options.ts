// Options that render-strip and render-video share (issue 4): which leads, the paper's scale and
// the markers; each stage adds its own next to its code. Also what all three render stages
// share: picking the leads, and the error for a stage that got no windows.
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { z } from '../core/stage-options.ts'

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
  /**
   * Seconds of signal a window waits for its beats: the detect stage emits a beat after the
   * block that holds it (about one chunk of 10 s later), so a window is drawn once a block
   * this far past its end has gone by, or at the end of the record.
   */
  markerLagSec: z.number().min(0).max(600).default(30),
  /** Worker threads that draw (and encode PNGs). */
  threads: z.number().int().min(1).max(8).default(1),
}

export type StripOptionValues = { leads?: (number | string)[]; speedMmPerS: number; gainMmPerMv: number; pxPerMm: number; leadHeightMm: number; markers: 'all' | 'detector' | 'reference' | 'none'; markerLagSec: number; threads: number }

/**
 * The indices of the leads a render stage wants among `labels` (a window's or a cut's; all of
 * them when `wanted` is absent), or an error naming the stage's option and the choices.
 */
export function pickLeads(stage: string, wanted: (number | string)[] | undefined, labels: string[]): number[] {
  if (!wanted) return labels.map((_, i) => i)
  return wanted.map((w) => {
    const i = typeof w === 'number' ? w : labels.indexOf(w)
    if (i < 0 || i >= labels.length) {
      throw new PipelineError('E_CONFIG_VALUE', `${stage}: option "leads": lead ${JSON.stringify(w)} is not among the record's leads [${labels.join(', ')}]; use those labels or indices from 0 to ${labels.length - 1}`, { field: 'leads' })
    }
    return i
  })
}

/** The error for a render stage that saw samples but no windows. */
export function noWindows(stage: string): PipelineError {
  return new PipelineError('E_CONFIG_VALUE', `${stage}: no window items reached this stage; put a segment stage before it (stages: [read, ..., segment, ${stage}])`, { field: 'stages' })
}

/** A media file's path as render items give it: relative to the run directory, with "/". */
export function runPath(runDir: string, file: string): string {
  return path.relative(runDir, file).split(path.sep).join('/')
}

/** Where `samples` samples at `fs` from `startMs` end, in ms. */
export function endMs(startMs: number, samples: number, fs: number): number {
  return startMs + Math.round((samples / fs) * 1000)
}
