// `render-strip`: PNG images on standard ECG paper (25 mm/s, 10 mm/mV, 1 and 5 mm grid;
// src/render/draw-strip.ts), with the beats that fall in each as markers, for image models and
// for people: of the `segment` stage's windows (media/<recordId>/<dir>/w<index>.png; `every: k`
// draws every k-th, a 24 h record has 8,640 windows of 10 s), and of the excerpts of the sets
// named in `excerpts` (media/<recordId>/<dir>/<set>/e<sample>-<label>.png for one centred on an
// event, x<start>.png otherwise), cut from a ring of recent blocks; with `excerptTileSec`, each
// excerpt as consecutive strips of that length instead (<excerpt file name>/t<k>.png, one item
// each, src/render/excerpt-tiles.ts), as image models take no 75,000 px strip. A strip waits until the
// watermark has passed its end (src/render/marker-join.ts), so all its beats are drawn however
// late they come. Drawing and PNG encoding run in worker threads (src/threads/render-pool.ts),
// at most 2 strips per thread in flight; files go through the record's media store, complete
// under their names before their `render` item is yielded. Every item passes through unchanged.
// A window's header names its record; an excerpt's does not, since excerpts are what models are
// shown (src/render/strip-title.ts, the `title` option).
import { defineStage } from '../core/stage.ts'
import type { Item, RenderItem } from '../core/items.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { createOrderedQueue } from '../core/map-ordered.ts'
import { createWatermarks } from '../core/watermark.ts'
import { createRenderPool, type RenderPool } from '../threads/render-pool.ts'
import type { Joined } from '../render/marker-join.ts'
import { createSpanIntake, type RenderSpan } from '../render/span-intake.ts'
import { endMs, excerptFileName, excerptSetsOption, MARKER_LAG_RETIRED, pickLeads, retiredOption, stripOptionFields } from '../render/render-options.ts'
import { stripOptions, stripRequest } from '../render/render-request.ts'
import type { RenderRequest } from '../threads/render-worker.ts'
import { stripSize } from '../render/draw-strip.ts'
import { excerptTiles, tileFileName, tileMarkers, tileTitle } from '../render/excerpt-tiles.ts'
import { excerptTitle, windowTitle } from '../render/strip-title.ts'

const schema = z.strictObject({
  ...stripOptionFields,
  /** Draw every k-th window only. */
  every: z.number().int().min(1).default(1),
  /** Draw the segment stage's windows. */
  windows: z.boolean().default(true),
  /** Also draw the excerpts of these sets (the excerpt stage's `set`). */
  excerpts: excerptSetsOption.optional(),
  /** Draw each excerpt as consecutive strips of this many seconds (the last shorter), not as one strip of its whole span. */
  excerptTileSec: z.number().positive().max(60, 'at most 60 seconds: a tile is a strip an image model takes (10 s is the usual ECG strip)').optional(),
  /** Directory under media/<recordId>/ for the PNG files. */
  dir: z.string().regex(/^[\w.-]+$/, 'a plain directory name (letters, digits, . _ -)').default('strips'),
  events: retiredOption('render-strip\'s "events" moved to the excerpt stage, whose spans every render stage shares: add {use: excerpt, options: {set: events, around: {labels: [V], padSec: 5}}} before render-strip and give render-strip excerpts: events').optional(),
  markerLagSec: retiredOption(MARKER_LAG_RETIRED).optional(),
})

export type RenderStripOptions = z.infer<typeof schema>

export default defineStage<RenderStripOptions>({
  name: 'render-strip',
  version: 3,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const o = ctx.options
    const intake = createSpanIntake('render-strip', { markers: o.markers, windows: o.windows, wantWindow: (w) => w.index % o.every === 0, excerpts: o.excerpts, leads: o.leads })
    const queue = createOrderedQueue<RenderItem>(2 * o.threads + 1)
    // The strips in flight, in the order sent: their starts hold the watermark back, and those
    // never yielded (the stream stopped early) have their files removed.
    const inFlight: { start: number; done: Promise<RenderItem> }[] = []
    const marks = createWatermarks(ctx.recordId)
    let pool: RenderPool | null = null
    let leads: number[] | null = null

    // Draws one strip in the pool and writes it; the promise gives its render item.
    const draw = (req: RenderRequest, rel: string, fields: Record<string, unknown>, end?: number) => {
      pool ??= createRenderPool(o.threads, 'render-strip')
      const size = stripSize(req.input.windowSec, req.input.samples.length, stripOptions(o))
      const { input } = req
      const done = pool.draw(req).then(async (png): Promise<RenderItem> => {
        const file = await ctx.media.write(rel, png)
        const span = input.samples[0]?.length ?? 0
        return {
          kind: 'render', id: `${ctx.recordId}:${rel}`, recordId: ctx.recordId, format: 'png', path: file.path, bytes: file.bytes,
          startSample: input.startSample, endSample: input.startSample + span, startMs: input.startMs, endMs: end ?? endMs(input.startMs, span, input.fs),
          leads: input.labels, ...fields, markers: input.markers?.length ?? 0, width: size.width, height: size.height,
        }
      })
      queue.push(done)
      inFlight.push({ start: input.startSample, done })
    }
    // Sends a span's strips (an excerpt's tiles one by one), landing those done after each.
    async function* send({ span, markers }: Joined<RenderSpan>): AsyncGenerator<Item> {
      const startTime = intake.recording?.startTime ?? null
      if ('window' in span) {
        const w = span.window
        leads ??= pickLeads('render-strip', o.leads, w.labels)
        draw(stripRequest('png', w, markers, leads, o, windowTitle(ctx.recordId, o.title), startTime), `${o.dir}/w${String(w.index).padStart(6, '0')}.png`, { windowIndex: w.index, from: [w.id] })
        return yield* land()
      }
      const ex = span.excerpt
      const cut = intake.cut(ex)
      const chosen = cut.labels.map((_, i) => i) // the cut holds the leads drawn only
      const event = ex.reason.event
      const labels = chosen.map((i) => cut.labels[i])
      const title = excerptTitle(ex, o.markers, ctx.recordId, o.title)
      const name = `${o.dir}/${ex.set}/${excerptFileName(ex)}`
      if (o.excerptTileSec === undefined) {
        const input = { samples: chosen.map((i) => cut.samples[i]), labels, fs: cut.fs, startSample: ex.startSample, startMs: ex.startMs, windowSec: (ex.endSample - ex.startSample) / cut.fs, markers, title, startTime }
        draw({ t: 'png', input, options: stripOptions(o) }, `${name}.png`, { of: ex.id, from: [ex.id], ...(event ? { event } : {}) })
        return yield* land()
      }
      for (const t of excerptTiles(ex, cut.fs, o.excerptTileSec)) {
        const [a, b] = [t.startSample - ex.startSample, t.endSample - ex.startSample]
        // A copy per tile: a view would send the whole excerpt's buffer to the worker each time.
        const input = { samples: chosen.map((i) => cut.samples[i].slice(a, b)), labels, fs: cut.fs, startSample: t.startSample, startMs: t.startMs, windowSec: (b - a) / cut.fs, markers: tileMarkers(markers, t), title: `${title}   ${tileTitle(t)}`, startTime }
        draw({ t: 'png', input, options: stripOptions(o) }, `${name}/${tileFileName(t)}.png`, { of: ex.id, from: [ex.id], tile: t.index, tiles: t.count, ...(event ? { event } : {}) }, t.endMs)
        yield* land()
      }
    }
    async function* land(keep?: number): AsyncGenerator<Item> {
      for await (const r of queue.land(keep)) {
        inFlight.shift()
        yield r
      }
    }
    // Strips are drawn in the order sent, which is not their order in the signal (an excerpt's comes
    // after the windows sent before it): the lowest start of all those in flight.
    const lowest = () => inFlight.reduce((m, f) => Math.min(m, f.start), intake.lowest())

    try {
      for await (const item of source) {
        if (item.kind === 'watermark') {
          marks.seen(item.sample)
          for (const j of intake.watermark(item.sample)) yield* send(j)
          const w = marks.next(lowest())
          if (w) yield w
          continue
        }
        yield item
        intake.take(item)
      }
      for (const j of intake.end()) yield* send(j)
      yield* land(0)
      const w = marks.next()
      if (w) yield w
    } finally {
      // Strips still in flight when the stream stops early (an error, an abort, a consumer that
      // stopped) never got their item: their files go too, so no image is left without a line.
      await queue.settle()
      for (const r of await Promise.allSettled(inFlight.map((f) => f.done))) if (r.status === 'fulfilled') await ctx.media.remove(r.value.path)
      await (pool as RenderPool | null)?.close()
    }
  },
})
