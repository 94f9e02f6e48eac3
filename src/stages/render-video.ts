// `render-video`: one H.264 MP4 per record (or per part) in which each frame is the strip of one
// `segment` window (render-strip's drawing, src/render/draw-strip.ts), played back at `fps`
// frames per second, i.e. fps x step seconds of signal per second of video. A window's frame
// waits until the watermark has passed it, so its beat markers are all there (marker-join.ts).
// Frames are drawn in worker threads (at most 2 per thread in flight) and piped as raw RGBA into
// an ffmpeg child (src/sinks/video-encoder.ts), which encodes yuv420p with faststart; a frame is
// written only when ffmpeg has taken the one before (backpressure), so memory stays at a few
// frames whatever the record's length.
// Limits: with `maxDurationSec` and/or `maxBytes` a record that exceeds them follows `policy`:
// "split" closes the part and starts a numbered next one (video-part001.mp4, ...; a byte limit is
// checked every 10 frames against the growing file, and x264 holds back its look-ahead before
// writing, so a part can pass the limit by some 20 frames plus its index); "accelerate" keeps
// every k-th frame, k chosen from the record's duration so the whole record fits maxDurationSec
// (it cannot honour a byte limit, known only after encoding, so it refuses one). The policy and
// k are in each part's `render` item.
// `clips` adds a short MP4 per excerpt of the sets it names (src/sinks/video-clips.ts): strips of
// clips.windowSec stepping by clips.stepSec across the excerpt, so it scrolls through; with
// `windows: false` only the clips are made and no segment stage is needed. A clip's frames do
// not name the record, as the record's video does: clips are what models are shown
// (src/render/strip-title.ts, the `title` option).
// ffmpeg is looked up when the dataset is loaded, so a missing binary fails the run before any
// record is read, with how to install it.
import { defineStage } from '../core/stage.ts'
import type { ExcerptItem, Item, RenderItem, WindowItem } from '../core/items.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { createOrderedQueue } from '../core/map-ordered.ts'
import { createWatermarks } from '../core/watermark.ts'
import { checkFfmpegOnce, requireFfmpeg } from '../sinks/ffmpeg.ts'
import { createVideoParts, type PartDone, type VideoParts } from '../sinks/video-parts.ts'
import { renderClip } from '../sinks/video-clips.ts'
import { createRenderPool, type RenderPool } from '../threads/render-pool.ts'
import type { Joined } from '../render/marker-join.ts'
import { createSpanIntake, type RenderSpan } from '../render/span-intake.ts'
import { endMs, excerptFileName, excerptSetsOption, MARKER_LAG_RETIRED, pickLeads, retiredOption, stripOptionFields } from '../render/render-options.ts'
import { stripOptions, stripRequest } from '../render/render-request.ts'
import { stripSize } from '../render/draw-strip.ts'
import { excerptTitle, windowTitle } from '../render/strip-title.ts'

const clip = z.strictObject({ excerpts: excerptSetsOption, stepSec: z.number().positive().default(0.5), windowSec: z.number().positive().max(60).default(10) })

const schema = z
  .strictObject({
    ...stripOptionFields,
    /** Frames (windows) per second of video. */
    fps: z.number().positive().max(120).optional(),
    /** Playback speed as a multiple of real time (instead of fps: fps = speed / step seconds). */
    speed: z.number().positive().optional(),
    /** Longest video (or part) in seconds. */
    maxDurationSec: z.number().positive().optional(),
    /** Largest video part in bytes (policy split only). */
    maxBytes: z.number().int().positive().optional(),
    /** What to do with a record past the limits. */
    policy: z.enum(['split', 'accelerate']).default('split'),
    /** x264 quality (lower is better) and speed preset. */
    crf: z.number().int().min(0).max(51).default(23),
    preset: z.enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow']).default('veryfast'),
    /** File name under media/<recordId>/, without extension. */
    name: z.string().regex(/^[\w.-]+$/, 'a plain file name (letters, digits, . _ -)').default('video'),
    /**
     * A clip per excerpt of these sets (media/<recordId>/clips/<set>/<name>.mp4), frames of
     * windowSec stepping by stepSec; a list gives each its own settings (1-minute excerpts a frame
     * a second, hour-long ones a frame every 30 s) in one stage, one worker and one ring.
     */
    clips: z.union([clip, z.array(clip).min(1)]).transform((v) => (Array.isArray(v) ? v : [v])).optional(),
    /** Encode the segment stage's windows into the record's video. */
    windows: z.boolean().default(true),
    /** Path to the ffmpeg binary; default FFMPEG_PATH, then PATH (looked for when the dataset is loaded). */
    ffmpeg: z.string().min(1).optional(),
    markerLagSec: retiredOption(MARKER_LAG_RETIRED).optional(),
  })
  .refine((o) => !(o.fps && o.speed), { message: 'give either fps or speed, not both', path: ['speed'] })
  .refine((o) => !(o.policy === 'accelerate' && o.maxBytes), { message: 'policy "accelerate" cannot keep to maxBytes (the size is known only after encoding); use policy "split" or maxDurationSec', path: ['maxBytes'] })
  .refine((o) => { const sets = (o.clips ?? []).flatMap((c) => c.excerpts); return new Set(sets).size === sets.length }, { message: 'a set is named by two clips entries; give each set one entry (its stepSec and windowSec)', path: ['clips'] })

export type RenderVideoOptions = z.infer<typeof schema>

export default defineStage<RenderVideoOptions>({
  name: 'render-video',
  version: 3,
  parseOptions(raw, where) {
    const o = parseOptionsWith(schema, raw, where)
    // Looked for now, so a missing ffmpeg fails before any record is read; but only the path the
    // dataset gives is an option (and in the config hash): another PATH on resume is no change.
    requireFfmpeg('the render-video stage', o.ffmpeg ? { ...process.env, FFMPEG_PATH: o.ffmpeg } : process.env)
    return o
  },
  async *transform(source, ctx) {
    const o = ctx.options
    const ffmpeg = o.ffmpeg ?? requireFfmpeg('the render-video stage')
    await checkFfmpegOnce(ffmpeg, ctx.signal, ctx.run.once)
    const clipsOf = (set: string) => o.clips!.find((x) => x.excerpts.includes(set))!
    const intake = createSpanIntake('render-video', { markers: o.markers, windows: o.windows, excerpts: o.clips?.flatMap((x) => x.excerpts), leads: o.leads })
    const depth = 2 * o.threads
    const frames = createOrderedQueue<{ pixels: Uint8Array; window: WindowItem }>(depth + 1)
    const marks = createWatermarks(ctx.recordId)
    const spare: Uint8Array[] = [] // frame buffers back from ffmpeg, to draw the next frames into
    const clipSpare: Uint8Array[] = [] // the clips' frame buffers (their size is not the record's frames')
    let pool: RenderPool | null = null
    let parts: VideoParts | null = null
    let plan: { leads: number[]; windowSec: number; stepSec: number; fps: number; keepEvery: number } | null = null
    const drawing: number[] = [] // starts of the frames in flight, oldest first
    let openEnd = Infinity // end of the last window in the open part: its item will end there or later
    const first = () => (pool ??= createRenderPool(o.threads, 'render-video'))

    // The first window fixes the frame size (its length) and the step (the segment stage's, which
    // it carries), hence fps and k.
    const setUp = (a: WindowItem) => {
      const windowSec = a.lengthSamples / a.fs
      const stepSec = (a.stepSamples ?? a.lengthSamples) / a.fs
      const fps = o.fps ?? (o.speed ? o.speed / stepSec : 10)
      const maxFrames = o.maxDurationSec ? Math.max(1, Math.floor(o.maxDurationSec * fps + 1e-9)) : Infinity // 4.6 s x 25 fps is 114.999...
      const durationSec = intake.recording?.durationSec ?? 0
      const keepEvery = o.policy === 'accelerate' && Number.isFinite(maxFrames) ? Math.max(1, Math.ceil(Math.ceil(durationSec / stepSec) / maxFrames)) : 1
      const leads = pickLeads('render-video', o.leads, a.labels)
      const split = o.policy === 'split' && (Number.isFinite(maxFrames) || o.maxBytes !== undefined)
      parts = createVideoParts({
        ffmpeg, media: ctx.media, name: o.name, numbered: split, fps, crf: o.crf, preset: o.preset, signal: ctx.signal,
        maxFrames: split ? maxFrames : Infinity, maxBytes: o.maxBytes, size: stripSize(windowSec, leads.length, stripOptions(o)),
      })
      plan = { leads, windowSec, stepSec, fps, keepEvery }
    }
    const itemFor = (p: PartDone): RenderItem => {
      const { leads, stepSec, keepEvery } = plan!
      return {
        kind: 'render', id: `${ctx.recordId}:${p.rel}`, recordId: ctx.recordId, format: 'mp4', path: p.path, bytes: p.bytes,
        startSample: p.first.startSample, endSample: p.last.startSample + p.last.lengthSamples,
        startMs: p.first.startMs, endMs: endMs(p.last.startMs, p.last.lengthSamples, p.last.fs),
        leads: leads.map((i) => p.first.labels[i]), part: p.part, frames: p.frames, fps: p.fps, durationSec: p.frames / p.fps,
        width: p.width, height: p.height, policy: o.policy, keepEvery, speedX: p.fps * stepSec * keepEvery,
      }
    }
    // Writes frames oldest first while more than `keep` are drawing; a part that closes becomes an item.
    async function* land(keep?: number): AsyncGenerator<Item> {
      for await (const f of frames.land(keep)) {
        const closed = await parts!.write(f.pixels, f.window)
        drawing.shift()
        openEnd = f.window.startSample + f.window.lengthSamples
        spare.push(f.pixels) // ffmpeg has taken its bytes: the next frame may be drawn into it
        ctx.count('video-frame')
        if (closed) yield itemFor(closed)
      }
    }
    async function* clip(ex: ExcerptItem, markers: Joined<RenderSpan>['markers']): AsyncGenerator<Item> {
      const cut = intake.cut(ex)
      const leads = cut.labels.map((_, i) => i) // the cut holds the leads drawn only
      const strip = stripOptions(o)
      const c = clipsOf(ex.set)
      const size = stripSize(c.windowSec, leads.length, strip)
      const fps = o.fps ?? (o.speed ? o.speed / c.stepSec : 10)
      const rel = `clips/${ex.set}/${excerptFileName(ex)}.mp4`
      const samples = leads.map((i) => cut.samples[i])
      const done = await renderClip({ startSample: ex.startSample, startMs: ex.startMs, samples, labels: leads.map((i) => cut.labels[i]), fs: cut.fs, markers }, first(), {
        ffmpeg, media: ctx.media, rel, fps, crf: o.crf, preset: o.preset, windowSec: c.windowSec, stepSec: c.stepSec, depth, size, strip,
        title: excerptTitle(ex, o.markers, ctx.recordId, o.title), startTime: intake.recording?.startTime ?? null, signal: ctx.signal, spare: clipSpare,
      })
      ctx.count('video-frame', done.frames)
      const span = ex.endSample - ex.startSample
      yield {
        kind: 'render', id: `${ctx.recordId}:${rel}`, recordId: ctx.recordId, format: 'mp4', path: done.path, bytes: done.bytes,
        startSample: ex.startSample, endSample: ex.endSample, startMs: ex.startMs, endMs: endMs(ex.startMs, span, cut.fs),
        leads: leads.map((i) => cut.labels[i]), of: ex.id, from: [ex.id], ...(ex.reason.event ? { event: ex.reason.event } : {}),
        frames: done.frames, fps, durationSec: done.frames / fps, width: size.width, height: size.height, stepSec: c.stepSec,
      } satisfies RenderItem
    }
    async function* release(ready: Joined<RenderSpan>[]): AsyncGenerator<Item> {
      for (const j of ready) {
        if ('excerpt' in j.span) {
          yield* clip(j.span.excerpt, j.markers)
          continue
        }
        const w = j.span.window
        if (!plan) setUp(w)
        if (w.index % plan!.keepEvery !== 0) continue
        const request = stripRequest('rgba', w, j.markers, plan!.leads, o, windowTitle(ctx.recordId, o.title), intake.recording?.startTime ?? null, plan!.windowSec)
        request.target = spare.pop()
        frames.push(first().draw(request).then((pixels) => ({ pixels, window: w })))
        drawing.push(w.startSample)
        yield* land()
      }
    }

    try {
      for await (const item of source) {
        if (item.kind === 'watermark') {
          marks.seen(item.sample)
          yield* release(intake.watermark(item.sample))
          // A part is positioned at its end (it becomes an item when it closes): the open part holds
          // the watermark at its last window's end, the frames drawing at their windows.
          const w = marks.next(Math.min(intake.lowest(), drawing[0] ?? Infinity, openEnd))
          if (w) yield w
          continue
        }
        yield item
        intake.take(item)
      }
      yield* release(intake.end())
      yield* land(0)
      const closed = await (parts as VideoParts | null)?.finish()
      if (closed) yield itemFor(closed)
      const w = marks.next()
      if (w) yield w
    } finally {
      await frames.settle()
      await (parts as VideoParts | null)?.abort()
      await (pool as RenderPool | null)?.close()
    }
  },
})
