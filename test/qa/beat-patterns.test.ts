// Patterns of an excerpt's beat sequence (unit layer, table-driven): runs, bigeminy / trigeminy,
// long RR intervals, the 8-beat average of every beat (the HR tracker's own series, which the
// facts of an excerpt use), sustained rates, and which patterns touch the excerpt's edge.
import { describe, expect, it } from 'vitest'
import { findGeminy, findLongRr, findRuns, findSustainedRate, geminyAtEdge, rateAtEdge, spanAtEdge, sustainedExtreme, type PatternBeat, type Span } from '../../src/qa/beat-patterns.ts'
import { createHrTracker } from '../../src/dsp/hr-stats.ts'
import { rng } from '../helpers/seeded-random.ts'

// "NV|VN": one beat per letter, 800 ms apart; "|" marks the next beat as following a break.
function seq(text: string, rrMs = 800): PatternBeat[] {
  const out: PatternBeat[] = []
  let brk = false
  for (const c of text) {
    if (c === '|') {
      brk = true
      continue
    }
    out.push({ timeMs: out.length * rrMs, label: c, ...(brk ? { afterBreak: true } : {}) })
    brk = false
  }
  return out
}
const spans = (xs: Span[]) => xs.map((s) => [s.first, s.last, s.at])
// The HR tracker's averaged rate at each beat (as an excerpt's facts take it), a break as an interrupt.
function averagedHr(beats: readonly PatternBeat[], n: number): Float64Array {
  const t = createHrTracker({ avgBeats: n })
  return Float64Array.from(beats, (b) => {
    if (b.afterBreak) t.interrupt()
    return t.add(b.timeMs)
  })
}
// Beats at the given times (ms), all N unless labelled, "|" before a time marks a break.
const timed = (times: (number | string)[]): PatternBeat[] => {
  const out: PatternBeat[] = []
  let brk = false
  for (const t of times) {
    if (t === '|') {
      brk = true
      continue
    }
    out.push({ timeMs: Number(t), label: 'N', ...(brk ? { afterBreak: true } : {}) })
    brk = false
  }
  return out
}

// A random beat sequence: mostly N with S, V, Q sprinkled, jittered intervals, some breaks.
function randomBeats(r: () => number, n: number, o: { breaks: number; ectopic: number }): PatternBeat[] {
  const out: PatternBeat[] = []
  let t = 300 + r() * 500
  for (let i = 0; i < n; i++) {
    const x = r()
    const label = x < o.ectopic * 0.6 ? 'V' : x < o.ectopic * 0.9 ? 'S' : x < o.ectopic ? 'Q' : 'N'
    t += 400 + r() * 900
    out.push({ timeMs: Math.round(t * 1000) / 1000, label, ...(i > 0 && r() < o.breaks ? { afterBreak: true } : {}) })
  }
  return out
}

describe('findRuns', () => {
  it.each([
    { name: 'a couplet and a run, by size', text: 'NVVNVVVN', min: 2, max: 2, want: [[1, 2, 1]] },
    { name: 'runs of 3+', text: 'NVVNVVVN', min: 3, max: Infinity, want: [[4, 6, 4]] },
    { name: 'singles', text: 'NVNVVN', min: 1, max: 1, want: [[1, 1, 1]] },
    { name: 'every run', text: 'NVNVVN', min: 1, max: Infinity, want: [[1, 1, 1], [3, 4, 3]] },
    { name: 'a run at the start', text: 'VVNN', min: 2, max: 2, want: [[0, 1, 0]] },
    { name: 'a run at the end', text: 'NNVVV', min: 3, max: Infinity, want: [[2, 4, 2]] },
    { name: 'the whole sequence', text: 'VVVV', min: 1, max: Infinity, want: [[0, 3, 0]] },
    { name: 'longer than max', text: 'VVVV', min: 2, max: 3, want: [] },
    { name: 'a break splits a run', text: 'NV|VN', min: 2, max: Infinity, want: [] },
    { name: 'a break splits a run into two singles', text: 'NV|VN', min: 1, max: 1, want: [[1, 1, 1], [2, 2, 2]] },
    { name: 'a break splits a run of 4 into couplets', text: 'VV|VV', min: 2, max: 2, want: [[0, 1, 0], [2, 3, 2]] },
    { name: 'a break before a non-run beat changes nothing', text: 'VV|NVV', min: 2, max: 2, want: [[0, 1, 0], [3, 4, 3]] },
    { name: 'a break on the first beat', text: '|VVN', min: 2, max: 2, want: [[0, 1, 0]] },
    { name: 'other classes end a run', text: 'VVSVVQVV', min: 2, max: 2, want: [[0, 1, 0], [3, 4, 3], [6, 7, 6]] },
    { name: 'another class', text: 'SSSVSS', min: 2, max: 2, want: [[4, 5, 4]], of: 'S' },
    { name: 'empty', text: '', min: 1, max: Infinity, want: [] },
  ])('$name', ({ text, min, max, want, of }) => {
    expect(spans(findRuns(seq(text), of ?? 'V', min, max))).toEqual(want)
  })
})

describe('findGeminy', () => {
  it.each([
    { name: 'bigeminy of 3 cycles', text: 'NVNVNV', period: 2, min: 3, want: [[0, 5, 0]] },
    { name: 'bigeminy with a trailing N', text: 'NNVNVNVN', period: 2, min: 3, want: [[1, 6, 1]] },
    { name: 'too few cycles', text: 'NVNVNN', period: 2, min: 3, want: [] },
    { name: 'two cycles, then NN breaks it, then three', text: 'NVNVNNVNVNV', period: 2, min: 3, want: [[5, 10, 5]] },
    { name: 'two episodes with minCycles 2', text: 'NVNVNNVNVNV', period: 2, min: 2, want: [[0, 3, 0], [5, 10, 5]] },
    { name: 'interrupted by another class', text: 'NVNVSNVNVNV', period: 2, min: 3, want: [[5, 10, 5]] },
    { name: 'interrupted by a couplet', text: 'NVNVVNVNVNV', period: 2, min: 3, want: [[5, 10, 5]] },
    { name: 'interrupted by a break', text: 'NVNV|NVNV', period: 2, min: 3, want: [] },
    { name: 'a break splits it into two', text: 'NVNV|NVNV', period: 2, min: 2, want: [[0, 3, 0], [4, 7, 4]] },
    { name: 'a break inside the N of a cycle', text: 'NVNVN|VNVNVNV', period: 2, min: 3, want: [[6, 11, 6]] },
    { name: 'trigeminy of 3 cycles', text: 'NNVNNVNNV', period: 3, min: 3, want: [[0, 8, 0]] },
    { name: 'trigeminy is not bigeminy', text: 'NNVNNVNNV', period: 2, min: 3, want: [] },
    { name: 'bigeminy is not trigeminy', text: 'NVNVNVNV', period: 3, min: 3, want: [] },
    { name: 'trigeminy broken by NNN', text: 'NNVNNVNNNVNNVNNV', period: 3, min: 3, want: [[7, 15, 7]] },
    { name: 'supraventricular bigeminy', text: 'NSNSNS', period: 2, min: 3, want: [[0, 5, 0]], of: 'S' },
    { name: 'no leading N', text: 'VNVNVNV', period: 2, min: 3, want: [[1, 6, 1]] },
  ])('$name', ({ text, period, min, want, of }) => {
    expect(spans(findGeminy(seq(text), (of ?? 'V') as 'S' | 'V', period as 2 | 3, min))).toEqual(want)
  })
})

describe('findLongRr', () => {
  // Intervals: 800, 2200, 3100, 2000, 2000.5, 3000, 800.
  const beats = timed([0, 800, 3000, 6100, 8100, 10_100.5, 13_100.5, 13_900.5])
  it.each([
    { name: '(2000, 3000]: the bounds are open below, closed above', above: 2000, below: 3000, want: [[1, 2, 1], [4, 5, 4], [5, 6, 5]] },
    { name: 'above 3000', above: 3000, below: Infinity, want: [[2, 3, 2]] },
    { name: 'any above 2000', above: 2000, below: Infinity, want: [[1, 2, 1], [2, 3, 2], [4, 5, 4], [5, 6, 5]] },
    { name: 'none', above: 5000, below: Infinity, want: [] },
  ])('$name', ({ above, below, want }) => {
    expect(spans(findLongRr(beats, above, below))).toEqual(want)
  })

  it.each([
    { name: 'never across a break', times: [0, 800, '|', 5000, 5800], want: [] },
    { name: 'the interval after the broken one counts', times: [0, '|', 3000, 5500], want: [[1, 2, 1]] },
    { name: 'a single beat', times: [0], want: [] },
  ])('$name', ({ times, want }) => {
    expect(spans(findLongRr(timed(times), 2000))).toEqual(want)
  })
})

// The reference: at beat i, the mean of the n intervals ending at i when every one of them joins
// two consecutive beats (any label, no break, positive), else NaN.
function naiveAveragedHr(beats: readonly PatternBeat[], n: number): number[] {
  return beats.map((_, i) => {
    if (i < n) return NaN
    let sum = 0
    for (let j = i - n + 1; j <= i; j++) {
      const rr = beats[j].timeMs - beats[j - 1].timeMs
      if (beats[j].afterBreak || !(rr > 0)) return NaN
      sum += rr
    }
    return 60_000 / (sum / n)
  })
}

describe('the HR tracker\'s averaged rate per beat', () => {
  const finite = (xs: ArrayLike<number>) => Array.from(xs, (x, i) => (Number.isFinite(x) ? i : -1)).filter((i) => i >= 0)
  it.each([
    { name: 'first value at the 9th beat of an N run', text: 'NNNNNNNNNN', want: [8, 9] },
    // Every beat the ventricles make counts: a V is one more beat in the window, never a reset.
    { name: 'a V is in the window like any beat', text: 'NNNNNNNNNVNNNNNNNNN', want: [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18] },
    { name: 'an unclassifiable beat too', text: 'NNNNQNNNNN', want: [8, 9] },
    { name: 'a break resets it', text: 'NNNNNNNNN|NNNNNNNNN', want: [8, 17] },
    { name: 'a break one beat short of a window', text: 'NNNNNNNN|NNNNNNNNN', want: [16] },
    { name: 'too short', text: 'NNNNNNNN', want: [] },
  ])('$name', ({ text, want }) => {
    expect(finite(averagedHr(seq(text), 8))).toEqual(want)
  })

  it('is 60000 / the mean of the last 8 intervals', () => {
    const beats = timed([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 8500, 9000])
    const hr = averagedHr(beats, 8)
    expect(hr[8]).toBeCloseTo(60, 10)
    expect(hr[9]).toBeCloseTo(60_000 / ((7 * 1000 + 500) / 8), 10)
    expect(hr[10]).toBeCloseTo(60_000 / ((6 * 1000 + 2 * 500) / 8), 10)
    expect(Array.from(averagedHr(beats, 2)).slice(0, 3)).toEqual([NaN, NaN, 60])
    // Two beats at the same time are no interval: the window restarts.
    const same = timed([0, 1000, 2000, 2000, 3000, 4000])
    expect(finite(averagedHr(same, 2))).toEqual([2, 5])
  })

  it('matches the direct mean on random sequences', () => {
    const r = rng(5)
    for (let k = 0; k < 100; k++) {
      const beats = randomBeats(r, 150, { breaks: 0.01, ectopic: r() * 0.08 })
      const got = averagedHr(beats, 8)
      const want = naiveAveragedHr(beats, 8)
      expect(finite(got)).toEqual(finite(want))
      for (const i of finite(want)) expect(got[i]).toBeCloseTo(want[i], 8)
    }
  })

  it('its max and min are createHrTracker\'s maxHr and minHr (rounded to 0.1 bpm, at the same beat, ties counted) on random sequences', () => {
    const r = rng(17)
    let compared = 0
    for (let k = 0; k < 300; k++) {
      const beats = randomBeats(r, 30 + Math.floor(r() * 300), { breaks: k % 3 ? 0.01 : 0, ectopic: r() * 0.1 })
      const tracker = createHrTracker({ avgBeats: 8 })
      for (const b of beats) {
        if (b.afterBreak) tracker.interrupt()
        tracker.add(b.timeMs)
      }
      const s = tracker.finish()
      const hr = averagedHr(beats, 8)
      let hi = -1
      let lo = -1
      for (let i = 0; i < hr.length; i++) {
        if (!Number.isFinite(hr[i])) continue
        if (hi < 0 || hr[i] > hr[hi]) hi = i
        if (lo < 0 || hr[i] < hr[lo]) lo = i
      }
      if (hi < 0) {
        expect([s.maxHr, s.minHr]).toEqual([null, null])
        continue
      }
      compared++
      const ties = (x: number) => Array.from(hr).filter((y) => y === x).length
      expect(s.maxHr).toEqual({ bpm: Math.round(hr[hi] * 10) / 10, timeMs: beats[hi].timeMs, ties: ties(hr[hi]) })
      expect(s.minHr).toEqual({ bpm: Math.round(hr[lo] * 10) / 10, timeMs: beats[lo].timeMs, ties: ties(hr[lo]) })
    }
    expect(compared).toBeGreaterThan(200)
  })
})

describe('findSustainedRate', () => {
  // Beats a second apart with the given averaged rates (NaN: no full window there).
  const at = (hr: number[]) => ({ beats: hr.map((_, i) => ({ timeMs: i * 1000, label: 'N' })), hr: Float64Array.from(hr) })
  const all = () => true
  it.each([
    { name: 'above, held exactly sustainMs', hr: [90, 90, 110, 110, 110, 110, 110, 90], o: { aboveBpm: 100, sustainMs: 4000 }, want: [[2, 6, 2]] },
    { name: 'above, one ms short', hr: [90, 90, 110, 110, 110, 110, 110, 90], o: { aboveBpm: 100, sustainMs: 4001 }, want: [] },
    { name: 'the threshold itself does not qualify', hr: [100, 100, 100, 100], o: { aboveBpm: 100, sustainMs: 0 }, want: [] },
    { name: 'open at the end', hr: [90, 110, 110, 110], o: { aboveBpm: 100, sustainMs: 2000 }, want: [[1, 3, 1]] },
    { name: 'from the start', hr: [110, 110, 110, 90], o: { aboveBpm: 100, sustainMs: 2000 }, want: [[0, 2, 0]] },
    { name: 'NaN splits an episode', hr: [110, 110, NaN, 110, 110, 110], o: { aboveBpm: 100, sustainMs: 2000 }, want: [[3, 5, 3]] },
    { name: 'two episodes', hr: [110, 110, 110, 90, 110, 110, 110], o: { aboveBpm: 100, sustainMs: 2000 }, want: [[0, 2, 0], [4, 6, 4]] },
    { name: 'below', hr: [70, 55, 55, 55, 70], o: { belowBpm: 60, sustainMs: 2000 }, want: [[1, 3, 1]] },
    { name: 'below, NaN is not slow', hr: [NaN, NaN, NaN, NaN], o: { belowBpm: 60, sustainMs: 0 }, want: [] },
  ])('$name', ({ hr, o, want }) => {
    const x = at(hr)
    expect(spans(findSustainedRate(x.beats, x.hr, o, all))).toEqual(want)
  })

  it('counts only allowed beats: a beat outside the sinus context splits the episode', () => {
    const x = at([110, 110, 110, 110, 110, 110, 110])
    expect(spans(findSustainedRate(x.beats, x.hr, { aboveBpm: 100, sustainMs: 2000 }, (i) => i !== 3))).toEqual([[0, 2, 0], [4, 6, 4]])
    expect(spans(findSustainedRate(x.beats, x.hr, { aboveBpm: 100, sustainMs: 3000 }, (i) => i !== 3))).toEqual([])
  })

  it('finds the sustained episode on averagedHr: timed at the first beat whose average qualifies', () => {
    // 10 beats at 60 bpm, then 50 at 120 bpm.
    const times: number[] = []
    for (let i = 0, t = 0; i < 60; i++, t += i <= 10 ? 1000 : 500) times.push(t)
    const beats = timed(times)
    const hr = averagedHr(beats, 8)
    const got = findSustainedRate(beats, hr, { aboveBpm: 100, sustainMs: 15_000 }, () => true)
    const first = Array.from(hr).findIndex((x) => x > 100)
    expect(spans(got)).toEqual([[first, 59, first]])
    expect(hr[first - 1]).toBeLessThanOrEqual(100)
  })
})

// The excerpt's first beat, and the first after a break, follow a beat no one sees: a pattern
// reaching back to it may have begun before, so it has no onset in the excerpt.
describe('patterns at the excerpt\'s edge', () => {
  it.each([
    { name: 'a run on the first beat', text: 'VVNN', want: [true] },
    { name: 'a run on the first beat after a break', text: 'NN|VVN', want: [true] },
    { name: 'a run with a beat seen before it', text: 'NVVN', want: [false] },
    { name: 'one of each', text: 'VVNVVN', want: [true, false] },
  ])('spanAtEdge: $name', ({ text, want }) => {
    const beats = seq(text)
    expect(findRuns(beats, 'V', 2, 2).map((x) => spanAtEdge(beats, x))).toEqual(want)
  })

  it.each([
    { name: 'bigeminy from the first beat', text: 'NVNVNVNN', period: 2, want: [true] },
    { name: 'bigeminy whose first N follows a V on the first beat (the V ends a cycle)', text: 'VNVNVNVN', period: 2, want: [true] },
    { name: 'bigeminy after an N on the first beat (N N is no cycle end)', text: 'NNVNVNVN', period: 2, want: [false] },
    { name: 'bigeminy right after a break, then a V', text: 'NNN|VNVNVNV', period: 2, want: [true] },
    { name: 'trigeminy with N V before its first N', text: 'NVNNVNNVNNVN', period: 3, want: [true] },
    { name: 'trigeminy with V N before its first N (not a cycle end)', text: 'VNNNVNNVNNV', period: 3, want: [false] },
    { name: 'trigeminy a whole cycle in', text: 'NNNNNVNNVNNV', period: 3, want: [false] },
  ])('geminyAtEdge: $name', ({ text, period, want }) => {
    const beats = seq(text)
    const found = findGeminy(beats, 'V', period as 2 | 3, 3)
    expect(found.map((x) => geminyAtEdge(beats, x, 'V', period as 2 | 3))).toEqual(want)
  })

  it('rateAtEdge: an episode from the first full window has no onset; one that starts later has', () => {
    const hr = Float64Array.from([NaN, NaN, 110, 110, 110, 90, 110, 110, 110, NaN, 110, 110, 110])
    const beats = Array.from(hr, (_, i) => ({ timeMs: i * 1000, label: 'N' }))
    const found = findSustainedRate(beats, hr, { aboveBpm: 100, sustainMs: 2000 }, () => true)
    expect(found.map((x) => [x.first, rateAtEdge(hr, x)])).toEqual([[2, true], [6, false], [10, true]])
  })
})

describe('sustainedExtreme', () => {
  const at = (hr: number[]) => ({ beats: hr.map((_, i) => ({ timeMs: i * 1000, label: 'N' })), hr: Float64Array.from(hr) })
  it.each([
    { name: 'the highest rate held for 2 s', hr: [90, 99, 98, 97, 120, 95], o: { aboveBpm: 100, sustainMs: 2000 }, want: 97 },
    { name: 'the lowest rate held for 2 s', hr: [70, 58, 59, 61, 50, 70], o: { belowBpm: 60, sustainMs: 2000 }, want: 61 },
    { name: 'no stretch that long', hr: [110, 110], o: { aboveBpm: 100, sustainMs: 2000 }, want: null },
    { name: 'NaN cuts a stretch', hr: [110, NaN, 110, 110], o: { aboveBpm: 100, sustainMs: 2000 }, want: null },
  ])('$name', ({ hr, o, want }) => {
    const x = at(hr)
    expect(sustainedExtreme(x.beats, x.hr, o, () => true)).toBe(want)
  })

  it('is beyond the threshold exactly where findSustainedRate finds an episode (random series)', () => {
    const r = rng(29)
    for (let k = 0; k < 300; k++) {
      const hr = Array.from({ length: 40 }, () => (r() < 0.05 ? NaN : 90 + r() * 20))
      const x = at(hr)
      const allowed = (i: number) => i % 17 !== 5
      for (const o of [{ aboveBpm: 100, sustainMs: 3000 }, { belowBpm: 100, sustainMs: 3000 }]) {
        const held = sustainedExtreme(x.beats, x.hr, o, allowed)
        const beyond = held !== null && (o.aboveBpm !== undefined ? held > o.aboveBpm : held < o.belowBpm!)
        expect(beyond).toBe(findSustainedRate(x.beats, x.hr, o, allowed).length > 0)
      }
    }
  })
})

describe('findLongRr with a rule on the interval', () => {
  it('keeps only the intervals `allowed` (by the beat ending them)', () => {
    const beats = timed([0, 2500, 5000, 7500])
    expect(spans(findLongRr(beats, 2000, 3000, (i) => i !== 2))).toEqual([[0, 1, 0], [2, 3, 2]])
  })
})
