// render-strip on the first minute of record 100 (stage layer): one PNG per window, drawn in a
// worker, equal pixel for pixel to drawing the same window in this thread; the window's reference
// beats as markers; render items that describe the files; every-k; errors.
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BeatItem, Item, RenderItem, WindowItem } from '../../src/core/items.ts'
import renderStrip from '../../src/stages/render-strip.ts'
import { DEFAULT_STRIP_OPTIONS, drawStrip, stripSize } from '../../src/render/draw-strip.ts'
import { decodePng } from '../../src/render/png.ts'
import { renderInput } from '../helpers/render-input.ts'
import { runStage, testContext } from '../helpers/stage-context.ts'
import { PipelineError } from '../../src/core/errors.ts'

const input = await renderInput('100', 60)
const windows = input.filter((i): i is WindowItem => i.kind === 'window')
const refBeats = input.filter((i): i is BeatItem => i.kind === 'beat' && (i as BeatItem).source === 'reference')

describe('render-strip', () => {
  it('writes one PNG per window, pixel for pixel the strip of that window with its beats marked', async () => {
    const { items } = await runStage(renderStrip, input)
    const renders = items.filter((i): i is RenderItem => i.kind === 'render')
    expect(windows).toHaveLength(6)
    expect(renders.map((r) => r.windowIndex)).toEqual([0, 1, 2, 3, 4, 5])
    // Every input item passes through, in order, with the render items added.
    expect(items.filter((i) => i.kind !== 'render')).toEqual(input)
    const ctx = testContext(renderStrip, {}, { id: 'rec', path: 'none', format: 'wfdb', annotator: false, annotatorExplicit: false }, [])
    const size = stripSize(10, 2, DEFAULT_STRIP_OPTIONS)
    for (const [k, r] of renders.entries()) {
      const w = windows[k]
      expect(r.path).toBe(`media/rec/strips/w${String(k).padStart(6, '0')}.png`)
      const bytes = readFileSync(path.join(ctx.runDir, r.path))
      expect(r.bytes).toBe(bytes.length)
      expect([r.startSample, r.endSample, r.startMs, r.endMs]).toEqual([w.startSample, w.startSample + 3600, w.startMs, w.startMs + 10_000])
      const inWindow = refBeats.filter((b) => b.sample >= w.startSample && b.sample < w.startSample + 3600)
      expect(r.markers).toBe(inWindow.length)
      expect(inWindow.length).toBeGreaterThan(8)
      const png = decodePng(bytes)
      expect([png.width, png.height]).toEqual([size.width, size.height])
      const here = drawStrip({ samples: w.samples, labels: w.labels, fs: w.fs, startSample: w.startSample, startMs: w.startMs, windowSec: 10, title: 'rec', startTime: null, markers: inWindow.map((b) => ({ sample: b.sample, label: b.label, source: b.source })) })
      expect(Buffer.compare(Buffer.from(png.data), Buffer.from(here.data))).toBe(0)
    }
    expect(readdirSync(path.join(ctx.mediaDir, 'strips')).filter((f) => f.endsWith('.partial'))).toEqual([])
  }, 60_000)

  it('draws every k-th window, on the leads asked for', async () => {
    const { items } = await runStage(renderStrip, input, { options: { every: 2, leads: ['MLII'], dir: 'every2' } })
    const renders = items.filter((i): i is RenderItem => i.kind === 'render')
    expect(renders.map((r) => [r.windowIndex, r.leads])).toEqual([[0, ['MLII']], [2, ['MLII']], [4, ['MLII']]])
    const png = decodePng(readFileSync(path.join(testContext(renderStrip, {}, { id: 'rec', path: 'none', format: 'wfdb', annotator: false, annotatorExplicit: false }, []).runDir, renders[0].path)))
    expect(png.height).toBe(stripSize(10, 1, DEFAULT_STRIP_OPTIONS).height)
  }, 60_000)

  it('names a lead that is not there, and a missing segment stage', async () => {
    const badLead = await rejected(runStage(renderStrip, input, { options: { leads: ['V9'] } }))
    expect(badLead).toMatchObject({ code: 'E_CONFIG_VALUE' })
    expect(badLead.message).toContain('lead "V9" is not among the record\'s leads [MLII, V5]')
    const blocks = input.filter((i: Item) => i.kind !== 'window')
    const noSegment = await rejected(runStage(renderStrip, blocks))
    expect(noSegment).toMatchObject({ code: 'E_CONFIG_VALUE' })
    expect(String((noSegment as Error).message)).toContain('put a segment stage before it')
  }, 60_000)
})

async function rejected(p: Promise<unknown>): Promise<PipelineError> {
  const err = await p.then(() => null, (e: unknown) => e)
  expect(err).toBeInstanceOf(PipelineError)
  return err as PipelineError
}
