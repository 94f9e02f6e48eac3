// `detect`: the streaming QRS detector (src/dsp/qrs-detector.ts) and beat classifier
// (src/dsp/beat-classifier.ts) on one lead, emitting `beat` items tagged source "detector" with
// an AAMI label (N, S, V, F, Q), the RR interval before the beat and the classifier's features.
// Works on raw or cleaned blocks.
// The stream is cut into chunks of at least 10 s of signal (upstream blocks can be tiny, one
// sample even, whatever the stage before cut them at); a chunk's items pass unchanged, followed by the beats
// confirmed while its samples were processed (so a beat always comes after the block holding
// it, about one beat late since the classifier waits for the next beat). With `thread` the
// beat engine runs in a worker thread (beat-engine.ts) and up to DEPTH chunks are in flight, so
// finding beats overlaps with reading and cleaning on the main thread; the items and their
// order are the same either way. `thread: auto` uses a worker for records of an hour or more
// when the machine has a second core: starting a worker costs more than it saves on a short one.
// At a gap (EDF+D) the detector's filters restart: the samples after it are fed as if 10 s
// later, so no beat pairs across the gap, and beat times add the gap's duration.
// Watermarks: after each chunk's beats the stage passes on the upstream watermark lowered to
// the engine's settled point (no beat still to come lies before it: qrs-detector.ts and
// beat-classifier.ts bound how late a beat can be), so stages that join beats to windows or
// excerpts wait exactly as long as needed.
import { availableParallelism } from 'node:os'
import { defineStage } from '../core/stage.ts'
import type { BeatItem, Item, SampleBlock } from '../core/items.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { createOrderedQueue } from '../core/map-ordered.ts'
import { createWatermarks } from '../core/watermark.ts'
import { concatSamples } from '../dsp/concat-samples.ts'
import { leadIndex } from '../formats/lead-match.ts'
import { createLocalBeatEngine, createWorkerBeatEngine, packedCount, packedSettled, unpackBeat, type BeatEngine } from '../threads/beat-engine.ts'

const schema = z.strictObject({
  /** The lead to detect on: index among the record's selected leads, or its label. */
  lead: z.union([z.number().int().min(0), z.string().min(1)]).default(0),
  /** Refractory period after a QRS, ms. */
  refractoryMs: z.number().min(100).max(400).default(200),
  /** Find beats in a worker thread: true, false, or auto (records of 1 h or more, 2+ cores). */
  thread: z.union([z.boolean(), z.literal('auto')]).default('auto'),
})

export type DetectOptions = z.infer<typeof schema>

// Samples added between segments at a gap, in seconds of signal, so the detector sees a jump.
const GAP_PAD_SEC = 10
const AUTO_THREAD_SEC = 3600

/** Where detector sample numbers start and how they map back to the stream's numbering and time. */
interface Segment {
  detStart: number
  offset: number // detector sample - stream sample
  gapMs: number // gap time before this segment
}

// Signal per chunk, and chunks handed to a worker before the oldest one's beats are awaited.
const CHUNK_SEC = 10
const DEPTH = 4

/** Items gathered for the engine: their samples (one lead, contiguous) and everything in order. */
interface Chunk {
  items: Item[]
  parts: Float32Array[]
  samples: number
  at: number // detector sample of the first part
}

/** A chunk back from the engine: its items, its beats (packed, beat-engine.ts) and the upstream watermark when it was sent. */
interface Landed {
  items: Item[]
  beats: Float64Array
  upstream: number
}

export default defineStage<DetectOptions>({
  name: 'detect',
  version: 2,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const o = ctx.options
    let engine: BeatEngine | null = null
    let chunk: Chunk | null = null
    const queue = createOrderedQueue<Landed>(DEPTH + 1)
    const marks = createWatermarks(ctx.recordId)
    let fs = 0
    let lead = -1
    let label = ''
    let offset = 0
    let gapMs = 0
    let next = -1 // next stream sample expected
    let durationSec = 0
    let segments: Segment[] = []

    // The stream sample of a detector sample; one in the padding after a gap maps to the first
    // sample after the gap (nothing lies in the padding).
    const toStream = (detSample: number): number => {
      let k = 0
      while (k + 1 < segments.length && segments[k + 1].detStart <= detSample) k++
      const next = segments[k + 1]
      return Math.min(detSample - segments[k].offset, next ? next.detStart - next.offset : Infinity)
    }
    // Beat i of packed beats (beat-engine.ts) as the stage's item.
    const toItem = (p: Float64Array, i: number): BeatItem => {
      const b = unpackBeat(p, i)
      while (segments.length > 1 && segments[1].detStart <= b.sample) segments.shift()
      const seg = segments[0]
      const sample = b.sample - seg.offset
      return {
        kind: 'beat', recordId: ctx.recordId, source: 'detector', sample,
        timeMs: Math.round((sample / fs) * 1e6 + seg.gapMs * 1000) / 1000,
        label: b.label, lead: label, leadIndex: lead, rrMs: b.rrMs, qrsSpanMs: b.qrsSpanMs, templateCorr: b.templateCorr,
      }
    }
    // A landed chunk's output: its items, its beats, then the watermark they allow. The helpers
    // here fill arrays the loop below yields one by one: every item of the record passes here,
    // and `yield*` (of an array or a generator) in an async generator costs a promise more per item.
    const emit = (l: Landed, out: Item[]) => {
      for (const it of l.items) out.push(it)
      const n = packedCount(l.beats)
      for (let i = 0; i < n; i++) out.push(toItem(l.beats, i))
      // Items of later chunks came after this one was sent, so they lie at or after the upstream
      // watermark of then; beats still to come at or after the engine's settled point.
      const settled = packedSettled(l.beats)
      const w = marks.next(Math.min(l.upstream, Number.isFinite(settled) && segments.length ? toStream(settled) : settled))
      if (w) out.push(w)
      // No beat still to come lies before the settled point: the mappings before it are done with,
      // so a record with thousands of gaps and no beats (a dead lead) keeps only a few.
      while (segments.length > 1 && segments[1].detStart <= settled) segments.shift()
    }
    // Hands the open chunk to the engine.
    function send(): void {
      if (chunk) {
        // Joined pieces are a fresh array the engine may keep; a single piece is a block's own lead.
        const x = concatSamples(chunk.parts, (n) => new Float32Array(n))
        const beats = chunk.samples > 0 && engine ? engine.push(x, chunk.at, chunk.parts.length > 1) : Promise.resolve(new Float64Array([-Infinity]))
        const items = chunk.items
        const upstream = marks.upstream
        queue.push(beats.then((b): Landed => ({ items, beats: b, upstream })))
        chunk = null
      }
    }
    // Sends the open chunk, then lands chunks while more than `depth` are in flight.
    async function sendAndLand(depth: number): Promise<Item[]> {
      send()
      const out: Item[] = []
      for await (const l of queue.land(depth)) emit(l, out)
      return out
    }
    // Everything in flight, then the engine's last beats; the engine is closed (a new rate or
    // the end of the stream).
    async function finishEngine(): Promise<Item[]> {
      const out = await sendAndLand(0)
      if (!engine) return out
      emit({ items: [], beats: await engine.finish(), upstream: marks.upstream }, out)
      await engine.close()
      engine = null
      return out
    }
    const open = (): Chunk => (chunk ??= { items: [], parts: [], samples: 0, at: -1 })
    const useThread = () => (o.thread === 'auto' ? durationSec >= AUTO_THREAD_SEC && availableParallelism() > 1 : o.thread)

    try {
      for await (const item of source) {
        if (item.kind === 'watermark') {
          // Passed on once the chunks before it have landed (emit).
          marks.seen(item.sample)
          continue
        }
        if (item.kind === 'recording') durationSec = item.durationSec
        if (item.kind === 'gap') {
          // The samples before the gap go as one chunk; the detector sees a jump after it.
          for (const it of await sendAndLand(DEPTH)) yield it
          gapMs += item.endMs - item.startMs
          if (next >= 0) {
            offset += Math.round(GAP_PAD_SEC * fs)
            segments.push({ detStart: next + offset, offset, gapMs })
          }
        }
        if (item.kind !== 'block') {
          open().items.push(item)
          continue
        }
        const block = item
        if (!engine || block.fs !== fs) {
          // A new sampling rate (or the first block) starts a new engine; the beats so far come first.
          for (const it of await finishEngine()) yield it
          fs = block.fs
          lead = leadIndex('detect', 'lead', o.lead, block.labels)
          label = block.labels[lead]
          offset = 0
          segments = [{ detStart: block.startSample, offset: 0, gapMs }]
          engine = (useThread() ? createWorkerBeatEngine : createLocalBeatEngine)({ fs, refractoryMs: o.refractoryMs })
        }
        const x = block.leads[lead]
        // A jump in sample numbers (no gap item) must reach the detector as a jump, not be joined.
        const cur = chunk as Chunk | null // set and cleared by the helpers above, out of TypeScript's sight
        if (cur && cur.samples > 0 && block.startSample + offset !== cur.at + cur.samples) for (const it of await sendAndLand(DEPTH)) yield it
        const c = open()
        if (c.at < 0) c.at = block.startSample + offset
        c.items.push(block)
        c.parts.push(x)
        c.samples += x.length
        next = block.startSample + x.length
        if (c.samples >= CHUNK_SEC * fs) for (const it of await sendAndLand(DEPTH)) yield it
      }
      for (const it of await finishEngine()) yield it
      const w = marks.next()
      if (w) yield w
    } finally {
      await queue.settle()
      await (engine as BeatEngine | null)?.close()
    }
  },
})
