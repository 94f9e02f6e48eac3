// render-strip's excerptTileSec (stage layer) on record 100: an excerpt drawn as consecutive
// strips, one render item each, in order, tiling the excerpt exactly, each pixel for pixel the
// strip of its samples and beats; a last tile shorter and narrower; without the option, the
// one strip of the whole excerpt as before, byte for byte; a consumer that stops early.
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BeatItem, ExcerptItem, Item, RenderItem, WindowItem } from '../../src/core/items.ts'
import excerpt from '../../src/stages/excerpt.ts'
import renderStrip from '../../src/stages/render-strip.ts'
import { DEFAULT_STRIP_OPTIONS, drawStrip, stripSize } from '../../src/render/draw-strip.ts'
import { decodePng, encodePng } from '../../src/render/png.ts'
import { renderInput } from '../helpers/render-input.ts'
import { runStage, testContext } from '../helpers/stage-context.ts'
import { watermarkViolations, withoutWatermarks } from '../helpers/watermarks.ts'

const record = { id: 'rec', path: 'none', format: 'wfdb' as const, annotator: false as const, annotatorExplicit: false }
const runDir = testContext(renderStrip, {}, record, []).runDir
const input = await renderInput('100', 90)
const windows = input.filter((i): i is WindowItem => i.kind === 'window')
const beats = input.filter((i): i is BeatItem => i.kind === 'beat')
const markersIn = (from: number, to: number) => beats.filter((b) => b.sample >= from && b.sample < to).map((b) => ({ sample: b.sample, label: b.label, source: b.source }))

/** The excerpts of `lengthSec` every minute from the record's start, and render-strip's output over them. */
async function tiled(lengthSec: number, options: Record<string, unknown>) {
  const excerpted = await runStage(excerpt, input, { options: { set: 'min', every: { minutes: 1, lengthSec } } })
  const excerpts = excerpted.items.filter((i): i is ExcerptItem => i.kind === 'excerpt')
  const { items } = await runStage(renderStrip, excerpted.items, { options: { windows: false, excerpts: 'min', ...options } })
  expect(watermarkViolations(items, excerpted.items).violations).toEqual([])
  expect(withoutWatermarks(items.filter((i) => i.kind !== 'render'))).toEqual(withoutWatermarks(excerpted.items))
  return { excerpts, renders: items.filter((i): i is RenderItem => i.kind === 'render') }
}

/** Checks that `tiles` cover `ex` from its start, in order, each `tileSec` long but the last, with the items' fields right. */
function expectTiling(tiles: RenderItem[], ex: ExcerptItem, tileSec: number, dir: string) {
  const n = Math.ceil((ex.endSample - ex.startSample) / (tileSec * ex.fs))
  expect(tiles).toHaveLength(n)
  expect(new Set(tiles.map((r) => r.id)).size).toBe(n)
  expect([tiles[0].startSample, tiles[0].startMs, tiles.at(-1)!.endSample, tiles.at(-1)!.endMs]).toEqual([ex.startSample, ex.startMs, ex.endSample, ex.endMs])
  const name = `x${String(ex.startSample).padStart(9, '0')}`
  for (const [k, r] of tiles.entries()) {
    const file = `${dir}/min/${name}/t${String(k).padStart(3, '0')}.png`
    expect(r).toMatchObject({ id: `rec:${file}`, path: `media/rec/${file}`, format: 'png', of: ex.id, from: [ex.id], tile: k, tiles: n })
    expect('event' in r).toBe(false)
    if (k < n - 1) expect([r.endSample, r.endMs]).toEqual([tiles[k + 1].startSample, tiles[k + 1].startMs])
    const sec = Math.min(tileSec, (ex.endSample - r.startSample) / ex.fs)
    expect([r.endSample - r.startSample, r.endMs - r.startMs]).toEqual([sec * ex.fs, sec * 1000])
    expect(r.markers).toBe(markersIn(r.startSample, r.endSample).length)
    const bytes = readFileSync(path.join(runDir, r.path))
    expect(r.bytes).toBe(bytes.length)
    const png = decodePng(bytes)
    expect([png.width, png.height]).toEqual([r.width, r.height])
    expect([r.width, r.height]).toEqual(Object.values(stripSize(sec, 2, DEFAULT_STRIP_OPTIONS)))
  }
}

describe('render-strip excerptTileSec', () => {
  it('draws a 1-minute excerpt as 6 strips of 10 s, in order, each the strip of its window with its beats and "tile k of 6" in its title', async () => {
    const { excerpts, renders } = await tiled(60, { excerptTileSec: 10, threads: 2, dir: 'tiles60' })
    expect(excerpts).toHaveLength(1)
    const ex = excerpts[0]
    expect([ex.startSample, ex.endSample]).toEqual([0, 21_600])
    expectTiling(renders, ex, 10, 'tiles60')
    for (const [k, r] of renders.entries()) {
      // The excerpt starts at 0, so tile k holds window k's samples.
      const w = windows[k]
      expect([r.startSample, r.endSample]).toEqual([w.startSample, w.startSample + 3600])
      expect(r.markers).toBeGreaterThan(8)
      const title = `min   tile ${k + 1} of 6` // the set, never the record: tiles are what models are shown
      const here = drawStrip({ samples: w.samples, labels: w.labels, fs: w.fs, startSample: w.startSample, startMs: w.startMs, windowSec: 10, markers: markersIn(w.startSample, w.startSample + 3600), title, startTime: null })
      expect(Buffer.compare(Buffer.from(decodePng(readFileSync(path.join(runDir, r.path))).data), Buffer.from(here.data))).toBe(0)
    }
    expect(readdirSync(path.join(runDir, 'media/rec/tiles60/min/x000000000'))).toEqual(['t000.png', 't001.png', 't002.png', 't003.png', 't004.png', 't005.png'])
  }, 60_000)

  it('draws a 25 s excerpt as tiles of 10, 10 and 5 s, the last one half as wide in signal, with only its own beats', async () => {
    const { excerpts, renders } = await tiled(25, { excerptTileSec: 10, dir: 'tiles25' })
    expect(excerpts.map((x) => [x.startSample, x.endSample])).toEqual([[0, 9000], [21_600, 30_600]])
    for (const ex of excerpts) expectTiling(renders.filter((r) => r.of === ex.id), ex, 10, 'tiles25')
    expect(renders.map((r) => r.of)).toEqual(excerpts.flatMap((x) => [x.id, x.id, x.id]))
    const [first, , last] = renders
    expect(last.width as number).toBeLessThan(first.width as number)
    expect(last.height).toBe(first.height)
  }, 60_000)

  it('without it, draws each excerpt as one strip of its whole span, as before: the same item and the same bytes', async () => {
    const { excerpts, renders } = await tiled(25, { dir: 'whole' })
    const ex = excerpts[0]
    const bytes = readFileSync(path.join(runDir, renders[0].path))
    expect(renders).toHaveLength(2)
    // The fields and their order, as render-strip wrote them before tiles.
    expect(JSON.stringify(renders[0])).toBe(JSON.stringify({
      kind: 'render', id: 'rec:whole/min/x000000000.png', recordId: 'rec', format: 'png', path: 'media/rec/whole/min/x000000000.png', bytes: bytes.length,
      startSample: 0, endSample: 9000, startMs: 0, endMs: 25_000, leads: ['MLII', 'V5'], of: ex.id, from: [ex.id], markers: markersIn(0, 9000).length, ...stripSize(25, 2, DEFAULT_STRIP_OPTIONS),
    }))
    const samples = windows[0].samples.map((_, l) => Float32Array.from([...windows[0].samples[l], ...windows[1].samples[l], ...windows[2].samples[l].subarray(0, 1800)]))
    const strip = drawStrip({ samples, labels: windows[0].labels, fs: 360, startSample: 0, startMs: 0, windowSec: 25, markers: markersIn(0, 9000), title: 'min', startTime: null })
    expect(Buffer.compare(bytes, encodePng(strip))).toBe(0)
  }, 60_000)

  it('leaves no tile without its item when the consumer stops early', async () => {
    const excerpted = await runStage(excerpt, input, { options: { set: 'min', every: { minutes: 1, lengthSec: 60 } } })
    const ctx = testContext(renderStrip, { windows: false, excerpts: 'min', excerptTileSec: 5, dir: 'stopped-tiles' }, record, [])
    async function* source() {
      yield* excerpted.items as Item[]
    }
    const got: RenderItem[] = []
    for await (const item of renderStrip.transform(source(), ctx)) {
      if (item.kind !== 'render') continue
      got.push(item as RenderItem)
      if (got.length === 2) break // tiles 2 and 3 are in flight now, the other 8 not yet sent
    }
    expect(readdirSync(path.join(ctx.mediaDir, 'stopped-tiles/min/x000000000')).sort()).toEqual(['t000.png', 't001.png'])
  }, 60_000)

  it('takes a positive number of seconds up to 60', () => {
    const where = { file: 'd.yaml', yamlPath: 'stages[5].options' }
    expect(renderStrip.parseOptions!({ excerpts: 'min', excerptTileSec: 2.5 }, where)).toMatchObject({ excerptTileSec: 2.5 })
    const rejected = (excerptTileSec: number) => {
      try {
        renderStrip.parseOptions!({ excerptTileSec }, where)
      } catch (err) {
        return err
      }
      throw new Error(`excerptTileSec ${excerptTileSec} was taken`)
    }
    expect(rejected(0)).toMatchObject({ code: 'E_CONFIG_VALUE', context: { yamlPath: 'stages[5].options.excerptTileSec' } })
    expect(rejected(61)).toMatchObject({ code: 'E_CONFIG_VALUE', message: expect.stringMatching(/at most 60 seconds/), context: { yamlPath: 'stages[5].options.excerptTileSec' } })
  })
})
