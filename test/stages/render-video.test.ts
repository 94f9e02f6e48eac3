// render-video on the first minute of record 100 (stage layer, real ffmpeg): the MP4 read back
// with ffprobe (frames, duration, size, codec, faststart) and one frame decoded and compared
// with the strip of its window; the split and accelerate policies; ffmpeg killed mid-record.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BeatItem, Item, RenderItem, WindowItem } from '../../src/core/items.ts'
import renderVideo from '../../src/stages/render-video.ts'
import segment from '../../src/stages/segment.ts'
import excerpt from '../../src/stages/excerpt.ts'
import { watermarkViolations } from '../helpers/watermarks.ts'
import { DEFAULT_STRIP_OPTIONS, drawStrip, stripSize } from '../../src/render/draw-strip.ts'
import { decodeFrame, probeVideo, skipWithoutFfmpeg } from '../helpers/ffprobe.ts'
import { renderInput } from '../helpers/render-input.ts'
import { runStage, testContext } from '../helpers/stage-context.ts'
import { pipelineRejection } from '../helpers/thrown.ts'

const HAVE = !skipWithoutFfmpeg() // skips (with a warning) without ffmpeg and ffprobe, except under CI

const input = HAVE ? await renderInput('100', 60) : []
const input208 = HAVE ? await renderInput('208', 90) : []
// A clip of 4 s strips stepping by 1 s across 8 s around each V: the V scrolls from the right edge to the left.
const excerpted208 = HAVE ? (await runStage(excerpt, input208, { options: { set: 'v', around: { labels: ['V'], padSec: 4, minGapSec: 20 } } })).items : []
const windows = input.filter((i): i is WindowItem => i.kind === 'window')
const record = { id: 'rec', path: 'none', format: 'wfdb' as const, annotator: false as const, annotatorExplicit: false }
const runDir = testContext(renderVideo, {}, record, []).runDir
const renders = (items: Item[]) => items.filter((i): i is RenderItem => i.kind === 'render')

describe.runIf(HAVE)('render-video', () => {
  it('encodes a frame per window; ffprobe reads it back and a decoded frame is the strip of its window', async () => {
    const { items } = await runStage(renderVideo, input, { options: { name: 'whole', fps: 5 } })
    const [r] = renders(items)
    expect(renders(items)).toHaveLength(1)
    const size = stripSize(10, 2, DEFAULT_STRIP_OPTIONS)
    expect(r).toMatchObject({ format: 'mp4', path: 'media/rec/whole.mp4', frames: 6, fps: 5, part: 1, policy: 'split', keepEvery: 1, speedX: 50, width: size.width, height: size.height, startSample: 0, endSample: 21600, leads: ['MLII', 'V5'] })
    const file = path.join(runDir, r.path)
    expect(r.bytes).toBe(statSync(file).size)
    const probe = await probeVideo(file)
    expect(probe).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: size.width, height: size.height, frames: 6, faststart: true })
    expect(probe.durationSec).toBeCloseTo(6 / 5, 1)
    // Frame 3 against the strip of window 3 with its reference beats (lossy: mean error per byte).
    const w = windows[3]
    const markers = input.filter((i): i is BeatItem => i.kind === 'beat').filter((b) => b.sample >= w.startSample && b.sample < w.startSample + 3600).map((b) => ({ sample: b.sample, label: b.label, source: b.source }))
    const strip = drawStrip({ samples: w.samples, labels: w.labels, fs: w.fs, startSample: w.startSample, startMs: w.startMs, windowSec: 10, markers, title: 'rec', startTime: null })
    const frame = await decodeFrame(file, 3, size.width, size.height)
    const other = drawStrip({ samples: windows[1].samples, labels: w.labels, fs: w.fs, startSample: windows[1].startSample, startMs: windows[1].startMs, windowSec: 10, markers: [], title: 'rec', startTime: null })
    // yuv420p halves the chroma of the thin red grid lines, so the mean error is a few levels
    // (4.1 here, against 12.2 for another window's strip); the black trace must come through.
    expect(meanAbsError(frame, strip.data)).toBeLessThan(6)
    expect(meanAbsError(frame, other.data)).toBeGreaterThan(2 * meanAbsError(frame, strip.data))
    expect(darkShare(strip.data, frame)).toBeGreaterThan(0.9)
    expect(darkShare(other.data, frame)).toBeLessThan(0.6)
    expect(readdirSync(path.dirname(file)).filter((f) => f.includes('partial'))).toEqual([])
  }, 60_000)

  it('splits a record past maxDurationSec into numbered parts, or accelerates it by keeping every k-th frame', async () => {
    const split = renders((await runStage(renderVideo, input, { options: { name: 'split', fps: 10, maxDurationSec: 0.3 } })).items)
    expect(split.map((r) => [r.path, r.frames, r.part, r.startSample])).toEqual([['media/rec/split-part001.mp4', 3, 1, 0], ['media/rec/split-part002.mp4', 3, 2, 10800]])
    for (const r of split) expect((await probeVideo(path.join(runDir, r.path))).frames).toBe(3)
    const fast = renders((await runStage(renderVideo, input, { options: { name: 'fast', fps: 10, maxDurationSec: 0.3, policy: 'accelerate' } })).items)
    expect(fast.map((r) => [r.path, r.frames, r.keepEvery, r.speedX, r.policy])).toEqual([['media/rec/fast.mp4', 3, 2, 200, 'accelerate']])
    expect((await probeVideo(path.join(runDir, fast[0].path))).frames).toBe(3)
  }, 60_000)

  it('makes a clip of each excerpt of its sets (around each reference V of record 208): the V scrolls across strips stepping by stepSec', async () => {
    const { items } = await runStage(renderVideo, excerpted208, { options: { windows: false, fps: 5, clips: { excerpts: 'v', stepSec: 1, windowSec: 4 } } })
    expect(watermarkViolations(items, excerpted208).violations).toEqual([])
    const clips = renders(items)
    const vs = input208.filter((i): i is BeatItem => i.kind === 'beat' && (i as BeatItem).source === 'reference' && (i as BeatItem).label === 'V')
    const expected: number[] = []
    for (const v of vs) if (!expected.length || v.sample - expected.at(-1)! >= 20 * 360) expected.push(v.sample)
    expect(clips.map((r) => (r.event as { sample: number }).sample)).toEqual(expected)
    const size = stripSize(4, 2, DEFAULT_STRIP_OPTIONS)
    const r = clips[1]
    const e = r.event as { sample: number; timeMs: number }
    expect(r).toMatchObject({ path: `media/rec/clips/v/e${String(e.sample).padStart(9, '0')}-V.mp4`, frames: 5, fps: 5, startSample: e.sample - 4 * 360, endSample: e.sample + 4 * 360, width: size.width, height: size.height, of: `rec:ex:v:${e.sample - 4 * 360}` })
    expect((await probeVideo(path.join(runDir, r.path))).frames).toBe(5)
    // The middle frame is the 4 s strip centred on the V.
    const from = e.sample - 2 * 360
    const windows208 = input208.filter((i): i is WindowItem => i.kind === 'window')
    const samples = windows208[0].samples.map((_, l) => {
      const x = new Float32Array(4 * 360)
      for (let i = 0; i < x.length; i++) x[i] = windows208[Math.floor((from + i) / 3600)].samples[l][(from + i) % 3600]
      return x
    })
    const markers = input208.filter((i): i is BeatItem => i.kind === 'beat').filter((b) => b.sample >= from && b.sample < from + 4 * 360).map((b) => ({ sample: b.sample, label: b.label, source: b.source }))
    const strip = drawStrip({ samples, labels: windows208[0].labels, fs: 360, startSample: from, startMs: Math.round(e.timeMs - 4000) + 2000, windowSec: 4, markers, title: 'V', startTime: null })
    const frame = await decodeFrame(path.join(runDir, r.path), 2, size.width, size.height)
    expect(darkShare(strip.data, frame)).toBeGreaterThan(0.9)
    // ... and not the frame a step later.
    const next = await decodeFrame(path.join(runDir, r.path), 3, size.width, size.height)
    expect(darkShare(strip.data, next)).toBeLessThan(0.6)
  }, 60_000)

  it('draws several sets in one stage, each with its own clip settings (clips as a list), and refuses a set named twice', async () => {
    // A second set of the same spans, stepped twice as coarsely: its clips have half the steps.
    const twoSets = excerpted208.flatMap((i): Item[] => (i.kind === 'excerpt' ? [i, { ...i, set: 'w', id: i.id.replace(':ex:v:', ':ex:w:') }] : [i]))
    const { items } = await runStage(renderVideo, twoSets, { options: { windows: false, fps: 5, clips: [{ excerpts: 'v', stepSec: 1, windowSec: 4 }, { excerpts: ['w'], stepSec: 2, windowSec: 4 }] } })
    const clips = renders(items)
    const v = clips.filter((r) => r.path.includes('/clips/v/'))
    const w = clips.filter((r) => r.path.includes('/clips/w/'))
    expect(v.length).toBeGreaterThan(1)
    expect(w.map((r) => r.startSample)).toEqual(v.map((r) => r.startSample))
    // 4 s frames across each excerpt (8 s, or less where the record's start or end clips it): a
    // frame per step of 1 s for v, of 2 s for w.
    const frames = (r: RenderItem, step: number) => Math.floor(((r.endSample - r.startSample) / 360 - 4) / step + 1e-9) + 1
    expect(v.map((r) => [r.frames, r.stepSec])).toEqual(v.map((r) => [frames(r, 1), 1]))
    expect(w.map((r) => [r.frames, r.stepSec])).toEqual(w.map((r) => [frames(r, 2), 2]))
    expect(w.some((r) => r.frames === 3)).toBe(true)
    expect((await probeVideo(path.join(runDir, w[0].path))).frames).toBe(w[0].frames)
    const twice = await pipelineRejection(runStage(renderVideo, [], { options: { windows: false, clips: [{ excerpts: 'v' }, { excerpts: ['x', 'v'] }] } }))
    expect(twice.message).toMatch(/a set is named by two clips entries/)
  }, 60_000)

  it('encodes clips beside the record\'s video, with the same clips, frames and pixels as alone', async () => {
    const clipOptions = { excerpts: 'v', stepSec: 1, windowSec: 4 }
    const size = stripSize(4, 2, DEFAULT_STRIP_OPTIONS)
    // The same record id both times (the clips' paths are under it); each clip's middle frame decoded before the second run rewrites it.
    const run = async (windows: boolean) => {
      const rs = renders((await runStage(renderVideo, excerpted208, { record: { ...record, id: 'clips' }, options: { windows, fps: 5, clips: clipOptions } })).items)
      const clips = await Promise.all(rs.filter((r) => r.event).map(async (r) => ({ path: r.path, frames: r.frames, startSample: r.startSample, middle: Buffer.from(await decodeFrame(path.join(runDir, r.path), Math.floor((r.frames as number) / 2), size.width, size.height)) })))
      return { rs, clips }
    }
    const alone = await run(false)
    const both = await run(true)
    expect(both.clips.length).toBeGreaterThan(1)
    expect(both.clips.map((c) => [c.path, c.frames, c.startSample])).toEqual(alone.clips.map((c) => [c.path, c.frames, c.startSample]))
    both.clips.forEach((c, k) => expect(c.middle.equals(alone.clips[k].middle), c.path).toBe(true))
    const video = both.rs.find((r) => !r.event)!
    expect(video).toMatchObject({ path: 'media/clips/video.mp4', frames: input208.filter((i) => i.kind === 'window').length })
    for (const r of both.rs) expect((await probeVideo(path.join(runDir, r.path))).frames).toBe(r.frames)
  }, 60_000)

  it('splits on maxBytes into contiguous numbered parts, closing a part at a 10-frame check once its file has reached the limit', async () => {
    // 30 s windows stepping by 1 s: 31 frames. x264 holds back its look-ahead, so the file
    // reaches 1000 bytes only some frames after they were written.
    const stepped = (await runStage(segment, input.filter((i) => i.kind !== 'window'), { options: { window: 30, step: 1 } })).items
    const parts = renders((await runStage(renderVideo, stepped, { options: { name: 'bytes', fps: 5, maxBytes: 1000, leads: ['MLII'] } })).items)
    expect(parts.length).toBeGreaterThanOrEqual(2)
    expect(parts.map((r) => r.path)).toEqual(parts.map((_, k) => `media/rec/bytes-part${String(k + 1).padStart(3, '0')}.mp4`))
    expect(parts.reduce((n, r) => n + (r.frames as number), 0)).toBe(31)
    for (const [k, r] of parts.entries()) {
      expect((await probeVideo(path.join(runDir, r.path))).frames).toBe(r.frames)
      if (k < parts.length - 1) {
        expect((r.frames as number) % 10).toBe(0)
        expect(r.bytes).toBeGreaterThan(1000)
      }
      if (k > 0) expect(r.startSample).toBe(parts[k - 1].startSample + (parts[k - 1].frames as number) * 360)
    }
  }, 60_000)

  it('refuses accelerate with a byte limit, and fps with speed, naming the option', () => {
    const where = { file: 'd.yaml', yamlPath: 'stages[3].options' }
    expect(() => renderVideo.parseOptions!({ policy: 'accelerate', maxBytes: 1e6 }, where)).toThrow(/policy "accelerate" cannot keep to maxBytes/)
    expect(() => renderVideo.parseOptions!({ fps: 5, speed: 10 }, where)).toThrow(/either fps or speed/)
  })

  it("fails with ffmpeg's error when the ffmpeg child is killed mid-record, leaving no process and no partial file", async () => {
    // The stage reports each frame ffmpeg has taken (ctx.count('video-frame')). The source kills
    // ffmpeg when the stage asks for its next item after the first such frame: ffmpeg has started
    // then (a frame larger than a pipe went in), windows are still to come and frames are in
    // flight, so it is killed mid-record at a point fixed by the stage itself, not by a timer.
    let framesTaken = 0
    let windowsLeft = windows.length
    let killedWithWindowsLeft: number | null = null
    const ctx = {
      ...testContext(renderVideo, { name: 'killed', fps: 5 }, record, []),
      count(name: string, n = 1) {
        if (name === 'video-frame') framesTaken += n
      },
    }
    async function* feed(): AsyncGenerator<Item> {
      for (const item of input) {
        if (framesTaken > 0 && killedWithWindowsLeft === null) {
          const pids = childFfmpeg()
          expect(pids.length).toBe(1)
          process.kill(pids[0], 'SIGKILL')
          killedWithWindowsLeft = windowsLeft
        }
        if (item.kind === 'window') windowsLeft--
        yield item
      }
    }
    const err = await pipelineRejection((async () => {
      for await (const item of renderVideo.transform(feed(), ctx)) void item
    })())
    expect(killedWithWindowsLeft).toBeGreaterThan(0)
    expect(err).toMatchObject({ code: 'E_FFMPEG' })
    expect(err.message).toMatch(/ffmpeg exited with signal SIGKILL while encoding .*killed\.mp4/)
    expect(childFfmpeg()).toEqual([])
    expect(existsSync(path.join(runDir, 'media/rec/killed.mp4'))).toBe(false)
    expect(readdirSync(path.join(runDir, 'media/rec')).filter((f) => f.startsWith('killed'))).toEqual([])
  }, 60_000)
})

/** Pids of ffmpeg processes whose parent is this process. */
function childFfmpeg(): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-x', 'ffmpeg'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number)
  } catch {
    return [] // pgrep exits 1 when nothing matches
  }
}

function meanAbsError(a: Uint8Array, b: Uint8Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i])
  return sum / a.length
}

/** The share of the near-black pixels of `strip` (the trace and text) that are dark in `frame` too. */
function darkShare(strip: Uint8Array, frame: Uint8Array): number {
  let dark = 0
  let kept = 0
  for (let i = 0; i < strip.length; i += 4) {
    if (strip[i] > 60 || strip[i + 1] > 60 || strip[i + 2] > 60) continue
    dark++
    if (frame[i] + frame[i + 1] + frame[i + 2] < 3 * 128) kept++
  }
  return kept / dark
}
