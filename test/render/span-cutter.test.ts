// The span cutter (src/render/span-cutter.ts), unit layer: what it cuts, and its bound on what
// it holds while the watermark trails (room for the longest excerpt, 6 h, and no more).
import { describe, expect, it } from 'vitest'
import type { SampleBlock } from '../../src/core/items.ts'
import { createSpanCutter } from '../../src/render/span-cutter.ts'

const fs = 10
const block = (k: number): SampleBlock => ({ kind: 'block', recordId: 'rec', fs, startSample: k * 100, labels: ['I'], leads: [Float32Array.from({ length: 100 }, (_, i) => k * 100 + i)] })

describe('span cutter', () => {
  it('keeps only the leads a stage draws, named by index or label, and refuses one the record lacks', () => {
    const two = (k: number): SampleBlock => ({ ...block(k), labels: ['MLII', 'V1'], leads: [block(k).leads[0], Float32Array.from({ length: 100 }, (_, i) => -(k * 100 + i))] })
    for (const wanted of [[1], ['V1'], ['v1 ']]) {
      const c = createSpanCutter('render-text', wanted)
      for (let k = 0; k < 5; k++) c.push(two(k))
      const cut = c.cut(120, 123)
      expect(cut.labels).toEqual(['V1'])
      expect(cut.samples.map((x) => Array.from(x))).toEqual([[-120, -121, -122]])
    }
    const all = createSpanCutter('render-strip')
    all.push(two(0))
    expect(all.cut(0, 2).labels).toEqual(['MLII', 'V1'])
    expect(() => createSpanCutter('render-strip', [2]).push(two(0))).toThrow(/leads/)
  })

  it('cuts any span from where it was told to keep, and NaN where it holds nothing', () => {
    const c = createSpanCutter('test')
    for (let k = 0; k < 50; k++) c.push(block(k))
    expect(Array.from(c.cut(1234, 1238).samples[0])).toEqual([1234, 1235, 1236, 1237])
    c.keepFrom(4000)
    for (let k = 50; k < 200; k++) c.push(block(k))
    expect(Array.from(c.cut(19_990, 20_002).samples[0]).slice(0, 10)).toEqual([19_990, 19_991, 19_992, 19_993, 19_994, 19_995, 19_996, 19_997, 19_998, 19_999])
    expect(Number.isNaN(c.cut(19_990, 20_002).samples[0][11])).toBe(true)
  })

  it('holds a 6 h span whole while the watermark waits at its start, and refuses to hold 7 h', () => {
    const c = createSpanCutter('render-text')
    const sixHours = (6 * 3600 * fs) / 100
    for (let k = 0; k < sixHours; k++) c.push(block(k)) // the doubling passes 4.3 h on the way
    const span = c.cut(0, 6 * 3600 * fs).samples[0]
    expect([span[0], span[span.length - 1], span.length]).toEqual([0, 6 * 3600 * fs - 1, 6 * 3600 * fs])
    let err: unknown = null
    try {
      for (let k = sixHours; k < (7 * 3600 * fs) / 100; k++) c.push(block(k))
    } catch (e) {
      err = e
    }
    expect(err).toMatchObject({ code: 'E_WATERMARK', message: expect.stringMatching(/^render-text: would hold more than 6.5 h/) })
  })
})
