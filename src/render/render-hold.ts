// Holds the windows a render stage draws until their beat markers have come by (issue 4).
// `segment` emits a window as soon as its samples pass, but `detect` emits a beat after the
// block that holds it, about a 10 s chunk later; so a window waits until a block starting
// `lagSec` past its end has gone by (or the record ends) and then comes out with the beats that
// fall inside it. What is held is bounded by the lag: the windows of `lagSec` of signal and the
// beats from the oldest of them on.
import type { BeatItem, Item, SampleBlock, WindowItem } from '../core/items.ts'
import type { StripMarker } from './draw-strip.ts'

// The segment stage's longest window, in seconds.
const MAX_WINDOW_SEC = 3600

export interface HeldWindow {
  window: WindowItem
  markers: StripMarker[]
}

export interface WindowHold {
  /** Sees one item; returns the windows that are complete now, oldest first. */
  push(item: Item): HeldWindow[]
  /** The record ended: every window still held. */
  end(): HeldWindow[]
}

/** A hold for markers of `which` sources, released `lagSec` of signal after each window's end. */
export function createWindowHold(which: 'all' | 'detector' | 'reference' | 'none', lagSec: number): WindowHold {
  const windows: WindowItem[] = []
  let beats: StripMarker[] = []
  let longest = 0 // samples of the longest window seen: beats may come before their window does
  const release = (upTo: number, fs: number): HeldWindow[] => {
    const out: HeldWindow[] = []
    while (windows.length && windowEnd(windows[0]) + lagSec * windows[0].fs <= upTo) out.push(withMarkers(windows.shift()!))
    // Beats before the oldest window still held can no longer be drawn; with none held, beats
    // of a window still to come reach back at most its length and the lag.
    // (Before the first window, its length is not known: the segment stage's longest, an hour.)
    const from = windows[0]?.startSample ?? upTo - (longest || MAX_WINDOW_SEC * fs) - lagSec * fs
    if (beats.length && beats[0].sample < from) beats = beats.filter((b) => b.sample >= from)
    return out
  }
  const withMarkers = (w: WindowItem): HeldWindow => {
    const end = windowEnd(w)
    return { window: w, markers: beats.filter((b) => b.sample >= w.startSample && b.sample < end) }
  }
  return {
    push(item) {
      if (item.kind === 'window') {
        const w = item as WindowItem
        windows.push(w)
        longest = Math.max(longest, w.lengthSamples)
        return []
      }
      if (item.kind === 'beat') {
        const b = item as BeatItem
        if (which === 'all' || which === b.source) beats.push({ sample: b.sample, label: b.label, source: b.source })
        return []
      }
      if (item.kind === 'block') return release((item as SampleBlock).startSample, (item as SampleBlock).fs)
      return []
    },
    end() {
      const out = windows.map(withMarkers)
      windows.length = 0
      beats = []
      return out
    },
  }
}

function windowEnd(w: WindowItem): number {
  return w.startSample + w.lengthSamples
}
