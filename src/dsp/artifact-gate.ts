// Decides, for each beat passing a stage, whether it lies in an artifact window of the quality
// stage, in bounded memory. A window's `quality` item can arrive after beats inside it (the
// window is judged when it ends), so beats wait in arrival order until a window covers them,
// or until the stream has moved `holdSec` past them with no window covering them (no quality
// stage upstream, a gap, or a tail under 1 s): those count as clean.
// Which leads matter: a detector beat is an artifact when its own lead is flagged; a reference
// beat (annotators read every lead) only when all leads are flagged. A clean beat that follows a
// flagged window with no beat in it (a lead off for 20 s) is marked `afterArtifact`, and one that
// follows an EDF+D gap `afterGap`, so no interval is measured across either.
// Breaks are placed by sample, not by arrival: beats before a gap may reach this stage after it.
import type { BeatItem, QualityItem } from '../core/items.ts'

export interface GatedBeat {
  beat: BeatItem
  artifact: boolean
  /** A flagged window lies between this beat and the previous one of its source. */
  afterArtifact: boolean
  /** A gap in the signal lies between this beat and the previous one of its source. */
  afterGap: boolean
}

export interface ArtifactGate {
  quality(q: QualityItem): GatedBeat[]
  /** A gap in the signal before sample `atSample`. */
  gap(atSample: number): void
  beat(b: BeatItem): GatedBeat[]
  /** The stream has reached sample `end` at sampling rate fs. */
  position(end: number, fs: number): GatedBeat[]
  finish(): GatedBeat[]
}

/** A gate holding beats at most `holdSec` of stream behind. */
export function createArtifactGate(holdSec = 120): ArtifactGate {
  const windows: QualityItem[] = []
  let breaks: number[] = [] // gap positions, in order
  let held: BeatItem[] = []
  let pos = 0
  let hold = Infinity // samples; known from the first block

  const last = { reference: -1, detector: -1 } // the previous released beat per source
  const isArtifact = (b: BeatItem, w: QualityItem): boolean => {
    // A window's leads are in the blocks' order, so the index finds the lead even when two
    // leads share a label; the label serves for beats from elsewhere that carry only it.
    const own = b.leadIndex !== undefined ? w.leads[b.leadIndex] : b.lead === undefined ? undefined : w.leads.find((l) => l.label === b.lead)
    return own ? own.flags.length > 0 : w.leads.length > 0 && w.leads.every((l) => l.flags.length > 0)
  }
  const covering = (sample: number): QualityItem | undefined => {
    for (let i = windows.length - 1; i >= 0; i--) if (windows[i].startSample <= sample && sample < windows[i].endSample) return windows[i]
    return undefined
  }
  const flaggedBetween = (b: BeatItem, from: number): boolean =>
    from >= 0 && windows.some((w) => w.startSample > from && w.endSample <= b.sample && isArtifact(b, w))
  const emit = (out: GatedBeat[], b: BeatItem, artifact: boolean) => {
    const from = last[b.source]
    const afterGap = from >= 0 && breaks.some((g) => g > from && g <= b.sample)
    out.push({ beat: b, artifact, afterArtifact: !artifact && flaggedBetween(b, from), afterGap })
    last[b.source] = b.sample
  }
  const release = (all = false): GatedBeat[] => {
    const out: GatedBeat[] = []
    let k = 0
    for (; k < held.length; k++) {
      const b = held[k]
      const w = covering(b.sample)
      if (w) emit(out, b, isArtifact(b, w))
      else if (all || pos - b.sample > hold || (windows.length > 0 && windows[windows.length - 1].startSample > b.sample)) emit(out, b, false)
      else break
    }
    held = k === held.length ? [] : held.slice(k)
    // Windows far behind the stream can no longer cover a beat that is still to come.
    while (windows.length > 1 && windows[0].endSample < pos - 2 * hold) windows.shift()
    if (breaks.length && breaks[0] < pos - 2 * hold) breaks = breaks.filter((g) => g >= pos - 2 * hold)
    return out
  }

  return {
    quality(q) {
      windows.push(q)
      return release()
    },
    gap(atSample) {
      breaks.push(atSample)
    },
    beat(b) {
      held.push(b)
      return release()
    },
    position(end, fs) {
      pos = Math.max(pos, end)
      hold = holdSec * fs
      return held.length ? release() : []
    },
    finish: () => release(true),
  }
}
