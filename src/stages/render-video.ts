// `render-video` (issue 4): one H.264 MP4 per record (or per part) in which each frame is the
// strip of one `segment` window (render-strip's drawing, src/render/draw-strip.ts), played back
// at `fps` frames per second, i.e. fps x step seconds of signal per second of video. Frames are
// drawn in worker threads (render-pool.ts, at most 2 per thread in flight) and piped as raw RGBA
// into an ffmpeg child (src/sinks/video-encoder.ts), which encodes yuv420p with faststart; a
// frame is written only when ffmpeg has taken the one before (backpressure), so memory stays at a
// few frames whatever the record's length.
// Limits: with `maxDurationSec` and/or `maxBytes` a record that exceeds them follows `policy`:
// "split" closes the part and starts a numbered next one (video-part001.mp4, ...; a byte limit is
// checked every 10 frames against the growing file, and x264 holds back its look-ahead before
// writing, so a part can pass the limit by some 20 frames plus its index); "accelerate" keeps every k-th frame, k chosen from the record's duration so the
// whole record fits maxDurationSec (it cannot honour a byte limit, which is only known after
// encoding, so it refuses one). The policy and k are recorded in each part's `render` item.
// `clips` adds a short MP4 around each chosen beat or rhythm change (render-events.ts,
// video-clips.ts): strips of clips.windowSec stepping by clips.stepSec across the event, so it
// scrolls through; with `windows: false` only the clips are made and no segment stage is needed.
// ffmpeg is looked up when the dataset is loaded, so a missing binary fails the run before any
// record is read, with how to install it.
import path from 'node:path'
import { defineStage } from '../core/stage.ts'
import type { Item, RecordingItem, RenderItem, WindowItem } from '../core/items.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { checkFfmpegOnce, requireFfmpeg } from '../sinks/ffmpeg.ts'
import { createRenderPool, type RenderPool } from '../threads/render-pool.ts'
import { createWindowHold, type HeldWindow } from '../render/render-hold.ts'
import { endMs, noWindows, pickLeads, runPath, stripOptionFields } from '../render/render-options.ts'
import { stripOptions, stripRequest } from '../render/render-request.ts'
import { createVideoParts, type PartDone, type VideoParts } from '../sinks/video-parts.ts'
import { createEventPicker, eventOptionsSchema, type EventCut } from '../render/render-events.ts'
import { renderClip } from '../sinks/video-clips.ts'
import { stripSize } from '../render/draw-strip.ts'

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
    /** Also a clip around each chosen event (media/<recordId>/clips/e<sample>-<label>.mp4), frames stepping by stepSec. */
    clips: eventOptionsSchema.extend({ stepSec: z.number().positive().default(0.5), windowSec: z.number().positive().max(60).default(10) }).optional(),
    /** Encode the segment stage's windows into the record's video. */
    windows: z.boolean().default(true),
    /** Path to the ffmpeg binary; default FFMPEG_PATH, then PATH (filled in when the dataset is loaded). */
    ffmpeg: z.string().min(1).optional(),
  })
  .refine((o) => !(o.fps && o.speed), { message: 'give either fps or speed, not both', path: ['speed'] })
  .refine((o) => !(o.policy === 'accelerate' && o.maxBytes), { message: 'policy "accelerate" cannot keep to maxBytes (the size is known only after encoding); use policy "split" or maxDurationSec', path: ['maxBytes'] })

export type RenderVideoOptions = z.infer<typeof schema>

export default defineStage<RenderVideoOptions>({
  name: 'render-video',
  version: 1,
  parseOptions(raw, where) {
    const o = parseOptionsWith(schema, raw, where)
    return { ...o, ffmpeg: o.ffmpeg ?? requireFfmpeg('the render-video stage') }
  },
  async *transform(source, ctx) {
    const o = ctx.options
    await checkFfmpegOnce(o.ffmpeg!, ctx.signal)
    const hold = createWindowHold(o.markers, o.markerLagSec)
    const depth = 2 * o.threads
    const flight: { frame: Promise<Uint8Array>; window: WindowItem }[] = []
    const spare: Uint8Array[] = [] // frame buffers back from ffmpeg, to draw the next frames into
    let pool: RenderPool | null = null
    let parts: VideoParts | null = null
    let plan: { leads: number[]; windowSec: number; stepSec: number; fps: number; keepEvery: number } | null = null
    let startTime: string | null = null
    let durationSec = 0
    let windows = 0
    let blocks = 0

    // The first window fixes the frame size (its length) and the step (the segment stage's, which
    // it carries), hence fps and k.
    const setUp = (a: WindowItem) => {
      const windowSec = a.lengthSamples / a.fs
      const stepSec = (a.stepSamples ?? a.lengthSamples) / a.fs
      const fps = o.fps ?? (o.speed ? o.speed / stepSec : 10)
      const maxFrames = o.maxDurationSec ? Math.max(1, Math.floor(o.maxDurationSec * fps + 1e-9)) : Infinity // 4.6 s x 25 fps is 114.999...
      const keepEvery = o.policy === 'accelerate' && Number.isFinite(maxFrames) ? Math.max(1, Math.ceil(Math.ceil(durationSec / stepSec) / maxFrames)) : 1
      const leads = pickLeads('render-video', o.leads, a.labels)
      const split = o.policy === 'split' && (Number.isFinite(maxFrames) || o.maxBytes !== undefined)
      parts = createVideoParts({
        ffmpeg: o.ffmpeg!, dir: ctx.mediaDir, name: o.name, numbered: split, fps, crf: o.crf, preset: o.preset, signal: ctx.signal,
        maxFrames: split ? maxFrames : Infinity, maxBytes: o.maxBytes, size: stripSize(windowSec, leads.length, stripOptions(o)),
      })
      plan = { leads, windowSec, stepSec, fps, keepEvery }
    }
    const itemFor = (p: PartDone): RenderItem => {
      const { leads, stepSec, keepEvery } = plan!
      return {
        kind: 'render', recordId: ctx.recordId, format: 'mp4', path: runPath(ctx.runDir, p.file), bytes: p.bytes,
        startSample: p.first.startSample, endSample: p.last.startSample + p.last.lengthSamples,
        startMs: p.first.startMs, endMs: endMs(p.last.startMs, p.last.lengthSamples, p.last.fs),
        leads: leads.map((i) => p.first.labels[i]), part: p.part, frames: p.frames, fps: p.fps, durationSec: p.frames / p.fps,
        width: p.width, height: p.height, policy: o.policy, keepEvery, speedX: p.fps * stepSec * keepEvery,
      }
    }
    // Lands frames oldest first while more than `keep` are in flight; a part that closes becomes an item.
    async function* land(keep: number): AsyncGenerator<Item> {
      while (flight.length > keep) {
        const f = flight.shift()!
        const pixels = await f.frame
        const closed = await parts!.write(pixels, f.window)
        spare.push(pixels) // ffmpeg has taken its bytes: the next frame may be drawn into it
        ctx.count?.('video-frame')
        if (closed) yield itemFor(closed)
      }
    }
    async function* draw(ready: HeldWindow[]): AsyncGenerator<Item> {
      for (const h of ready) {
        if (!plan) setUp(h.window)
        if (h.window.index % plan!.keepEvery !== 0) continue
        pool ??= createRenderPool(o.threads, 'render-video')
        const request = stripRequest('rgba', h, plan!.leads, o, ctx.recordId, startTime, plan!.windowSec)
        request.target = spare.pop()
        const frame = pool.draw(request)
        frame.catch(() => undefined) // awaited in order by land(); not unhandled meanwhile
        flight.push({ frame, window: h.window })
        yield* land(depth)
      }
    }
    const c = o.clips
    const picker = c ? createEventPicker(c, o.markers, o.markerLagSec, c.windowSec / 2) : null
    const clipSpare: Uint8Array[] = [] // the clips' frame buffers (their size is not the record's frames')
    async function* clip(cuts: EventCut[]): AsyncGenerator<Item> {
      for (const cut of cuts) {
        const leads = pickLeads('render-video', o.leads, cut.labels)
        pool ??= createRenderPool(o.threads, 'render-video')
        const strip = stripOptions(o)
        const size = stripSize(c!.windowSec, leads.length, strip)
        const fps = o.fps ?? (o.speed ? o.speed / c!.stepSec : 10)
        const done = await renderClip(cut, leads, pool, { ffmpeg: o.ffmpeg!, dir: path.join(ctx.mediaDir, 'clips'), fps, crf: o.crf, preset: o.preset, windowSec: c!.windowSec, stepSec: c!.stepSec, padSec: c!.padSec, depth, size, strip, title: `${ctx.recordId} ${cut.event.label}`, startTime, signal: ctx.signal, source: c!.source, spare: clipSpare })
        ctx.count?.('video-frame', done.frames)
        const span = cut.samples[0].length
        yield {
          kind: 'render', recordId: ctx.recordId, format: 'mp4', path: runPath(ctx.runDir, done.file), bytes: done.bytes,
          startSample: cut.startSample, endSample: cut.startSample + span, startMs: cut.startMs, endMs: endMs(cut.startMs, span, cut.fs),
          leads: leads.map((i) => cut.labels[i]), event: cut.event, frames: done.frames, fps, durationSec: done.frames / fps, width: size.width, height: size.height, stepSec: c!.stepSec,
        } satisfies RenderItem
      }
    }

    try {
      for await (const item of source as AsyncIterable<Item>) {
        yield item
        if (item.kind === 'recording') ({ startTime, durationSec } = item as RecordingItem)
        else if (item.kind === 'window') windows++
        else if (item.kind === 'block') blocks++
        const ready = o.windows ? hold.push(item) : []
        if (ready.length) yield* draw(ready)
        if (picker) yield* clip(picker.push(item))
      }
      yield* draw(o.windows ? hold.end() : [])
      if (picker) yield* clip(picker.end())
      yield* land(0)
      const closed = await (parts as VideoParts | null)?.finish()
      if (closed) yield itemFor(closed)
      if (o.windows && blocks > 0 && windows === 0) throw noWindows('render-video')
    } finally {
      await Promise.allSettled(flight.map((f) => f.frame))
      await (parts as VideoParts | null)?.abort()
      await (pool as RenderPool | null)?.close()
    }
  },
})
