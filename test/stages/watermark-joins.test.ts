// The joins by time wait for the watermark, not for a guessed delay (issue 12, point 3): with the
// detector's beats, or the quality windows, held back 200 s (far past the old guesses: 30 s of
// marker lag for strips, 120 s of artifact hold, padSec + 30 s for event cuts), record 208's
// strips have every marker, its excerpts around detector Vs are the same, and its summary leaves
// out the same artifact beats, as without the lag. The stages run on the real record, one after
// the other in memory; lead 0 is clipped for two minutes first, so the quality stage flags
// windows there and the summary has artifact beats to leave out (208's own first 10 min have
// none flagged). Without a lag each quality item comes before the beats in its window (detect
// emits a chunk's beats after its blocks); held back, it comes after them, and summarize must
// wait for it.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BeatItem, Item, QualityItem, RenderItem, SampleBlock, SummaryItem } from '../../src/core/items.ts'
import type { Stage } from '../../src/core/stage.ts'
import annotate from '../../src/stages/annotate.ts'
import quality from '../../src/stages/quality.ts'
import detect from '../../src/stages/detect.ts'
import excerpt from '../../src/stages/excerpt.ts'
import summarize from '../../src/stages/summarize.ts'
import segment from '../../src/stages/segment.ts'
import renderStrip from '../../src/stages/render-strip.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { runStage } from '../helpers/stage-context.ts'
import { laggingStage } from '../helpers/lagging-stage.ts'
import { watermarkViolations } from '../helpers/watermarks.ts'
import { ROOT } from '../helpers/shared.ts'

const spec = recordSpec(path.join(ROOT, 'samples/mitdb/208'), { id: '208' })

/** The signal from 2 to 4 min with lead 0 clipped at `railMv`: the amplifier at its rail on every R wave. */
function clipLead0(items: Item[], railMv: number): Item[] {
  const [from, to] = [2 * 60 * 360, 4 * 60 * 360]
  return items.map((i) => {
    if (i.kind !== 'block') return i
    const b = i as SampleBlock
    const x = Float32Array.from(b.leads[0], (v, k) => (b.startSample + k >= from && b.startSample + k < to ? Math.min(v, railMv) : v))
    return { ...b, leads: [x, ...b.leads.slice(1)] }
  })
}

async function chain(items: Item[], stages: [Stage<any>, unknown][]): Promise<Item[]> {
  for (const [stage, options] of stages) items = (await runStage(stage, items, { record: spec, options })).items
  return items
}

describe('joins by watermark', () => {
  it('lose nothing when an upstream stage holds the beats, or the quality windows, back longer than any old guess', async () => {
    const { items: read } = await readRecord(spec)
    const head = clipLead0(read.slice(0, read.findIndex((i) => i.kind === 'block' && i.startSample >= 10 * 60 * 360)), 0.3) // 10 min
    const before = await chain(head, [[annotate, {}], [quality, {}], [detect, { thread: false }]])
    const after: [Stage<any>, unknown][] = [
      [excerpt, { set: 'dv', around: { labels: ['V'], source: 'detector', padSec: 5, minGapSec: 30 } }],
      [summarize, { source: 'detector' }],
      [segment, {}],
      [renderStrip, { every: 5, excerpts: 'dv', dir: 'lag' }],
    ]
    const plain = await chain(before, after)
    const lagged = await chain(await chain(before, [[laggingStage('detector', 200), {}]]), after)
    const lateQuality = await chain(await chain(before, [[laggingStage('quality', 200), {}]]), after)
    expect(watermarkViolations(lagged, before).violations).toEqual([])
    expect(watermarkViolations(lateQuality, before).violations).toEqual([])
    const strips = (items: Item[]) => items.filter((i): i is RenderItem => i.kind === 'render').map((r) => [r.path, r.markers, r.bytes]).sort()
    const s = strips(plain)
    expect(s.length).toBeGreaterThan(15)
    expect(strips(lagged)).toEqual(s)
    expect(strips(lateQuality)).toEqual(s)
    const excerpts = (items: Item[]) => items.filter((i) => i.kind === 'excerpt').map((x) => (x as { id: string }).id)
    expect(excerpts(plain).length).toBeGreaterThan(5)
    expect(excerpts(lagged)).toEqual(excerpts(plain))
    expect(excerpts(lateQuality)).toEqual(excerpts(plain))
    const summary = (items: Item[]) => items.find((i): i is SummaryItem => i.kind === 'summary')
    // The detector's beats (on lead 0) in the windows flagged on lead 0 are the ones left out.
    const flagged = before.filter((i): i is QualityItem => i.kind === 'quality' && i.leads[0].flags.length > 0)
    expect(flagged.length).toBeGreaterThan(10) // the 12 windows of the clipped stretch
    const inFlagged = before.filter((i): i is BeatItem => i.kind === 'beat' && i.source === 'detector' && flagged.some((w) => i.sample >= w.startSample && i.sample < w.endSample))
    expect(inFlagged.length).toBeGreaterThan(100)
    expect(summary(plain)?.excludedBeats).toBe(inFlagged.length)
    expect(summary(lagged)).toEqual(summary(plain))
    expect(summary(lateQuality)).toEqual(summary(plain))
    // Every window strip has both sources' beats (the reference's from annotate, the detector's late ones).
    const windows = plain.filter((i): i is RenderItem => i.kind === 'render' && typeof i.windowIndex === 'number')
    for (const w of windows) {
      const beats = before.filter((i) => i.kind === 'beat' && i.sample >= w.startSample && i.sample < w.endSample)
      expect(w.markers).toBe(beats.length)
    }
  }, 60_000)
})
