// The render items' contract (docs/items.md): a render item is yielded only once the file, or
// the byte range of it, that it names is complete and readable under its path. Checked for every
// format as each item arrives, on record 208's first 90 s with excerpts around its PVCs.
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ExcerptItem, Item, RenderItem } from '../../src/core/items.ts'
import type { Stage } from '../../src/core/stage.ts'
import excerpt from '../../src/stages/excerpt.ts'
import renderText from '../../src/stages/render-text.ts'
import renderStrip from '../../src/stages/render-strip.ts'
import renderVideo from '../../src/stages/render-video.ts'
import { decodePng } from '../../src/render/png.ts'
import { renderInput } from '../helpers/render-input.ts'
import { runStage, testContext } from '../helpers/stage-context.ts'
import { probeVideo, skipWithoutFfmpeg } from '../helpers/ffprobe.ts'
import { tmpDir } from '../helpers/tmp.ts'

const HAVE = !skipWithoutFfmpeg()
const record = { id: '208', path: 'none', format: 'wfdb' as const, annotator: false as const, annotatorExplicit: false }

/** Runs `stage` over `input`, checking each render item the moment it is yielded with `check`. */
async function eachRender(stage: Stage<any>, options: unknown, input: Item[], check: (r: RenderItem, runDir: string) => Promise<void> | void): Promise<number> {
  const runDir = tmpDir('hp-contract-')
  const ctx = testContext(stage, options, record, [], undefined, runDir)
  async function* source() {
    yield* input
  }
  let n = 0
  for await (const item of stage.transform(source(), ctx)) {
    if (item.kind !== 'render') continue
    await check(item as RenderItem, runDir)
    n++
  }
  return n
}

describe.runIf(HAVE)('render items name complete files', () => {
  it('text, png and mp4 (whole and clips): readable, whole, when their item comes', async () => {
    const options = { set: 'pvc', around: { labels: ['V'], padSec: 3, minGapSec: 15 } }
    const { items: input } = await runStage(excerpt, await renderInput('208', 90), { record, options })
    const text = await eachRender(renderText, { excerpts: 'pvc' }, input, (r, dir) => {
      const bytes = readFileSync(path.join(dir, r.path))
      expect(bytes.length).toBeGreaterThanOrEqual((r.offset as number) + r.bytes)
      expect(bytes.subarray(r.offset as number, (r.offset as number) + r.bytes).toString('latin1')).toMatch(/^MLII \d\d:\d\d:\d\d\.\d{3} 360Hz: .*\n$/s)
    })
    const png = await eachRender(renderStrip, { excerpts: 'pvc', threads: 2 }, input, (r, dir) => {
      const file = path.join(dir, r.path)
      expect(statSync(file).size).toBe(r.bytes)
      expect(existsSync(`${file}.partial`)).toBe(false)
      expect(decodePng(readFileSync(file)).width).toBe(r.width)
    })
    const mp4 = await eachRender(renderVideo, { fps: 5, maxDurationSec: 3, clips: { excerpts: 'pvc', windowSec: 4, stepSec: 1 } }, input, async (r, dir) => {
      const file = path.join(dir, r.path)
      expect(statSync(file).size).toBe(r.bytes)
      expect(existsSync(`${file}.partial`)).toBe(false)
      expect((await probeVideo(file)).frames).toBe(r.frames)
    })
    expect(text).toBeGreaterThan(9) // 9 windows and the excerpts
    expect(png).toBeGreaterThan(9)
    expect(mp4).toBeGreaterThan(3) // parts of 15 frames and the clips
  }, 120_000)
})

describe('render items of excerpt tiles name complete files', () => {
  it('png tiles (render-strip excerptTileSec): each readable and whole when its item comes, the tiles of an excerpt in order', async () => {
    const options = { set: 'pvc', around: { labels: ['V'], padSec: 3, minGapSec: 15 } }
    const { items: input } = await runStage(excerpt, await renderInput('208', 90), { record, options })
    const spans = input.filter((i) => i.kind === 'excerpt').map((x) => (x as ExcerptItem).endSample - (x as ExcerptItem).startSample)
    const seen: RenderItem[] = []
    const tiles = await eachRender(renderStrip, { windows: false, excerpts: 'pvc', excerptTileSec: 2.5, threads: 2 }, input, (r, dir) => {
      const file = path.join(dir, r.path)
      expect(statSync(file).size).toBe(r.bytes)
      expect(existsSync(`${file}.partial`)).toBe(false)
      expect(decodePng(readFileSync(file)).width).toBe(r.width)
      const before = seen.at(-1)
      // The next tile of the same excerpt, or the first of the next one once the last came.
      if (before && before.tile !== (before.tiles as number) - 1) expect([r.of, r.tile, r.startSample]).toEqual([before.of, (before.tile as number) + 1, before.endSample])
      else expect(r.tile).toBe(0)
      seen.push(r)
    })
    expect(spans.length).toBeGreaterThan(2)
    expect(tiles).toBe(spans.reduce((n, s) => n + Math.ceil(s / 900), 0)) // 6 s (less at the record's edges) in tiles of 900 samples
    expect(spans.filter((s) => s === 2160)).toHaveLength(spans.length - 1) // all but one clipped at the record's start: 2.5, 2.5 and 1 s
  }, 120_000)
})
