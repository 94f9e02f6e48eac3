// Event-centred renders (issue 4: "every annotated event +- 5 s" as strips, and clips around
// events as video): picks the beats (by AAMI label) of the chosen source and the reference
// rhythm changes (by rhythm name), and once the signal has run `padSec + lagSec` past an event (its samples and its
// neighbours' beats have come by), hands out the samples around it from a ring of recent blocks
// with the beats inside as markers. Events closer than `minGapSec` to the last one taken are
// skipped (a bigeminy would otherwise give one image per second), at most `max` per record.
// Rhythm changes come from the reference annotations in use: the recording's own, or a sidecar's
// rows when the annotate stage reads one (it says so on the recording item).
import type { AnnotationItem, BeatItem, Item, RecordingItem, SampleBlock } from '../core/items.ts'
import type { StripMarker } from './draw-strip.ts'
import { z } from '../core/stage-options.ts'
import { rhythmOf } from '../formats/annotation-text.ts'
import { createSampleRing, type SampleRing } from '../dsp/sample-ring.ts'

export const eventOptionsSchema = z.strictObject({
  /** Beat labels (N, S, V, F, Q) and rhythm names (AFIB, VT, ...) to render around. */
  labels: z.array(z.string().min(1)).min(1).default(['V', 'S', 'F']),
  /** Whose events: the reference annotations (annotate stage), the detector's, or both. */
  source: z.enum(['reference', 'detector', 'all']).default('reference'),
  /** Seconds of signal on each side of the event. */
  padSec: z.number().positive().max(60).default(5),
  /** Skip an event within this many seconds after the last one rendered. */
  minGapSec: z.number().min(0).default(10),
  /** At most this many per record. */
  max: z.number().int().min(1).max(100_000).default(200),
})

export type EventOptions = z.infer<typeof eventOptionsSchema>

export interface EventCut {
  event: { sample: number; timeMs: number; label: string; source: string; kind: 'beat' | 'rhythm' }
  /** First sample of the cut (event - pad - extra) and its time in ms, its samples per lead and its markers. */
  startSample: number
  startMs: number
  samples: Float32Array[]
  labels: string[]
  fs: number
  markers: StripMarker[]
}

export interface EventPicker {
  push(item: Item): EventCut[]
  end(): EventCut[]
}

/** Cuts of padSec (+ extraSec, for a video's window) on each side of each chosen event. */
export function createEventPicker(o: EventOptions, markers: 'all' | 'detector' | 'reference' | 'none', lagSec: number, extraSec = 0): EventPicker {
  const wanted = new Set(o.labels)
  const pending: EventCut['event'][] = []
  let beats: StripMarker[] = []
  let ring: SampleRing | null = null
  let fs = 0
  let labels: string[] = []
  let last = -Infinity
  let taken = 0
  let sidecar = false
  const half = () => Math.round((o.padSec + extraSec) * fs)
  const take = (e: EventCut['event'], out: EventCut[]) => {
    // (minGapSec 0 and source all: the same beat from both sources is taken once.)
    if (taken >= o.max || e.sample - last < o.minGapSec * fs || (e.sample === last && taken > 0)) return
    last = e.sample
    taken++
    const from = e.sample - half()
    const to = e.sample + half()
    out.push({ event: e, startSample: from, startMs: Math.round(e.timeMs - (half() / fs) * 1000), samples: ring!.slice(from, to), labels, fs, markers: beats.filter((b) => b.sample >= from && b.sample < to) })
  }
  const release = (final: boolean): EventCut[] => {
    const out: EventCut[] = []
    while (pending.length && (final || pending[0].sample + half() + lagSec * fs <= ring!.end)) take(pending.shift()!, out)
    // A beat (event or marker) may come lagSec after its samples: keep that far back too.
    const keepFrom = Math.min(pending[0]?.sample ?? Infinity, (ring?.end ?? 0) - lagSec * fs) - half()
    if (beats.length > 64 && beats[0].sample < keepFrom) beats = beats.filter((b) => b.sample >= keepFrom)
    return out
  }
  const source = (s: string) => o.source === 'all' || o.source === s
  return {
    push(item) {
      if (item.kind === 'beat') {
        const b = item as BeatItem
        if (markers === 'all' || markers === b.source) beats.push({ sample: b.sample, label: b.label, source: b.source })
        if (wanted.has(b.label) && source(b.source)) insert(pending, { sample: b.sample, timeMs: b.timeMs, label: b.label, source: b.source, kind: 'beat' })
      } else if (item.kind === 'recording') {
        sidecar = (item as RecordingItem).annotationSidecar !== undefined
      } else if (item.kind === 'annotation') {
        // A rhythm change ("+" with aux "(AFIB"): its annotation comes before its block, where
        // the annotate stage's rhythm item comes only when the episode closes, maybe hours on.
        const a = item as AnnotationItem
        if ((a.origin === 'sidecar') !== sidecar) return [] // not the reference in use
        const rhythm = rhythmOf(a)
        if (rhythm && wanted.has(rhythm) && source('reference')) insert(pending, { sample: a.sample, timeMs: a.timeMs, label: rhythm, source: 'reference', kind: 'rhythm' })
      } else if (item.kind === 'gap') {
        // Samples run on across an EDF+D gap without a jump in their numbers: cut what is due
        // with the samples before it, and start a fresh ring (NaN before the gap) after it, so no
        // strip joins the two sides.
        const out = ring ? release(true) : []
        ring = null
        return out
      } else if (item.kind === 'block') {
        const b = item as SampleBlock
        const n = b.leads[0]?.length ?? 0
        // Enough for a cut, the lag, and a whole block that may arrive before an event is due.
        const capacity = Math.ceil((2 * (o.padSec + extraSec) + lagSec) * b.fs) + 2 * n
        if (!ring || ring.capacity < capacity) {
          fs = b.fs
          labels = b.labels
          ring = ring ? ring.grown(capacity) : createSampleRing(capacity)
        }
        ring.push(b)
        return release(false)
      }
      return []
    },
    end: () => (ring ? release(true) : []),
  }
}

// Events arrive nearly in order (a detector beat a chunk after its samples): keep the list sorted.
function insert(list: EventCut['event'][], e: EventCut['event']): void {
  let i = list.length
  while (i > 0 && list[i - 1].sample > e.sample) i--
  list.splice(i, 0, e)
}

/** An event's file name (no extension): e<sample>-<label>, plus -<source> when both sources are rendered. */
export function eventFileName(e: EventCut['event'], source: EventOptions['source']): string {
  const label = e.label.replace(/[^\w.-]/g, '_')
  return `e${String(e.sample).padStart(9, '0')}-${label}${source === 'all' ? `-${e.source}` : ''}`
}
