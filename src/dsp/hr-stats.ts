// Heart-rate statistics of a Holter report over a stream of labelled beat times (pure,
// incremental, memory independent of duration): mean HR over normal-to-normal (NN) intervals,
// maximum and minimum HR averaged over `avgBeats` consecutive NN intervals (time = the beat
// ending the window), the instantaneous extremes (the beat ending the shortest and the longest
// NN interval, which the HR-extremum QA tasks ask about), the share of NN time above the
// tachycardia and below the bradycardia threshold, and pauses (any RR above `pauseMs`).

export interface HrOptions {
  tachyBpm: number
  bradyBpm: number
  pauseMs: number
  avgBeats: number
  /** Most event times kept per list (counts stay exact). */
  cap: number
}

export const DEFAULT_HR_OPTIONS: HrOptions = { tachyBpm: 100, bradyBpm: 60, pauseMs: 2000, avgBeats: 8, cap: 100 }

export interface HrExtreme {
  bpm: number
  timeMs: number
}

export interface HrStats {
  nnIntervals: number
  meanHrBpm: number | null
  maxHr: HrExtreme | null
  minHr: HrExtreme | null
  /** The beat ending the shortest NN interval. */
  fastestBeat: (HrExtreme & { rrMs: number }) | null
  /** The beat ending the longest NN interval. */
  slowestBeat: (HrExtreme & { rrMs: number }) | null
  tachyPct: number | null
  bradyPct: number | null
  pauses: { count: number; longestMs: number | null; events: { startMs: number; durationMs: number }[] }
}

const round1 = (x: number) => Math.round(x * 10) / 10
// Beat times are ms with 3 decimals; differences of them carry float noise (652.777999999933).
const round3 = (x: number) => Math.round(x * 1000) / 1000

/** Feeds beats in time order with `add`; `finish` gives the statistics. */
export function createHrTracker(options: Partial<HrOptions> = {}) {
  const o = { ...DEFAULT_HR_OPTIONS, ...options }
  const window = new Float64Array(o.avgBeats) // the latest consecutive NN intervals (ring)
  let filled = 0
  let head = 0
  let windowSum = 0
  let prev: { label: string; timeMs: number } | null = null
  let nn = 0
  let nnSum = 0
  let tachyMs = 0
  let bradyMs = 0
  const s: HrStats = { nnIntervals: 0, meanHrBpm: null, maxHr: null, minHr: null, fastestBeat: null, slowestBeat: null, tachyPct: null, bradyPct: null, pauses: { count: 0, longestMs: null, events: [] } }

  return {
    /** A beat; returns the averaged rate of the window it ends (NaN when it ends no full window of NN intervals). */
    add(label: string, timeMs: number): number {
      let avgBpm = NaN
      if (prev) {
        const rr = timeMs - prev.timeMs
        if (rr > o.pauseMs) {
          s.pauses.count++
          s.pauses.longestMs = Math.max(s.pauses.longestMs ?? 0, rr)
          if (s.pauses.events.length < o.cap) s.pauses.events.push({ startMs: prev.timeMs, durationMs: round3(rr) })
        }
        if (label === 'N' && prev.label === 'N' && rr > 0) {
          nn++
          nnSum += rr
          const bpm = 60_000 / rr
          if (bpm > o.tachyBpm) tachyMs += rr
          if (bpm < o.bradyBpm) bradyMs += rr
          // Compared unrounded (rounded once in finish), like the averaged extremes.
          if (!s.fastestBeat || rr < s.fastestBeat.rrMs) s.fastestBeat = { bpm, rrMs: rr, timeMs }
          if (!s.slowestBeat || rr > s.slowestBeat.rrMs) s.slowestBeat = { bpm, rrMs: rr, timeMs }
          windowSum += rr - (filled === o.avgBeats ? window[head] : 0)
          window[head] = rr
          head = (head + 1) % o.avgBeats
          if (filled < o.avgBeats) filled++
          if (filled === o.avgBeats) {
            const avg = 60_000 / (windowSum / o.avgBeats)
            avgBpm = avg
            if (!s.maxHr || avg > s.maxHr.bpm) s.maxHr = { bpm: avg, timeMs }
            if (!s.minHr || avg < s.minHr.bpm) s.minHr = { bpm: avg, timeMs }
          }
        } else {
          // A non-NN interval breaks the run of consecutive NN intervals the average needs.
          filled = 0
          head = 0
          windowSum = 0
        }
      }
      prev = { label, timeMs }
      return avgBpm
    },
    /** An artifact period: no interval (NN, pause) spans it; averaging restarts after it. */
    interrupt(): void {
      prev = null
      filled = 0
      head = 0
      windowSum = 0
    },
    finish(): HrStats {
      s.nnIntervals = nn
      for (const b of [s.fastestBeat, s.slowestBeat]) if (b) Object.assign(b, { bpm: round1(b.bpm), rrMs: round3(b.rrMs) })
      if (s.pauses.longestMs !== null) s.pauses.longestMs = round3(s.pauses.longestMs)
      if (s.maxHr) s.maxHr.bpm = round1(s.maxHr.bpm)
      if (s.minHr) s.minHr.bpm = round1(s.minHr.bpm)
      if (nn > 0) {
        s.meanHrBpm = round1(60_000 / (nnSum / nn))
        s.tachyPct = round1((100 * tachyMs) / nnSum)
        s.bradyPct = round1((100 * bradyMs) / nnSum)
      }
      return s
    },
  }
}
