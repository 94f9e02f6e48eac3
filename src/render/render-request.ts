// What a render stage sends its worker for one window (render-worker.ts): the chosen leads'
// samples, the window's place in the record and its markers, and the paper's options.
import type { StripMarker, StripOptions } from './draw-strip.ts'
import { resolveStripOptions } from './strip-layout.ts'
import type { WindowItem } from '../core/items.ts'
import type { StripOptionValues } from './render-options.ts'
import type { RenderRequest } from '../threads/render-worker.ts'

/** The request that draws window `w` with its markers and leads `leads`; windowSec fixes the strip's width. */
export function stripRequest(t: 'png' | 'rgba', w: WindowItem, markers: StripMarker[], leads: number[], o: StripOptionValues, title: string, startTime: string | null, windowSec?: number): RenderRequest {
  return {
    t,
    options: stripOptions(o),
    input: {
      samples: leads.map((i) => w.samples[i]), labels: leads.map((i) => w.labels[i]), fs: w.fs,
      startSample: w.startSample, startMs: w.startMs, windowSec: windowSec ?? w.lengthSamples / w.fs,
      markers, title, startTime,
    },
  }
}

/** The drawing options a render stage's options set (the rest at their defaults). */
export function stripOptions(o: StripOptionValues): StripOptions {
  return resolveStripOptions({ speedMmPerS: o.speedMmPerS, gainMmPerMv: o.gainMmPerMv, pxPerMm: o.pxPerMm, leadHeightMm: o.leadHeightMm, markers: o.markers !== 'none' })
}
