// excerptTiles (unit layer): tiles from the excerpt's start, the last shorter, times from the
// excerpt's start so each tile ends where the next begins; file names and titles.
import { describe, expect, it } from 'vitest'
import { excerptTiles, tileFileName, tileMarkers, tileTitle } from '../../src/render/excerpt-tiles.ts'

const spans = (tiles: ReturnType<typeof excerptTiles>) => tiles.map((t) => [t.startSample, t.endSample, t.startMs, t.endMs])

describe('excerptTiles', () => {
  it.each([
    ['a multiple', { startSample: 0, endSample: 1000, startMs: 0 }, 250, 1, [[0, 250, 0, 1000], [250, 500, 1000, 2000], [500, 750, 2000, 3000], [750, 1000, 3000, 4000]]],
    ['a shorter last tile', { startSample: 100, endSample: 550, startMs: 400 }, 250, 1, [[100, 350, 400, 1400], [350, 550, 1400, 2200]]],
    ['three tiles, the last shorter', { startSample: 0, endSample: 620, startMs: 0 }, 250, 1, [[0, 250, 0, 1000], [250, 500, 1000, 2000], [500, 620, 2000, 2480]]],
    ['a span shorter than a tile', { startSample: 7, endSample: 57, startMs: 28 }, 250, 10, [[7, 57, 28, 228]]],
    ['an empty span', { startSample: 5, endSample: 5, startMs: 20 }, 250, 1, []],
  ])('%s', (_, span, fs, tileSec, expected) => {
    const tiles = excerptTiles(span, fs, tileSec)
    expect(spans(tiles)).toEqual(expected)
    expect(tiles.map((t) => [t.index, t.count])).toEqual(expected.map((_, k) => [k, expected.length]))
  })

  it('rounds the tile to whole samples, at least one, and keeps times exact across tiles', () => {
    const tiles = excerptTiles({ startSample: 0, endSample: 3600, startMs: 1000 }, 360, 0.7) // 252 samples
    expect(tiles.map((t) => t.endSample - t.startSample)).toEqual([...Array(14).fill(252), 72])
    for (let k = 1; k < tiles.length; k++) expect(tiles[k].startMs).toBe(tiles[k - 1].endMs)
    expect(tiles.at(-1)!.endMs).toBe(11_000)
    expect(excerptTiles({ startSample: 0, endSample: 3, startMs: 0 }, 360, 0.0001).map((t) => t.endSample)).toEqual([1, 2, 3])
  })

  it('names tiles t000, t001, ... (wider past 1,000 tiles, so names sort), and titles them from 1', () => {
    const [t] = excerptTiles({ startSample: 0, endSample: 10, startMs: 0 }, 1, 1)
    expect([tileFileName(t), tileTitle(t)]).toEqual(['t000', 'tile 1 of 10'])
    expect(tileFileName({ ...t, index: 7, count: 1001 })).toBe('t0007')
    expect(tileFileName({ ...t, index: 999, count: 1000 })).toBe('t999')
  })

  it('keeps the markers inside a tile', () => {
    const [, t] = excerptTiles({ startSample: 0, endSample: 30, startMs: 0 }, 1, 10)
    const at = (sample: number) => ({ sample, label: 'N', source: 'reference' as const })
    expect(tileMarkers([at(9), at(10), at(19), at(20)], t).map((m) => m.sample)).toEqual([10, 19])
  })
})
