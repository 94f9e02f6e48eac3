// `render-strip` (issue 4): PNG images of the `segment` stage's windows on standard ECG paper
// (25 mm/s, 10 mm/mV, 1 and 5 mm grid; src/render/draw-strip.ts), with the beats that fall in
// each window as markers, for image models and for people. Drawing and PNG encoding run in
// worker threads (render-pool.ts) with at most 2 strips per thread in flight; the main thread
// only writes the files (src/sinks/media-file.ts). Files: media/<recordId>/strips/w<index>.png;
// each gets a `render` item with its path, size and span. `every: k` draws every k-th window
// (a 24 h record has 8,640 windows of 10 s). `events` adds a strip of padSec either side of each
// chosen beat or rhythm change (render-events.ts: "every annotated V +- 5 s"), in
// media/<recordId>/strips/events/e<sample>-<label>.png, cut from a ring of recent blocks, so
// with `windows: false` no segment stage is needed. Every item passes through unchanged; the
// render items follow what they show by up to `markerLagSec` (+ padSec) of signal (render-hold.ts).
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { defineStage } from '../core/stage.ts'
import type { Item, RecordingItem, RenderItem } from '../core/items.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { writeMediaFile } from '../sinks/media-file.ts'
import { createRenderPool, type RenderPool } from '../threads/render-pool.ts'
import { createWindowHold, type HeldWindow } from '../render/render-hold.ts'
import { endMs, noWindows, pickLeads, runPath, stripOptionFields } from '../render/render-options.ts'
import { stripOptions, stripRequest } from '../render/render-request.ts'
import { createEventPicker, eventFileName, eventOptionsSchema, type EventCut } from '../render/render-events.ts'
import type { RenderRequest } from '../threads/render-worker.ts'
import { stripSize } from '../render/draw-strip.ts'

const schema = z.strictObject({
  ...stripOptionFields,
  /** Draw every k-th window only. */
  every: z.number().int().min(1).default(1),
  /** Also (or, with windows: false, only) a strip around each chosen event: media/<recordId>/<dir>/events/. */
  events: eventOptionsSchema.optional(),
  /** Draw the segment stage's windows. */
  windows: z.boolean().default(true),
  /** Directory under media/<recordId>/ for the PNG files. */
  dir: z.string().regex(/^[\w.-]+$/, 'a plain directory name (letters, digits, . _ -)').default('strips'),
})

export type RenderStripOptions = z.infer<typeof schema>

export default defineStage<RenderStripOptions>({
  name: 'render-strip',
  version: 1,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const o = ctx.options
    const hold = createWindowHold(o.markers, o.markerLagSec)
    const depth = 2 * o.threads
    const flight: Promise<RenderItem>[] = []
    let pool: RenderPool | null = null
    let startTime: string | null = null
    let leads: number[] | null = null
    let windows = 0
    let blocks = 0

    const picker = o.events ? createEventPicker(o.events, o.markers, o.markerLagSec) : null
    // Draws one strip in the pool and writes it; the promise gives its render item.
    const draw = (req: RenderRequest, file: string, fields: Record<string, unknown>) => {
      pool ??= createRenderPool(o.threads, 'render-strip')
      const size = stripSize(req.input.windowSec, req.input.samples.length, stripOptions(o))
      const { input } = req
      const done = pool.draw(req).then(async (png): Promise<RenderItem> => {
        const bytes = await writeMediaFile(file, png, ctx.signal)
        const span = input.samples[0]?.length ?? 0
        return {
          kind: 'render', recordId: ctx.recordId, format: 'png', path: runPath(ctx.runDir, file), bytes,
          startSample: input.startSample, endSample: input.startSample + span, startMs: input.startMs, endMs: endMs(input.startMs, span, input.fs),
          leads: input.labels, ...fields, markers: input.markers?.length ?? 0, width: size.width, height: size.height,
        }
      })
      done.catch(() => undefined) // awaited in order below; not unhandled meanwhile
      flight.push(done)
    }
    const send = (h: HeldWindow) => {
      const w = h.window
      leads ??= pickLeads('render-strip', o.leads, w.labels)
      if (!o.windows || w.index % o.every !== 0) return
      const file = path.join(ctx.mediaDir, o.dir, `w${String(w.index).padStart(6, '0')}.png`)
      draw(stripRequest('png', h, leads, o, ctx.recordId, startTime), file, { windowIndex: w.index })
    }
    const sendEvent = (cut: EventCut) => {
      const chosen = leads ?? pickLeads('render-strip', o.leads, cut.labels)
      const e = cut.event
      const file = path.join(ctx.mediaDir, o.dir, 'events', `${eventFileName(e, o.events!.source)}.png`)
      const input = { samples: chosen.map((i) => cut.samples[i]), labels: chosen.map((i) => cut.labels[i]), fs: cut.fs, startSample: cut.startSample, startMs: cut.startMs, windowSec: cut.samples[0].length / cut.fs, markers: cut.markers, title: `${ctx.recordId} ${e.label}`, startTime }
      draw({ t: 'png', input, options: stripOptions(o) }, file, { event: e })
    }
    async function* land(keep: number): AsyncGenerator<Item> {
      while (flight.length > keep) yield await flight.shift()!
    }

    try {
      for await (const item of source as AsyncIterable<Item>) {
        yield item
        if (item.kind === 'recording') startTime = (item as RecordingItem).startTime
        if (item.kind === 'window') windows++
        if (item.kind === 'block') blocks++
        for (const h of o.windows ? hold.push(item) : []) {
          send(h)
          for await (const r of land(depth)) yield r
        }
        for (const cut of picker?.push(item) ?? []) {
          sendEvent(cut)
          for await (const r of land(depth)) yield r
        }
      }
      for (const h of o.windows ? hold.end() : []) {
        send(h)
        for await (const r of land(depth)) yield r
      }
      for (const cut of picker?.end() ?? []) {
        sendEvent(cut)
        for await (const r of land(depth)) yield r
      }
      for await (const r of land(0)) yield r
      if (o.windows && blocks > 0 && windows === 0) throw noWindows('render-strip')
    } finally {
      // Strips still in flight when the stream stops early (an error, an abort, a consumer that
      // stopped) never got their item: their files go too, so no image is left without a line.
      for (const r of await Promise.allSettled(flight)) if (r.status === 'fulfilled') await rm(path.join(ctx.runDir, r.value.path), { force: true })
      await (pool as RenderPool | null)?.close()
    }
  },
})
