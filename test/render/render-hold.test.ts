// The two holds of the render stages (unit layer, synthetic items): windows wait for beats that
// the detector emits a block late (render-hold.ts), and event cuts (render-events.ts) keep their
// markers on both sides of a late event, survive long blocks and never join the two sides of a gap.
import { describe, expect, it } from 'vitest'
import type { BeatItem, GapItem, Item, SampleBlock, WindowItem } from '../../src/core/items.ts'
import { createWindowHold } from '../../src/render/render-hold.ts'
import { createEventPicker, eventOptionsSchema } from '../../src/render/render-events.ts'

const FS = 360
const block = (start: number, n: number): SampleBlock => ({ kind: 'block', recordId: 'r', fs: FS, startSample: start, labels: ['I'], leads: [Float32Array.from({ length: n }, (_, i) => (start + i) % 1000)] })
const beat = (sample: number, source: 'reference' | 'detector', label: 'N' | 'V' = 'N'): BeatItem => ({ kind: 'beat', recordId: 'r', source, sample, timeMs: (sample / FS) * 1000, label })
const window = (index: number): WindowItem => ({ kind: 'window', recordId: 'r', index, startSample: index * 3600, startMs: index * 10_000, fs: FS, lengthSamples: 3600, labels: ['I'], samples: [new Float32Array(3600)] })

/** 10 s blocks with a beat every 0.5 s: reference beats before their block, detector beats after the next block. */
function stream(blocks: number, detectorV?: number): Item[] {
  const items: Item[] = []
  for (let k = 0; k < blocks; k++) {
    for (let s = k * 3600; s < (k + 1) * 3600; s += 180) items.push(beat(s, 'reference'))
    items.push(block(k * 3600, 3600), window(k))
    if (k > 0) for (let s = (k - 1) * 3600; s < k * 3600; s += 180) items.push(beat(s, 'detector', s === detectorV ? 'V' : 'N'))
  }
  return items
}

describe('render-hold', () => {
  it('releases a window with the beats the detector emits a block later, given the lag', () => {
    const withLag = createWindowHold('all', 30)
    const held = stream(12).flatMap((i) => withLag.push(i)).concat(withLag.end())
    expect(held.map((h) => h.window.index)).toEqual([...Array(12).keys()])
    // Every window but the last (its detector beats never came) has 20 + 20 beats.
    expect(held.slice(0, 11).map((h) => h.markers.length)).toEqual(Array(11).fill(40))
    // Without the lag the detector's beats come too late for every window.
    const noLag = createWindowHold('all', 0)
    const early = stream(12).flatMap((i) => noLag.push(i)).concat(noLag.end())
    expect(early.slice(0, 11).map((h) => h.markers.length)).toEqual(Array(11).fill(20))
  })
})

describe('render-events', () => {
  const options = eventOptionsSchema.parse({ labels: ['V'], source: 'all', padSec: 5, minGapSec: 0 })

  it('cuts a late detector event with the beats on both sides of it', () => {
    const picker = createEventPicker(options, 'all', 30)
    const cuts = stream(8, 10080).flatMap((i) => picker.push(i)).concat(picker.end())
    expect(cuts.map((c) => [c.event.sample, c.event.source])).toEqual([[10080, 'detector']])
    // 8280..11880: 20 beats of each source.
    expect(cuts[0].startSample).toBe(10080 - 1800)
    expect(cuts[0].markers).toHaveLength(40)
  })

  it("keeps an event's samples when blocks are longer than the lag (120 s blocks)", () => {
    const picker = createEventPicker(options, 'all', 30)
    const items: Item[] = [beat(41_400, 'reference', 'V'), block(0, 43_200), block(43_200, 43_200), block(86_400, 43_200)]
    const cuts = items.flatMap((i) => picker.push(i)).concat(picker.end())
    expect(cuts).toHaveLength(1)
    const x = cuts[0].samples[0]
    expect(x).toHaveLength(3600)
    expect(Array.from(x.subarray(0, 5))).toEqual([39_600, 39_601, 39_602, 39_603, 39_604].map((s) => s % 1000))
    expect(x.every((v) => Number.isFinite(v))).toBe(true)
  })

  it('never joins the two sides of an EDF+D gap in one cut', () => {
    const picker = createEventPicker(options, 'all', 30)
    const gap: GapItem = { kind: 'gap', recordId: 'r', startMs: 20_000, endMs: 80_000, atSample: 7200 }
    // Sample numbers run on across the gap; an event 1 s after it.
    const items: Item[] = [block(0, 3600), block(3600, 3600), gap, beat(7560, 'reference', 'V'), block(7200, 3600), block(10_800, 3600), block(14_400, 3600), block(18_000, 3600), block(21_600, 3600)]
    const cuts = items.flatMap((i) => picker.push(i)).concat(picker.end())
    expect(cuts).toHaveLength(1)
    const x = cuts[0].samples[0]
    // 5760..9360: the 1440 samples before the gap are not shown, the 2160 after it are.
    expect(x.subarray(0, 1440).every((v) => Number.isNaN(v))).toBe(true)
    expect(x.subarray(1440).every((v) => Number.isFinite(v))).toBe(true)
  })
})
