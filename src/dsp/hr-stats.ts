// Heart-rate statistics of a Holter report over a stream of beat times (pure, incremental,
// memory independent of duration), all on one basis: every beat the ventricles make counts,
// whatever its label (normal, paced, ectopic, fusion, unclassifiable), and an interval joins two
// consecutive beats, never across an artifact period or a gap (`interrupt`).
//   averaged rate: over a window of `avgBeats` consecutive intervals, timed at the beat ending
//                  it; maxHr / minHr are its extremes;
//   mean:          beats per minute over the windows' time, i.e. the windows' rates weighted by
//                  their duration, so min <= mean <= max whatever the breaks. A run of beats
//                  shorter than a window gives no rate, and the first and last avgBeats - 1
//                  intervals of a run weigh less than the others (over a long run it is close
//                  to the plain beats per minute);
//   tachyPct / bradyPct: the share of that same windowed time whose averaged rate is above
//                  `tachyBpm` / below `bradyBpm`;
//   fastestBeat / slowestBeat: the instantaneous extremes (shortest and longest interval), which
//                  the HR-extremum QA tasks may ask about;
//   pauses:        any interval longer than `pauseMs`.
// Windows are summed in whole ticks: samples when the tracker is given the sampling rate (`fs`)
// and each beat's sample, else microseconds of the beat times. Two windows of the same length in
// samples then have exactly the same rate, so a tie is a tie (counted in `ties`), never decided
// by floating-point noise in running sums.
import { PipelineError } from '../core/errors.ts'

export interface HrOptions {
  tachyBpm: number
  bradyBpm: number
  pauseMs: number
  avgBeats: number
  /** Most event times kept per list (counts stay exact). */
  cap: number
  /** The sampling rate beats' samples count in; without it, intervals are whole microseconds of the beat times. */
  fs?: number
}

export const DEFAULT_HR_OPTIONS: HrOptions = { tachyBpm: 100, bradyBpm: 60, pauseMs: 2000, avgBeats: 8, cap: 100 }

export interface HrExtreme {
  bpm: number
  timeMs: number
  /** How many windows (intervals, for the instantaneous extremes) have exactly this rate: 1 when the extreme is unique; the time is the first one's. */
  ties: number
}

export interface HrStats {
  /** Intervals between consecutive beats (none across a break). */
  rrIntervals: number
  /** Full windows of avgBeats intervals: what the mean, the extremes and the shares rest on. */
  windows: number
  meanHrBpm: number | null
  maxHr: HrExtreme | null
  minHr: HrExtreme | null
  /** The beat ending the shortest interval. */
  fastestBeat: (HrExtreme & { rrMs: number }) | null
  /** The beat ending the longest interval. */
  slowestBeat: (HrExtreme & { rrMs: number }) | null
  tachyPct: number | null
  bradyPct: number | null
  pauses: { count: number; longestMs: number | null; events: { startMs: number; durationMs: number }[] }
}

const round1 = (x: number) => Math.round(x * 10) / 10
const round3 = (x: number) => Math.round(x * 1000) / 1000

// The extreme of a tick count (the shortest or longest window or interval), its first time and its ties.
function createExtreme(sign: 1 | -1) {
  let best: { ticks: number; timeMs: number; ties: number } | null = null
  return {
    add(ticks: number, timeMs: number): void {
      if (!best || sign * ticks < sign * best.ticks) best = { ticks, timeMs, ties: 1 }
      else if (ticks === best.ticks) best.ties++
    },
    get: () => best,
  }
}

/** Feeds beats in time order with `add`; `finish` gives the statistics. */
export function createHrTracker(options: Partial<HrOptions> = {}) {
  const o = { ...DEFAULT_HR_OPTIONS, ...options }
  const perSec = o.fs ?? 1e6
  const k = o.avgBeats
  const ring = new Float64Array(k) // the latest consecutive intervals, in ticks (integers)
  let filled = 0
  let head = 0
  let windowTicks = 0
  let prev: { tick: number; timeMs: number } | null = null
  let intervals = 0
  let windows = 0
  let windowedTicks = 0
  let tachyTicks = 0
  let bradyTicks = 0
  const shortestWindow = createExtreme(1)
  const longestWindow = createExtreme(-1)
  const shortestRr = createExtreme(1)
  const longestRr = createExtreme(-1)
  const pauses: HrStats['pauses'] = { count: 0, longestMs: null, events: [] }
  const restart = () => {
    filled = 0
    head = 0
    windowTicks = 0
  }
  const bpmOf = (beats: number, ticks: number) => (60 * perSec * beats) / ticks

  return {
    /** A beat at `timeMs` (and `sample`, which the tracker measures in when made with `fs`); returns the averaged rate of the window it ends (NaN when it ends no full window). */
    add(timeMs: number, sample?: number): number {
      if (o.fs !== undefined && sample === undefined) throw new PipelineError('E_INTERNAL', `heart-rate tracker: made with fs ${o.fs}, so it measures in samples, but the beat at ${timeMs} ms came without one; pass every beat's sample`, { field: 'sample' })
      const tick = o.fs !== undefined ? sample! : Math.round(timeMs * 1000)
      let avgBpm = NaN
      if (prev && tick > prev.tick) {
        const rr = tick - prev.tick
        intervals++
        if (rr * 1000 > o.pauseMs * perSec) {
          const ms = (rr * 1000) / perSec
          pauses.count++
          pauses.longestMs = Math.max(pauses.longestMs ?? 0, ms)
          if (pauses.events.length < o.cap) pauses.events.push({ startMs: prev.timeMs, durationMs: round3(ms) })
        }
        shortestRr.add(rr, timeMs)
        longestRr.add(rr, timeMs)
        windowTicks += rr - (filled === k ? ring[head] : 0)
        ring[head] = rr
        head = (head + 1) % k
        if (filled < k) filled++
        if (filled === k) {
          avgBpm = bpmOf(k, windowTicks)
          windows++
          windowedTicks += windowTicks
          if (avgBpm > o.tachyBpm) tachyTicks += windowTicks
          if (avgBpm < o.bradyBpm) bradyTicks += windowTicks
          shortestWindow.add(windowTicks, timeMs)
          longestWindow.add(windowTicks, timeMs)
        }
      } else if (prev) restart() // two beats at one time are no interval: the window starts again
      prev = { tick, timeMs }
      return avgBpm
    },
    /** An artifact period or a gap: no interval (nor window, nor pause) spans it. */
    interrupt(): void {
      prev = null
      restart()
    },
    finish(): HrStats {
      const extreme = (x: ReturnType<ReturnType<typeof createExtreme>['get']>, beats: number) => (x ? { bpm: round1(bpmOf(beats, x.ticks)), timeMs: x.timeMs, ties: x.ties } : null)
      const beat = (x: ReturnType<ReturnType<typeof createExtreme>['get']>) => (x ? { ...extreme(x, 1)!, rrMs: round3((x.ticks * 1000) / perSec) } : null)
      return {
        rrIntervals: intervals,
        windows,
        meanHrBpm: windows ? round1(bpmOf(k * windows, windowedTicks)) : null,
        maxHr: extreme(shortestWindow.get(), k),
        minHr: extreme(longestWindow.get(), k),
        fastestBeat: beat(shortestRr.get()),
        slowestBeat: beat(longestRr.get()),
        tachyPct: windows ? round1((100 * tachyTicks) / windowedTicks) : null,
        bradyPct: windows ? round1((100 * bradyTicks) / windowedTicks) : null,
        pauses: { ...pauses, longestMs: pauses.longestMs === null ? null : round3(pauses.longestMs), events: [...pauses.events] },
      }
    },
  }
}
