// Sidecar rows give a sample, a time or both, and the stream numbers samples continuously across
// EDF+D gaps while times stay absolute (as the read stage does: an annotation's timeMs counts the
// gaps, its sample does not). This converts one into the other with the gaps seen so far: after
// gap g, time t is sample g.atSample + (t - g.endMs) * fs, and a time inside a gap falls on the
// first sample after it. Without gaps it is sample = round(t * fs), timeMs = sample / fs.

/** A gap as the read stage emits it. */
export interface GapMark {
  startMs: number
  endMs: number
  atSample: number
}

/** Sample and time of a row; at least one of them given. */
export interface Position {
  sample: number | null
  timeMs: number | null
}

/** Converts between samples and times over the gaps added so far (gaps in stream order). */
export function createAnnotationClock(): { addGap(g: GapMark): void; place(p: Position, fs: number): { sample: number; timeMs: number } } {
  const gaps: GapMark[] = []
  // Rows come in time order, near the newest gaps: search from the end.
  const lastGap = (before: (g: GapMark) => boolean): GapMark | undefined => {
    for (let i = gaps.length - 1; i >= 0; i--) if (before(gaps[i])) return gaps[i]
    return undefined
  }
  return {
    addGap(g) {
      gaps.push({ startMs: g.startMs, endMs: g.endMs, atSample: g.atSample })
    },
    place({ sample, timeMs }, fs) {
      if (sample !== null) {
        if (timeMs !== null) return { sample, timeMs }
        const g = lastGap((x) => x.atSample <= sample)
        const sec = g ? g.endMs / 1000 + (sample - g.atSample) / fs : sample / fs
        return { sample, timeMs: Math.round(sec * 1e6) / 1e3 }
      }
      const t = timeMs!
      const g = lastGap((x) => x.startMs <= t)
      const at = g ? g.atSample + Math.round((Math.max(0, t - g.endMs) / 1000) * fs) : Math.round((t / 1000) * fs)
      return { sample: at, timeMs: t }
    },
  }
}
