import { describe, expect, it } from 'vitest'
import { toBeatSeries } from '../../src/formats/aami-classes.ts'
import { EC57_SKIP_MS, NO_BEAT, grossStats, scoreBeats, statsFromConfusion } from '../../src/metrics/bxb-stats.ts'

const FS = 360
const series = (pairs: Array<[number, string]>) => toBeatSeries(pairs.map((p) => p[0]), pairs.map((p) => p[1]))
const [N, S, V, F, Q] = [0, 1, 2, 3, 4]

/** A 6x6 matrix with the given cells set. */
function matrix(cells: Array<[number, number, number]>): number[][] {
  const m = Array.from({ length: 6 }, () => new Array<number>(6).fill(0))
  for (const [r, c, n] of cells) m[r][c] = n
  return m
}

describe('scoreBeats', () => {
  it('fills the confusion matrix: matched pairs by class, missed in column o, extras in row O', () => {
    const ref = series([[1000, 'N'], [1400, 'V'], [1800, 'A'], [2200, 'F'], [2600, 'N'], [3000, '+'], [3400, 'V']])
    const test = series([[1005, 'N'], [1395, 'V'], [1810, 'N'], [2200, 'V'], [2900, 'V'], [3400, 'V']])
    const { whole } = scoreBeats(ref, test, { fs: FS })
    expect(whole.confusion).toEqual(
      matrix([[N, N, 1], [V, V, 2], [S, N, 1], [F, V, 1], [N, NO_BEAT, 1], [NO_BEAT, V, 1]]),
    )
    expect(whole).toMatchObject({ refBeats: 6, detections: 6, matched: 5, missed: 1, extra: 1 })
    expect(whole.qrsSe).toEqual({ num: 5, den: 6, pct: (100 * 5) / 6 })
    expect(whole.qrsPP).toEqual({ num: 5, den: 6, pct: (100 * 5) / 6 })
    // VEB: TP Vv = 2; FP = Nv+Sv+Ov = 1 (the extra); Fv is not an error.
    expect(whole.vebSe).toEqual({ num: 2, den: 2, pct: 100 })
    expect(whole.vebPP).toEqual({ num: 2, den: 3, pct: (100 * 2) / 3 })
    // SVEB: the A beat called n is a false negative; nothing was called s.
    expect(whole.svebSe).toEqual({ num: 0, den: 1, pct: 0 })
    expect(whole.svebPP).toEqual({ num: 0, den: 0, pct: null })
  })

  it('scores empty inputs without dividing by zero', () => {
    const none = toBeatSeries([])
    const beats = toBeatSeries([100, 500], ['N', 'N'])
    expect(scoreBeats(none, none, { fs: FS }).whole).toMatchObject({ refBeats: 0, detections: 0, qrsSe: { pct: null }, qrsPP: { pct: null } })
    expect(scoreBeats(beats, none, { fs: FS }).whole).toMatchObject({ missed: 2, qrsSe: { num: 0, den: 2, pct: 0 }, qrsPP: { pct: null } })
    expect(scoreBeats(none, beats, { fs: FS }).whole).toMatchObject({ extra: 2, qrsSe: { pct: null }, qrsPP: { num: 0, den: 2, pct: 0 } })
  })

  it('uses the window option (in ms at fs)', () => {
    const ref = toBeatSeries([1000], ['N'])
    const test = toBeatSeries([1030])
    expect(scoreBeats(ref, test, { fs: FS }).whole.matched).toBe(1)
    expect(scoreBeats(ref, test, { fs: FS, windowMs: 50 }).whole.matched).toBe(0) // 18 samples
  })
})

describe('EC57 skip of the first 5 minutes', () => {
  const start = (EC57_SKIP_MS / 1000) * FS // sample 108000

  it('counts beats from the boundary sample on, and reports the whole record as well', () => {
    const ref = series([[start - 1, 'V'], [start, 'N'], [start + 400, 'N']])
    const test = series([[start - 1, 'V'], [start, 'N'], [start + 400, 'N']])
    const score = scoreBeats(ref, test, { fs: FS })
    expect(score.afterSkip.startSample).toBe(start)
    expect(score.afterSkip).toMatchObject({ refBeats: 2, matched: 2, vebSe: { den: 0 } })
    expect(score.whole).toMatchObject({ startSample: 0, refBeats: 3, matched: 3, vebSe: { num: 1, den: 1 } })
  })

  it('keeps a pair that straddles the boundary when its reference beat is inside', () => {
    const score = scoreBeats(series([[start + 10, 'N']]), series([[start - 10, 'N']]), { fs: FS })
    expect(score.afterSkip).toMatchObject({ refBeats: 1, matched: 1, extra: 0 })
  })

  it('drops a detection inside the period whose reference beat is before it, instead of calling it extra', () => {
    const score = scoreBeats(series([[start - 10, 'N']]), series([[start + 10, 'N']]), { fs: FS })
    expect(score.afterSkip).toMatchObject({ refBeats: 0, detections: 0, extra: 0 })
  })

  it('counts unpaired beats on their own side of the boundary', () => {
    const score = scoreBeats(series([[start - 1, 'N'], [start + 1000, 'N']]), series([[start - 500, 'N'], [start + 2000, 'N']]), { fs: FS })
    expect(score.afterSkip).toMatchObject({ missed: 1, extra: 1 })
    expect(score.whole).toMatchObject({ missed: 2, extra: 2 })
  })

  it('takes a custom skip length', () => {
    const score = scoreBeats(series([[100, 'N'], [3700, 'N']]), series([]), { fs: FS, skipMs: 10_000 })
    expect(score.afterSkip).toMatchObject({ startSample: 3600, missed: 1 })
  })
})

describe('statsFromConfusion', () => {
  it('follows EC57 / bxb for which cells count in VEB and SVEB statistics', () => {
    // Every cell a distinct power of two, so a wrong cell shows up in the sum.
    const m = matrix([])
    let bit = 1
    for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) if (!(r === 5 && c === 5)) (m[r][c] = bit), (bit *= 2)
    const at = (r: number, c: number) => m[r][c]
    const s = statsFromConfusion(m, 0)
    expect(s.vebSe.num).toBe(at(V, V))
    expect(s.vebSe.den - s.vebSe.num).toBe(at(V, N) + at(V, S) + at(V, F) + at(V, Q) + at(V, NO_BEAT))
    expect(s.vebPP.den - s.vebPP.num).toBe(at(N, V) + at(S, V) + at(NO_BEAT, V))
    expect(s.svebSe.num).toBe(at(S, S))
    expect(s.svebSe.den - s.svebSe.num).toBe(at(S, N) + at(S, V) + at(S, F) + at(S, Q) + at(S, NO_BEAT))
    expect(s.svebPP.den - s.svebPP.num).toBe(at(N, S) + at(V, S) + at(F, S) + at(NO_BEAT, S))
    const tn = [N, S, F, Q, NO_BEAT].reduce((a, r) => a + [N, S, F, Q].reduce((b, c) => b + at(r, c), 0), 0)
    expect(s.vebFpr).toMatchObject({ num: s.vebPP.den - s.vebPP.num, den: tn + s.vebPP.den - s.vebPP.num })
  })
})

describe('grossStats', () => {
  it('sums the matrices, then computes the ratios (not an average of percentages)', () => {
    const a = statsFromConfusion(matrix([[N, N, 99], [N, NO_BEAT, 1]]), 0)
    const b = statsFromConfusion(matrix([[N, N, 1], [N, NO_BEAT, 1], [NO_BEAT, N, 2]]), 0)
    const g = grossStats([a, b])
    expect(g.qrsSe).toEqual({ num: 100, den: 102, pct: (100 * 100) / 102 })
    expect(g.qrsPP).toEqual({ num: 100, den: 102, pct: (100 * 100) / 102 })
    expect(a.confusion[N][N]).toBe(99) // inputs untouched
    expect(grossStats([]).qrsSe.pct).toBeNull()
  })
})
