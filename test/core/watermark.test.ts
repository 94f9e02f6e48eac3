// The watermark helpers (unit layer): positions per kind, the watermark a holding stage passes on,
// and the wait list that joins release from.
import { describe, expect, it } from 'vitest'
import type { AnyItem } from '../../src/core/items.ts'
import { createWaitList, createWatermarks, isWatermark, positionOf, watermark } from '../../src/core/watermark.ts'

const item = (kind: string, fields: Record<string, unknown>) => ({ kind, recordId: 'r', ...fields }) as AnyItem

describe('positionOf', () => {
  it('places spans at their start, marks at their sample, gaps at atSample, what closes later at its end, record-level items nowhere', () => {
    expect(positionOf(item('block', { startSample: 10 }))).toBe(10)
    expect(positionOf(item('window', { startSample: 20, lengthSamples: 5 }))).toBe(20)
    expect(positionOf(item('excerpt', { startSample: 30, endSample: 90 }))).toBe(30)
    expect(positionOf(item('beat', { sample: 40 }))).toBe(40)
    expect(positionOf(item('gap', { atSample: 50, startMs: 0, endMs: 9 }))).toBe(50)
    expect(positionOf(item('rhythm', { startSample: 0, endSample: 60 }))).toBe(60)
    expect(positionOf(item('render', { startSample: 0, endSample: 70 }))).toBe(70)
    expect(positionOf(item('summary', {}))).toBeNull()
    expect(positionOf(item('recording', { fs: 360 }))).toBeNull()
    expect(positionOf(item('my-kind', { startSample: 80, sample: 81 }))).toBe(80)
    expect(positionOf(item('my-kind', { sample: 81 }))).toBe(81)
    expect(positionOf(item('my-kind', {}))).toBeNull()
    expect(isWatermark(watermark('r', 5))).toBe(true)
  })
})

describe('createWatermarks', () => {
  it('passes on the upstream watermark lowered to what the stage holds, never going back or repeating', () => {
    const m = createWatermarks('r')
    expect(m.next()).toBeNull() // nothing from upstream yet
    m.seen(100)
    expect(m.next(40)).toEqual(watermark('r', 40))
    expect(m.next(30)).toBeNull() // lower than what was sent: a watermark never goes back
    expect(m.next(40)).toBeNull() // the same: not sent twice
    m.seen(90) // an older one from upstream changes nothing
    expect(m.upstream).toBe(100)
    expect(m.next()).toEqual(watermark('r', 100))
  })
})

describe('createWaitList', () => {
  it('releases values in the order added once the watermark reaches what each needs, and knows the lowest position held', () => {
    const w = createWaitList<string>()
    w.add('a', 100, 10)
    w.add('b', 50, 20) // needs less, but waits for a: outputs keep their order
    w.add('c', 300, 5)
    expect(w.lowest()).toBe(5)
    expect(w.release(99)).toEqual([])
    expect(w.release(100)).toEqual(['a', 'b'])
    expect(w.size).toBe(1)
    expect(w.drain()).toEqual(['c'])
    expect(w.lowest()).toBe(Infinity)
    for (let i = 0; i < 1000; i++) w.add(`x${i}`, i)
    expect(w.release(499)).toHaveLength(500)
    expect(w.size).toBe(500)
    expect(w.release(Infinity)[0]).toBe('x500')
  })
})
