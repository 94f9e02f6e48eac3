// Options that render-strip and render-video share (issue 4): which leads, the paper's scale and
// the markers; each stage adds its own next to its code.
import { PipelineError } from '../core/errors.ts'
import { z } from '../core/stage-options.ts'
import type { WindowItem } from '../core/items.ts'

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

/** The indices of the leads to draw from a window, or an error naming the option and the choices. */
export function pickLeads(stage: string, wanted: (number | string)[] | undefined, window: WindowItem): number[] {
  if (!wanted) return window.labels.map((_, i) => i)
  return wanted.map((w) => {
    const i = typeof w === 'number' ? w : window.labels.indexOf(w)
    if (i < 0 || i >= window.samples.length) {
      throw new PipelineError('E_CONFIG_VALUE', `${stage}: lead ${JSON.stringify(w)} is not among the record's leads [${window.labels.join(', ')}]; set "leads" to indices from 0 to ${window.samples.length - 1} or those labels`, { field: 'leads' })
    }
    return i
  })
}
