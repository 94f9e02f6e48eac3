// The join of the render stages (unit layer, synthetic items): a span waits for the watermark to
// pass its end and comes out with every beat in it, however late the beats came.
import { describe, expect, it } from 'vitest'
import type { BeatItem } from '../../src/core/items.ts'
import { createMarkerJoin } from '../../src/render/marker-join.ts'

const beat = (sample: number, source: 'reference' | 'detector'): BeatItem => ({ kind: 'beat', recordId: 'r', source, sample, timeMs: sample, label: 'N' })
const span = (index: number) => ({ index, startSample: index * 3600, endSample: (index + 1) * 3600 })

describe('marker join', () => {
  it('releases each span once the watermark passes its end, with the beats that came before that, late ones included', () => {
    for (const lagBlocks of [0, 3, 30]) {
      const join = createMarkerJoin<ReturnType<typeof span>>('all', 'test')
      const out: { index: number; markers: number }[] = []
      for (let k = 0; k < 40; k++) {
        for (let s = k * 3600; s < (k + 1) * 3600; s += 180) join.beat(beat(s, 'reference'))
        join.add(span(k), 360)
        // Detector beats come lagBlocks blocks late, and the watermark says so.
        const late = k - lagBlocks
        if (late >= 0) for (let s = late * 3600; s < (late + 1) * 3600; s += 180) join.beat(beat(s, 'detector'))
        for (const j of join.watermark(Math.max(0, (late + 1) * 3600))) out.push({ index: j.span.index, markers: j.markers.length })
      }
      for (const j of join.end()) out.push({ index: j.span.index, markers: j.markers.length })
      expect(out.map((o) => o.index)).toEqual([...Array(40).keys()])
      // 20 beats of each source in every span whose detector beats came before the record ended.
      expect(out.slice(0, 40 - lagBlocks).map((o) => o.markers), `lag ${lagBlocks}`).toEqual(Array(40 - lagBlocks).fill(40))
    }
  })

  it('keeps only the markers of the source asked for, and says the lowest start it holds', () => {
    const join = createMarkerJoin<ReturnType<typeof span>>('reference', 'test')
    join.beat(beat(100, 'detector'))
    join.beat(beat(200, 'reference'))
    join.add(span(0), 360)
    join.add(span(1), 360)
    expect(join.lowest()).toBe(0)
    expect(join.watermark(3599)).toEqual([])
    const [first] = join.watermark(3600)
    expect(first.markers).toEqual([{ sample: 200, label: 'N', source: 'reference' }])
    expect(join.lowest()).toBe(3600)
    expect(createMarkerJoin('none', 'test').lowest()).toBe(Infinity)
  })

  it('fails with E_WATERMARK, naming the stage, when it would hold more than 6 h of signal (no watermark came)', () => {
    const join = createMarkerJoin<ReturnType<typeof span>>('all', 'render-strip')
    let err: unknown = null
    try {
      for (let k = 0; k < 24 * 360; k++) join.add(span(k), 360) // 10 s spans, a day of them, and never a watermark
    } catch (e) {
      err = e
    }
    expect(err).toMatchObject({ code: 'E_WATERMARK', message: expect.stringMatching(/^render-strip: holds 6 h of signal waiting for the watermark/) })
  })

  it('holds a span longer than that bound when the watermarks keep coming (a 12 h excerpt)', () => {
    const join = createMarkerJoin<{ startSample: number; endSample: number }>('all', 'render-video')
    const h = 3600 * 360
    join.add({ startSample: h, endSample: 13 * h }, 360)
    for (let s = 0; s < 13 * h; s += 3600) {
      join.beat(beat(s + 100, 'reference'))
      expect(join.watermark(s)).toEqual([])
    }
    const [done] = join.watermark(13 * h)
    expect(done.markers).toHaveLength(12 * 360)
  })
})
