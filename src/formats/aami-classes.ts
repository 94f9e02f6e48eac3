// AAMI EC57 beat classes of MIT-BIH labels, and the plain beat series the scorer works on.
// The mapping follows WFDB bxb's amap() (ecgmap.h codes): besides the classic table
// (N: N L R e j; S: A a J S; V: V E; F: F; Q: / f Q) it maps B (bundle branch block, N),
// n (supraventricular escape, S), r (R-on-T, V) and ? (learning, Q), so a record scored here
// counts the same beats bxb does. Everything else (+ ~ | " x ! and EDF+ text) is not a beat:
// bxb treats ! (flutter wave) as a non-beat label too, although isqrs() accepts it.
import { PipelineError } from '../core/errors.ts'

export type AamiClass = 'N' | 'S' | 'V' | 'F' | 'Q'

/** Class codes as stored in BeatSeries.classes (index into this list). */
export const AAMI_CLASSES: readonly AamiClass[] = ['N', 'S', 'V', 'F', 'Q']

const CLASS_OF: Readonly<Record<string, AamiClass>> = {
  N: 'N', L: 'N', R: 'N', e: 'N', j: 'N', B: 'N',
  A: 'S', a: 'S', J: 'S', S: 'S', n: 'S',
  V: 'V', E: 'V', r: 'V',
  F: 'F',
  '/': 'Q', f: 'Q', Q: 'Q', '?': 'Q',
}

/** The AAMI class of an MIT-BIH label (or of a detector's N/S/V/F/Q label); null for non-beats. */
export function aamiClass(symbol: string): AamiClass | null {
  return Object.hasOwn(CLASS_OF, symbol) ? CLASS_OF[symbol] : null
}

/** Beat times (sample indices, non-decreasing) with their AAMI class codes (0..4, AAMI_CLASSES order). */
export interface BeatSeries {
  samples: Float64Array
  classes: Uint8Array
}

// Unlabelled detections count as N, as gqrs writes them: QRS Se/+P do not depend on the label,
// and VEB/SVEB statistics then score the detector as one that never calls an ectopic beat.
const UNLABELLED = 0

/**
 * Keeps the beats of an annotation list and maps their labels, sorting by sample (stable)
 * because detectors that merge leads or blocks may emit slightly out of order.
 */
export function toBeatSeries(samples: ArrayLike<number>, symbols?: ArrayLike<string>): BeatSeries {
  if (symbols !== undefined && symbols.length !== samples.length) {
    throw new PipelineError('E_INTERNAL', `beat series: ${samples.length} samples but ${symbols.length} labels; pass one label per sample (or none)`, { field: 'symbols' })
  }
  const keep: number[] = []
  const codes: number[] = []
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]
    if (!Number.isFinite(s)) {
      throw new PipelineError('E_INTERNAL', `beat series: sample ${i} is ${s}; expected a finite sample index`, { field: 'samples', index: i })
    }
    const cls = symbols === undefined ? AAMI_CLASSES[UNLABELLED] : aamiClass(symbols[i])
    if (cls === null) continue
    keep.push(i)
    codes.push(AAMI_CLASSES.indexOf(cls))
  }
  const order = keep.map((_, k) => k)
  order.sort((x, y) => samples[keep[x]] - samples[keep[y]] || x - y)
  const out: BeatSeries = { samples: new Float64Array(order.length), classes: new Uint8Array(order.length) }
  order.forEach((k, at) => {
    out.samples[at] = samples[keep[k]]
    out.classes[at] = codes[k]
  })
  return out
}
