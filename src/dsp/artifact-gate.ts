// Decides, for each beat passing a stage, whether it lies in an artifact window of the quality
// stage. A window's `quality` item can arrive after beats inside it (the window is judged when it
// ends), so beats wait in arrival order until a window covers them, or until the watermark has
// passed them: every quality item is positioned at its window's start, so once the watermark is
// past a beat no window covering it is still to come, and an uncovered beat (no quality stage,
// a gap, a tail under 1 s) counts as clean. No guessed delay: a beat waits exactly as long as
// the stages before may still send its window.
// Which leads matter: a detector beat is an artifact when its own lead is flagged; a reference
// beat (annotators read every lead) only when all leads are flagged. A clean beat that follows a
// flagged window with no beat in it (a lead off for 20 s) is marked `afterArtifact`, and one that
// follows an EDF+D gap `afterGap`, so no interval is measured across either.
// Breaks are placed by sample, not by arrival: beats before a gap may reach this stage after it.
// Windows are kept back to the last beat released of each source (what afterArtifact looks
// across), and found by binary search, so a long stretch without beats costs memory, not time.
import { PipelineError } from '../core/errors.ts'
import type { BeatItem, QualityItem } from '../core/items.ts'

/**
 * The most beats held waiting for the watermark (hours of signal at any heart rate; counted, not
 * timed, so a long EDF+D gap between two held beats is no reason to fail): a stage upstream
 * holding items back longer is not waiting for a reason.
 */
const MAX_HELD = 100_000

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
  /** The watermark passed sample `sample`: no quality window starting before it is still to come. */
  watermark(sample: number): GatedBeat[]
  finish(): GatedBeat[]
}

/** A gate releasing beats by watermark. */
export function createArtifactGate(): ArtifactGate {
  let windows: QualityItem[] = [] // in arrival order, which is their order in the signal
  let breaks: number[] = [] // gap positions, in order
  let held: BeatItem[] = []
  let passed = -Infinity

  const last = { reference: -1, detector: -1 } // the previous released beat per source
  const isArtifact = (b: BeatItem, w: QualityItem): boolean => {
    // The index finds the lead even when two leads share a label (a window's leads carry their
    // index, and are in the blocks' order anyway); the label serves for beats from elsewhere
    // that carry only it.
    const own = b.leadIndex !== undefined ? (w.leads.find((l) => l.index === b.leadIndex) ?? w.leads[b.leadIndex]) : b.lead === undefined ? undefined : w.leads.find((l) => l.label === b.lead)
    return own ? own.flags.length > 0 : w.leads.length > 0 && w.leads.every((l) => l.flags.length > 0)
  }
  /** Index of the first window ending after `sample`. */
  const firstEndingAfter = (sample: number): number => {
    let lo = 0
    let hi = windows.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (windows[mid].endSample <= sample) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  const covering = (sample: number): QualityItem | undefined => {
    const w = windows[firstEndingAfter(sample)]
    return w && w.startSample <= sample ? w : undefined
  }
  const flaggedBetween = (b: BeatItem, from: number): boolean => {
    if (from < 0) return false
    for (let i = firstEndingAfter(from); i < windows.length && windows[i].endSample <= b.sample; i++) {
      if (windows[i].startSample > from && isArtifact(b, windows[i])) return true
    }
    return false
  }
  const emit = (out: GatedBeat[], b: BeatItem, artifact: boolean) => {
    const from = last[b.source]
    const afterGap = from >= 0 && breaks.some((g) => g > from && g <= b.sample)
    out.push({ beat: b, artifact, afterArtifact: !artifact && flaggedBetween(b, from), afterGap })
    last[b.source] = b.sample
  }
  // Beats are released from the front: `head` marks the first still held (the list is compacted
  // now and then, not copied on every release).
  let head = 0
  const release = (all = false): GatedBeat[] => {
    const out: GatedBeat[] = []
    for (; head < held.length; head++) {
      const b = held[head]
      const w = covering(b.sample)
      if (w) emit(out, b, isArtifact(b, w))
      else if (all || b.sample < passed || (windows.length > 0 && windows[windows.length - 1].startSample > b.sample)) emit(out, b, false)
      else break
    }
    if (out.length === 0 && head < held.length) return out // the oldest beat still waits: what it needs stays
    if (head === held.length) {
      held = []
      head = 0
    } else if (head > 64 && 2 * head > held.length) {
      held = held.slice(head)
      head = 0
    }
    // What is still needed: windows and gaps after the last beat of each source, and around held ones.
    let keep = Math.min(held[head]?.sample ?? Infinity, Number.isFinite(passed) ? passed : -Infinity)
    for (const s of [last.reference, last.detector]) if (s >= 0) keep = Math.min(keep, s)
    if (windows.length > 64 && windows[0].endSample <= keep) windows = windows.slice(firstEndingAfter(keep))
    if (breaks.length && breaks[0] <= keep) breaks = breaks.filter((g) => g > keep)
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
      if (held.length - head > MAX_HELD) {
        throw new PipelineError('E_WATERMARK', `summarize: holds ${held.length - head} beats (from sample ${held[head].sample} to ${b.sample}) waiting for the watermark to pass them; a stage before it holds items back without passing watermarks on, or drops them (docs/writing-stages.md)`, { field: 'watermark' })
      }
      return release()
    },
    watermark(sample) {
      if (sample <= passed) return []
      passed = sample
      return held.length > head ? release() : []
    },
    finish: () => release(true),
  }
}
