import { describe, expect, it } from 'vitest'
import { type WinRateEntry, type WinRateOptions, winRate, winRateSignature } from '../../src/metrics/win-rate.ts'

// Three contests: acc (higher better), mae (lower better) with A and B tied, and acc x video.
const ENTRIES: WinRateEntry[] = [
  { task: 'acc', model: 'A', value: 0.8 },
  { task: 'acc', model: 'B', value: 0.7 },
  { task: 'acc', model: 'C', value: 0.6 },
  { task: 'mae', model: 'A', value: 2 },
  { task: 'mae', model: 'B', value: 2 },
  { task: 'mae', model: 'C', value: 5 },
  { task: 'acc', setting: 'video', model: 'A', value: 0.1 },
  { task: 'acc', setting: 'video', model: 'B', value: null },
  { task: 'acc', setting: 'video', model: 'C', value: 0.3 },
]

describe('winRate', () => {
  it.each([
    ['shared (default): each tied model wins', {}, { A: 2, B: 1, C: 1 }],
    ['split: a tie gives 1/k each', { ties: 'split' }, { A: 1.5, B: 0.5, C: 1 }],
    ['none: nobody wins a tie', { ties: 'none' }, { A: 1, B: 0, C: 1 }],
  ] as const)('%s', (_n, opts, wins) => {
    const r = winRate(ENTRIES, { lowerIsBetter: ['mae'], ...(opts as WinRateOptions) })
    for (const [m, w] of Object.entries(wins)) {
      expect(r.models[m].wins).toBeCloseTo(w, 12)
      expect(r.models[m].contests).toBe(3)
      expect(r.models[m].rate).toBeCloseTo(w / 3, 12)
    }
    expect(r.models.B.entered).toBe(2) // no score in acc x video: a loss there, not skipped
  })

  it('uses the direction: without lowerIsBetter the worst MAE wins', () => {
    const r = winRate(ENTRIES)
    expect(r.contests.find((c) => c.task === 'mae')!.best).toEqual(['C'])
  })

  it('lists the best models of each contest, setting included', () => {
    const r = winRate(ENTRIES, { lowerIsBetter: ['mae'] })
    expect(r.contests).toEqual([
      { task: 'acc', best: ['A'] },
      { task: 'mae', best: ['A', 'B'] },
      { task: 'acc', setting: 'video', best: ['C'] },
    ])
  })

  it('treats scores within tieTolerance as tied', () => {
    const r = winRate([{ task: 't', model: 'A', value: 0.8 }, { task: 't', model: 'B', value: 0.7999 }], { tieTolerance: 1e-3 })
    expect(r.contests[0].best).toEqual(['A', 'B'])
  })

  it.each([
    ['no entries', [], {}],
    ['no finite score', [{ task: 't', model: 'A', value: Number.NaN }], { A: { wins: 0, contests: 0, entered: 0, rate: null } }],
  ] as const)('%s', (_n, entries, models) => {
    expect(winRate([...entries]).models).toEqual(models)
  })

  it('rejects two scores of one model in one contest, and bad options', () => {
    expect(() => winRate([{ task: 't', model: 'A', value: 1 }, { task: 't', model: 'A', value: 2 }])).toThrow(/two scores/)
    expect(() => winRate([], { ties: 'half' as never })).toThrow(/ties must be/)
  })

  it('signs its settings', () => {
    expect(winRateSignature({ lowerIsBetter: ['mae', 'age'] })).toBe('win-rate|ties:shared|tol:0|lower:age,mae|missing:loss')
  })
})
