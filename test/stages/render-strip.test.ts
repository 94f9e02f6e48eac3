// render-strip on the first minute of record 100 (stage layer): one PNG per window, drawn in a
// worker, equal pixel for pixel to drawing the same window in this thread; the window's reference
// beats as markers; render items that describe the files; every-k; errors.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BeatItem, ExcerptItem, Item, RenderItem, WindowItem } from '../../src/core/items.ts'
import excerpt from '../../src/stages/excerpt.ts'
import { watermarkViolations, withoutWatermarks } from '../helpers/watermarks.ts'
import renderStrip from '../../src/stages/render-strip.ts'
import { DEFAULT_STRIP_OPTIONS, drawStrip, stripSize } from '../../src/render/draw-strip.ts'
import { decodePng } from '../../src/render/png.ts'
import { renderInput } from '../helpers/render-input.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'
import annotate from '../../src/stages/annotate.ts'
import { pipelineRejection as rejected } from '../helpers/thrown.ts'
import { runStage, testContext } from '../helpers/stage-context.ts'

const input = await renderInput('100', 60)
const windows = input.filter((i): i is WindowItem => i.kind === 'window')
const refBeats = input.filter((i): i is BeatItem => i.kind === 'beat' && (i as BeatItem).source === 'reference')

describe('render-strip', () => {
  it('writes one PNG per window, pixel for pixel the strip of that window with its beats marked', async () => {
    const { items } = await runStage(renderStrip, input)
    const renders = items.filter((i): i is RenderItem => i.kind === 'render')
    expect(windows).toHaveLength(6)
    expect(renders.map((r) => r.windowIndex)).toEqual([0, 1, 2, 3, 4, 5])
    // Every input item passes through, in order, with the render items added, and the watermarks hold.
    expect(withoutWatermarks(items.filter((i) => i.kind !== 'render'))).toEqual(withoutWatermarks(input))
    expect(watermarkViolations(items, input).violations).toEqual([])
    expect(renders.map((r) => [r.id, r.from])).toEqual(windows.map((w, k) => [`rec:strips/w${String(k).padStart(6, '0')}.png`, [w.id]]))
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

  it('leaves no strip without its item when the consumer stops early', async () => {
    const ctx = testContext(renderStrip, { dir: 'stopped' }, { id: 'rec', path: 'none', format: 'wfdb', annotator: false, annotatorExplicit: false }, [])
    async function* source() {
      yield* input
    }
    const got: RenderItem[] = []
    for await (const item of renderStrip.transform(source(), ctx)) {
      if (item.kind !== 'render') continue
      got.push(item as RenderItem)
      if (got.length === 2) break // strips 2 and 3 are in flight now
    }
    expect(readdirSync(path.join(ctx.mediaDir, 'stopped')).sort()).toEqual(got.map((r) => path.basename(r.path)))
  }, 60_000)

  it('names a lead that is not there, and a missing segment stage', async () => {
    const badLead = await rejected(runStage(renderStrip, input, { options: { leads: ['V9'] } }))
    expect(badLead).toMatchObject({ code: 'E_CONFIG_VALUE' })
    expect(badLead.message).toContain('lead "V9" is not among the record\'s leads [MLII, V5]')
    const blocks = input.filter((i: Item) => i.kind !== 'window')
    const noSegment = await rejected(runStage(renderStrip, blocks))
    expect(noSegment).toMatchObject({ code: 'E_CONFIG_VALUE' })
    expect(noSegment.message).toContain('put a segment stage before it')
  }, 60_000)
})

describe('render-strip excerpts', () => {
  it('draws each excerpt of its sets: padSec either side of each reference V of record 208, at least minGapSec apart, equal to the strip of the same samples', async () => {
    const input208 = await renderInput('208', 120)
    const excerpted = await runStage(excerpt, input208, { options: { set: 'ev', around: { labels: ['V'], padSec: 5, minGapSec: 10 } } })
    const { items } = await runStage(renderStrip, excerpted.items, { options: { windows: false, excerpts: 'ev' } })
    expect(watermarkViolations(items, excerpted.items).violations).toEqual([])
    const renders = items.filter((i): i is RenderItem => i.kind === 'render')
    // The reference Vs, thinned to one per 10 s.
    const vs = input208.filter((i): i is BeatItem => i.kind === 'beat' && (i as BeatItem).source === 'reference' && (i as BeatItem).label === 'V')
    const expected: number[] = []
    for (const v of vs) if (!expected.length || v.sample - expected.at(-1)! >= 3600) expected.push(v.sample)
    expect(expected.length).toBeGreaterThan(5)
    expect(renders.map((r) => (r.event as { sample: number }).sample)).toEqual(expected)
    const excerpts = excerpted.items.filter((i): i is ExcerptItem => i.kind === 'excerpt')
    expect(renders.map((r) => r.of)).toEqual(excerpts.map((x) => x.id))
    const ctx = testContext(renderStrip, {}, { id: 'rec', path: 'none', format: 'wfdb', annotator: false, annotatorExplicit: false }, [])
    const windows208 = input208.filter((i): i is WindowItem => i.kind === 'window')
    const all = windows208[0].samples.map((_, l) => {
      const x = new Float32Array(windows208.length * 3600)
      windows208.forEach((w, k) => x.set(w.samples[l], k * 3600))
      return x
    })
    for (const r of renders.slice(1, 4)) {
      const e = r.event as { sample: number; label: string; timeMs: number }
      expect(r.path).toBe(`media/rec/strips/ev/e${String(e.sample).padStart(9, '0')}-V.png`)
      expect([r.startSample, r.endSample]).toEqual([e.sample - 1800, e.sample + 1800])
      const from = e.sample - 1800
      const markers = input208.filter((i): i is BeatItem => i.kind === 'beat').filter((b) => b.sample >= from && b.sample < from + 3600).map((b) => ({ sample: b.sample, label: b.label, source: b.source }))
      expect(r.markers).toBe(markers.length)
      const strip = drawStrip({ samples: all.map((x) => cut(x, from, 3600)), labels: windows208[0].labels, fs: 360, startSample: from, startMs: Math.round(e.timeMs - 5000), windowSec: 10, markers, title: 'V', startTime: null })
      const png = decodePng(readFileSync(path.join(ctx.runDir, r.path)))
      expect(Buffer.compare(Buffer.from(png.data), Buffer.from(strip.data))).toBe(0)
    }
  }, 60_000)

  it('says where the retired events and markerLagSec options went', () => {
    const where = { file: 'd.yaml', yamlPath: 'stages[5].options' }
    expect(() => renderStrip.parseOptions!({ events: { labels: ['V'] } }, where)).toThrow(/"events" moved to the excerpt stage/)
    expect(() => renderStrip.parseOptions!({ markerLagSec: 30 }, where)).toThrow(/markerLagSec is gone: a strip now waits for the watermark/)
  })
})

describe('render-strip excerpts from a sidecar', () => {
  it('takes rhythm changes from the sidecar annotate reads (and not from the recording\'s own annotations); without it, from the recording\'s', async () => {
    const spec = recordSpec(path.join(ROOT, 'samples/mitdb/100'))
    const { items: read } = await readRecord(spec)
    const dir = tmpDir('hp-strip-sidecar-')
    // Record 100's .atr has one rhythm change, "(N" at sample 18; the sidecar has three others.
    writeFileSync(path.join(dir, '100.annotations.csv'), 'sample,symbol,aux\n5000,+,(AFIB\n15000,+,(N\n25000,+,(AFIB\n')
    const around = { labels: ['AFIB', 'N'], padSec: 5, minGapSec: 0 }
    const picked = async (sidecar: string) => {
      const annotated = await runStage(annotate, read, { record: spec, options: { sidecar } })
      const excerpted = await runStage(excerpt, annotated.items, { record: spec, options: { set: 'ev', around } })
      const { items } = await runStage(renderStrip, excerpted.items, { record: spec, options: { windows: false, markers: 'none', excerpts: 'ev' } })
      return items.filter((i): i is RenderItem => i.kind === 'render').map((r) => {
        const e = r.event as { sample: number; label: string; kind: string }
        return `${e.kind} ${e.label}@${e.sample}`
      })
    }
    // The sidecar has no beats: its three rhythm changes only.
    expect(await picked(path.join(dir, '{name}.annotations.csv'))).toEqual(['rhythm AFIB@5000', 'rhythm N@15000', 'rhythm AFIB@25000'])
    // Without it, the .atr's beats labelled N and its one rhythm change.
    expect((await picked('none')).filter((e) => e.startsWith('rhythm'))).toEqual(['rhythm N@18'])
  }, 60_000)
})

/** x[from, from + n), NaN outside x (as the ring gives what it does not hold). */
function cut(x: Float32Array, from: number, n: number): Float32Array {
  const out = new Float32Array(n).fill(NaN)
  for (let i = Math.max(0, from); i < Math.min(x.length, from + n); i++) out[i - from] = x[i]
  return out
}
