// An excerpt's renders carry no record id (stage layer, real ffmpeg for the clip): a model may
// know public records by name, and excerpts' strips, clips and text are what it is shown. The
// same excerpts of record 208 are rendered under two record ids: the strips (whole and tiled),
// the clip and the text are the same bytes under both, the text does not contain the id, and the
// chat requests built from them (text, images, video) do not either. Windows keep the record id
// in their title by default, `title: anonymous` drops it there too, and `title: record` puts it
// on excerpts.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Item, QaItem, RenderItem } from '../../src/core/items.ts'
import type { RecordSpec } from '../../src/core/record.ts'
import excerpt from '../../src/stages/excerpt.ts'
import renderStrip from '../../src/stages/render-strip.ts'
import renderText from '../../src/stages/render-text.ts'
import renderVideo from '../../src/stages/render-video.ts'
import { createInputs } from '../../src/qa/item-inputs.ts'
import { DEFAULT_STRIP_OPTIONS, stripGeometry } from '../../src/render/draw-strip.ts'
import { decodePng } from '../../src/render/png.ts'
import { buildChatRequest } from '../../src/models/chat-request.ts'
import { apiModelSchema } from '../../src/models/model-config.ts'
import { skipWithoutFfmpeg } from '../helpers/ffprobe.ts'
import { renderInput } from '../helpers/render-input.ts'
import { runStage, testContext } from '../helpers/stage-context.ts'
import { thrown } from '../helpers/thrown.ts'

// Ids that no number, base64 or set name can contain by chance (letters and a dash).
const NAMED = 'mitdb-two-oh-three'
const OTHER = 'other-record'
const spec = (id: string): RecordSpec => ({ id, path: 'none', format: 'wfdb', annotator: false, annotatorExplicit: false })
const runDir = testContext(renderStrip, {}, spec(NAMED), []).runDir
const HAVE = !skipWithoutFfmpeg()

const input208 = await renderInput('208', 60)
const excerpted = (await runStage(excerpt, input208, { options: { set: 'qa', around: { labels: ['V'], padSec: 5, minGapSec: 20 } } })).items

const renders = (items: Item[]) => items.filter((i): i is RenderItem => i.kind === 'render')
const bytesOf = (r: RenderItem) => readFileSync(path.join(runDir, r.path))
const textOf = (r: RenderItem) => bytesOf(r).subarray(Number(r.offset), Number(r.offset) + r.bytes)

/** `stage`'s render items over the excerpts under record id `id`. */
async function rendered(stage: typeof renderStrip | typeof renderText | typeof renderVideo, id: string, options: Record<string, unknown>): Promise<RenderItem[]> {
  return renders((await runStage(stage as typeof renderStrip, excerpted, { record: spec(id), options })).items)
}

/** Expects the renders of two record ids to be the same files byte for byte, in the same places under each record's folder. */
function expectSameBytes(a: RenderItem[], b: RenderItem[], bytes = bytesOf) {
  expect(a.length).toBeGreaterThan(0)
  expect(b.map((r) => r.path.replace(`media/${OTHER}/`, ''))).toEqual(a.map((r) => r.path.replace(`media/${NAMED}/`, '')))
  a.forEach((r, k) => expect(bytes(r).equals(bytes(b[k])), r.path).toBe(true))
}

describe('excerpt renders carry no record id', () => {
  it('strips of an excerpt, whole and tiled, with or without reference markers: the same PNG bytes under two record ids', async () => {
    for (const options of [{ markers: 'none', dir: 'whole' }, { markers: 'all', dir: 'marked' }, { markers: 'none', excerptTileSec: 4, dir: 'tiles' }]) {
      const o = { windows: false, excerpts: 'qa', ...options }
      expectSameBytes(await rendered(renderStrip, NAMED, o), await rendered(renderStrip, OTHER, o))
    }
  }, 60_000)

  it('windows keep the record id unless title is anonymous; title record puts it on excerpts', async () => {
    const windows = { windows: true, every: 3, dir: 'windows' }
    const named = await rendered(renderStrip, NAMED, windows)
    const other = await rendered(renderStrip, OTHER, windows)
    expect(named.length).toBeGreaterThan(1)
    named.forEach((r, k) => expect(bytesOf(r).equals(bytesOf(other[k]))).toBe(false))
    const anonymous = { ...windows, title: 'anonymous', dir: 'windows-anonymous' }
    expectSameBytes(await rendered(renderStrip, NAMED, anonymous), await rendered(renderStrip, OTHER, anonymous))
    const titled = { windows: false, excerpts: 'qa', markers: 'none', title: 'record', dir: 'titled' }
    const a = await rendered(renderStrip, NAMED, titled)
    const b = await rendered(renderStrip, OTHER, titled)
    a.forEach((r, k) => expect(bytesOf(r).equals(bytesOf(b[k]))).toBe(false))
    // The id is in the header only: below it, the strip is the anonymous one's, pixel for pixel.
    const plain = await rendered(renderStrip, NAMED, { ...titled, title: undefined, dir: 'plain' })
    a.forEach((r, k) => {
      const [x, y] = [decodePng(bytesOf(r)), decodePng(bytesOf(plain[k]))]
      const header = stripGeometry((r.endSample - r.startSample) / 360, 2, DEFAULT_STRIP_OPTIONS).headerHeight * x.width * 4
      expect(Buffer.from(x.data.subarray(header)).equals(Buffer.from(y.data.subarray(header)))).toBe(true)
      expect(Buffer.from(x.data.subarray(0, header)).equals(Buffer.from(y.data.subarray(0, header)))).toBe(false)
    })
    const bad = thrown(() => renderStrip.parseOptions!({ title: 'name' }, { file: 'd.yaml', yamlPath: 'stages[3].options' }))
    expect(bad).toMatchObject({ message: expect.stringContaining('expected one of "record"|"anonymous"'), context: { file: 'd.yaml', yamlPath: 'stages[3].options.title' } })
  }, 60_000)

  it('the text of an excerpt: the same bytes under two record ids, without the id', async () => {
    const o = { windows: false, excerpts: 'qa', file: 'identity.txt' }
    const a = await rendered(renderText, NAMED, o)
    const b = await rendered(renderText, OTHER, o)
    expectSameBytes(a, b, textOf)
    for (const r of a) expect(textOf(r).toString('utf8')).not.toContain(NAMED)
  }, 60_000)

  it.runIf(HAVE)('the clip of an excerpt: the same MP4 bytes under two record ids', async () => {
    const o = { windows: false, fps: 5, markers: 'none', clips: { excerpts: 'qa', stepSec: 1, windowSec: 4 } }
    expectSameBytes(await rendered(renderVideo, NAMED, o), await rendered(renderVideo, OTHER, o))
  }, 60_000)

  it.runIf(HAVE)('what a text, an image and a video model are sent for an excerpt names no record', async () => {
    const text = await rendered(renderText, NAMED, { windows: false, excerpts: 'qa', file: 'sent.txt' })
    const strips = await rendered(renderStrip, NAMED, { windows: false, excerpts: 'qa', markers: 'none', excerptTileSec: 5, dir: 'sent' })
    const clips = await rendered(renderVideo, NAMED, { windows: false, fps: 5, markers: 'none', clips: { excerpts: 'qa', stepSec: 1, windowSec: 4 } })
    const ex = excerpted.find((i) => i.kind === 'excerpt')!
    const inputs = createInputs()
    for (const r of [...text, ...strips, ...clips].filter((r) => r.of === ex.id)) inputs.add(r)
    const item = {
      kind: 'qa', id: `${NAMED}:${ex.id}:closed_presence:0`, recordId: NAMED, caseId: NAMED, split: 'test', taskType: 'closed_presence', tier: 'Closed-QA',
      excerpt: { id: ex.id, set: 'qa', startSample: 0, endSample: 0, startMs: 1000, endMs: 11_000 }, question: 'Is there a premature ventricular contraction?', answer: '', gold: { evidenceBeats: [] }, inputs: inputs.inputs(),
    } as unknown as QaItem
    expect(Object.keys(item.inputs).sort()).toEqual(['images', 'text', 'video'])
    const io = { read: async (p: string, range?: { offset: number; bytes: number }) => (range ? readFileSync(path.join(runDir, p)).subarray(range.offset, range.offset + range.bytes) : readFileSync(path.join(runDir, p))), frames: async () => [] }
    for (const modality of ['text', 'images', 'video']) {
      const model = apiModelSchema.parse({ name: 'm', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'x', modality, video: { send: 'video_url' } })
      const { body } = await buildChatRequest(item, model, io)
      expect(JSON.stringify(body), modality).not.toContain(NAMED)
    }
  }, 60_000)
})
