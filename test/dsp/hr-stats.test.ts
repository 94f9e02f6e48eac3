// The heart-rate tracker (unit layer): one basis for every rate (every beat, windows of avgBeats
// intervals in whole ticks), min <= mean <= max at every edge a stream can have (runs shorter
// than a window, breaks, a window's first and last intervals, zero-length intervals), exact ties,
// and the instantaneous extremes beside the averaged ones.
import { describe, expect, it } from 'vitest'
import { createHrTracker, type HrStats } from '../../src/dsp/hr-stats.ts'
import { syntheticRecord } from '../helpers/synthetic-beats.ts'
import { rng } from '../helpers/seeded-random.ts'

// Feeds beat times (ms); "|" interrupts (an artifact period or a gap).
function track(times: (number | '|')[], avgBeats = 8): HrStats {
  const t = createHrTracker({ avgBeats })
  for (const x of times) {
    if (x === '|') t.interrupt()
    else t.add(x)
  }
  return t.finish()
}

// Times from intervals (ms), starting at 0; "|" passes through.
function fromIntervals(rrs: (number | '|')[]): (number | '|')[] {
  const out: (number | '|')[] = [0]
  let t = 0
  for (const rr of rrs) {
    if (rr === '|') {
      out.push('|')
      t += 5000
    } else t += rr
    out.push(t)
  }
  return out
}

function expectOrdered(s: HrStats, what: string): void {
  if (s.meanHrBpm === null) {
    expect([s.maxHr, s.minHr], what).toEqual([null, null])
    return
  }
  expect(s.minHr!.bpm, what).toBeLessThanOrEqual(s.meanHrBpm)
  expect(s.meanHrBpm, what).toBeLessThanOrEqual(s.maxHr!.bpm)
}

describe('min <= mean <= max', () => {
  it.each([
    // With the mean over every interval, the short edge intervals of [100, 1000, 100] would give
    // 3 beats in 1.2 s (150 bpm) against a fastest 2-interval window of 109 bpm.
    { name: 'fast intervals at both edges of a run', rrs: [100, 1000, 100], k: 2 },
    { name: 'slow intervals at both edges of a run', rrs: [3000, 500, 500, 3000], k: 2 },
    { name: 'a run shorter than a window beside a long one', rrs: [300, 300, 300, '|', ...Array(12).fill(1000)], k: 8 },
    { name: 'a break in a steady rhythm', rrs: [...Array(10).fill(800), '|', ...Array(10).fill(600)], k: 8 },
    { name: 'a pause and a PVC', rrs: [...Array(9).fill(800), 450, 1150, ...Array(9).fill(800), 2600, ...Array(9).fill(800)], k: 8 },
    { name: 'two beats at one time restart the window', rrs: [...Array(9).fill(700), 0, ...Array(9).fill(1100)], k: 8 },
    { name: 'one window exactly', rrs: Array(8).fill(750), k: 8 },
  ] as { name: string; rrs: (number | '|')[]; k: number }[])('$name', ({ rrs, k }) => {
    const s = track(fromIntervals(rrs), k)
    expect(s.meanHrBpm).not.toBeNull()
    expectOrdered(s, JSON.stringify(rrs))
  })

  it('no window at all: no mean and no extremes, but the intervals and instantaneous extremes are there', () => {
    const s = track(fromIntervals([500, 600, '|', 700, 800]), 8)
    expect(s).toMatchObject({ rrIntervals: 4, windows: 0, meanHrBpm: null, maxHr: null, minHr: null, tachyPct: null, bradyPct: null })
    expect(s.fastestBeat).toMatchObject({ bpm: 120, rrMs: 500, timeMs: 500 })
    expect(s.slowestBeat).toMatchObject({ bpm: 75, rrMs: 800, timeMs: 7600 })
  })

  it('holds on random streams with breaks, pauses and ectopic intervals', () => {
    const r = rng(41)
    for (let k = 0; k < 500; k++) {
      const rrs: (number | '|')[] = Array.from({ length: 5 + Math.floor(r() * 120) }, () => (r() < 0.03 ? '|' : r() < 0.05 ? 2000 + r() * 2000 : Math.round((300 + r() * 900) * 1000) / 1000))
      const k8 = 1 + Math.floor(r() * 10)
      expectOrdered(track(fromIntervals(rrs), k8), `case ${k}`)
    }
  })

  it('holds on synthetic records in samples (ectopy, couplets, runs, pauses, fast and slow stretches)', () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
      for (const ex of syntheticRecord(seed, 6, 60)) {
        const t = createHrTracker({ avgBeats: 8, fs: 360 })
        for (const b of ex.beats) t.add(b.timeMs, b.sample)
        expectOrdered(t.finish(), `${seed} ${ex.startMs}`)
      }
    }
  })
})

describe('one basis', () => {
  it('counts every beat whatever its label: the mean is the windows\' beats per minute', () => {
    // 17 intervals of 1000 ms: 10 windows of 8 s, whatever the beats are.
    const s = track(fromIntervals(Array(17).fill(1000)))
    expect(s).toMatchObject({ rrIntervals: 17, windows: 10, meanHrBpm: 60, maxHr: { bpm: 60, timeMs: 8000, ties: 10 }, minHr: { bpm: 60, ties: 10 } })
  })

  it('times the share above / below a rate by the windows\' averaged rate', () => {
    // 8 windows at 120 bpm (4 s each) then, after a break, 8 at 50 (9.6 s each).
    const s = track(fromIntervals([...Array(15).fill(500), '|', ...Array(15).fill(1200)]))
    expect(s.tachyPct).toBe(Math.round((1000 * 8 * 4000) / (8 * 4000 + 8 * 9600)) / 10)
    expect(s.bradyPct).toBe(Math.round((1000 * 8 * 9600) / (8 * 4000 + 8 * 9600)) / 10)
  })

  it('counts windows of exactly the same length in samples as ties, whatever float noise their times carry', () => {
    // At 360 Hz, 8 intervals of 108.375 samples cannot be, but 867 samples over 8 intervals can:
    // 108 x 5 + 109 x 3 in two different orders.
    const t = createHrTracker({ avgBeats: 8, fs: 360 })
    const rrs = [108, 109, 108, 109, 108, 109, 108, 108, 108, 109, 108, 109, 108, 109, 108, 108, 200]
    let sample = 1000
    t.add(Math.round((sample * 1e6) / 360) / 1e3, sample)
    for (const rr of rrs) {
      sample += rr
      t.add(Math.round((sample * 1e6) / 360) / 1e3, sample)
    }
    const s = t.finish()
    expect(s.maxHr).toMatchObject({ bpm: Math.round((10 * 60 * 360 * 8) / 867) / 10, ties: 9 })
  })
})
