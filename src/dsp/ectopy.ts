// Ectopic patterns over a stream of beat labels (pure, incremental): singles, couplets and runs
// of 3+ consecutive S or V beats (with the longest run and the fastest run rate), and bigeminy
// (N X N X ...) and trigeminy (N N X N N X ...) episodes of at least `minCycles` cycles. Each
// event keeps the time of its first beat (capped lists, counts always exact).

export type EctopicClass = 'S' | 'V'

export interface RunStats {
  singles: number
  couplets: number
  runs: number
  /** Longest run in beats (0 when none). */
  longestRun: number
  /** Fastest rate of a run of 3+ beats, in bpm (null when none). */
  fastestRunBpm: number | null
  /** Start times (ms) of singles, couplets and runs, at most `cap` each. */
  singleTimesMs: number[]
  coupletTimesMs: number[]
  runTimesMs: number[]
}

export interface GeminyStats {
  episodes: number
  /** Start and end times (ms) of episodes, at most `cap`. */
  episodesMs: { startMs: number; endMs: number; cycles: number }[]
}

/** Tracks runs of one ectopic class. */
export function createRunTracker(cls: EctopicClass, cap = 100) {
  const s: RunStats = { singles: 0, couplets: 0, runs: 0, longestRun: 0, fastestRunBpm: null, singleTimesMs: [], coupletTimesMs: [], runTimesMs: [] }
  let len = 0
  let firstMs = 0
  let lastMs = 0
  const end = () => {
    if (len === 1) push(s.singleTimesMs, firstMs, ++s.singles)
    else if (len === 2) push(s.coupletTimesMs, firstMs, ++s.couplets)
    else if (len >= 3) {
      push(s.runTimesMs, firstMs, ++s.runs)
      const bpm = lastMs > firstMs ? (60_000 * (len - 1)) / (lastMs - firstMs) : null
      if (bpm !== null && (s.fastestRunBpm === null || bpm > s.fastestRunBpm)) s.fastestRunBpm = Math.round(bpm * 10) / 10
    }
    if (len > s.longestRun) s.longestRun = len
    len = 0
  }
  const push = (list: number[], t: number, count: number) => {
    if (count <= cap) list.push(t)
  }
  return {
    add(label: string, timeMs: number): void {
      if (label === cls) {
        if (len === 0) firstMs = timeMs
        lastMs = timeMs
        len++
      } else end()
    },
    finish(): RunStats {
      end()
      return s
    },
  }
}

/**
 * Tracks bigeminy (period 2) or trigeminy (period 3): a cycle is (period - 1) N beats then one
 * `cls` beat; an episode is at least `minCycles` consecutive cycles.
 */
export function createGeminyTracker(period: 2 | 3, cls: EctopicClass, minCycles = 3, cap = 100) {
  const s: GeminyStats = { episodes: 0, episodesMs: [] }
  let normalTimes: number[] = [] // the latest N beats (at most period - 1) since the last ectopic
  let cycles = 0
  let startMs = 0
  let lastMs = 0
  const close = () => {
    if (cycles >= minCycles) {
      s.episodes++
      if (s.episodes <= cap) s.episodesMs.push({ startMs, endMs: lastMs, cycles })
    }
    cycles = 0
  }
  return {
    add(label: string, timeMs: number): void {
      if (label === 'N') {
        normalTimes.push(timeMs)
        if (normalTimes.length > period - 1) {
          // One N too many for the pattern: an open episode ends; the latest N may start a new one.
          normalTimes.shift()
          close()
        }
      } else if (label === cls && normalTimes.length === period - 1) {
        if (cycles === 0) startMs = normalTimes[0]
        cycles++
        lastMs = timeMs
        normalTimes = []
      } else {
        close()
        normalTimes = []
      }
    },
    finish(): GeminyStats {
      close()
      return s
    },
  }
}
