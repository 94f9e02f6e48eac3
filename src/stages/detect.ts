// `detect` (issue 3): the streaming QRS detector (src/dsp/qrs-detector.ts) and beat classifier
// (src/dsp/beat-classifier.ts) on one lead, emitting `beat` items tagged source "detector" with
// an AAMI label (N, S, V, F, Q), the RR interval before the beat and the classifier's features.
// Works on raw or cleaned blocks. Each block is followed by the beats confirmed while it was
// processed (about one beat behind, as the classifier waits for the next beat).
// The stage holds one block: it hands block k to the beat engine, then yields block k-1 with
// its beats. With `thread` the engine runs in a worker thread (beat-engine.ts), so finding the
// beats of one block overlaps with reading and cleaning the next; the items and their order are
// the same either way. `thread: auto` uses a worker for records of an hour or more when the
// machine has a second core (a worker costs ~50 ms to start).
// At a gap (EDF+D) the detector's filters restart: the samples after it are fed as if 10 s
// later, so no beat pairs across the gap, and beat times add the gap's duration.
import { availableParallelism } from 'node:os'
import { defineStage } from '../core/stage.ts'
import type { BeatItem, GapItem, Item, RecordingItem, SampleBlock } from '../core/items.ts'
import { PipelineError } from '../core/errors.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import type { ClassifiedBeat } from '../dsp/beat-classifier.ts'
import { createLocalBeatEngine, createWorkerBeatEngine, type BeatEngine } from './beat-engine.ts'

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

/** A block handed to the engine, waiting for its beats, with the items that came after it. */
interface Held {
  block: SampleBlock
  beats: Promise<ClassifiedBeat[]>
  after: Item[]
}

export default defineStage<DetectOptions>({
  name: 'detect',
  version: 1,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const o = ctx.options
    let engine: BeatEngine | null = null
    let held: Held | null = null
    let fs = 0
    let lead = -1
    let label = ''
    let offset = 0
    let gapMs = 0
    let next = -1 // next stream sample expected
    let durationSec = 0
    let segments: Segment[] = []

    const toItem = (b: ClassifiedBeat): BeatItem => {
      while (segments.length > 1 && segments[1].detStart <= b.sample) segments.shift()
      const seg = segments[0]
      const sample = b.sample - seg.offset
      const { sample: _s, label: beatLabel, ...features } = b
      return {
        kind: 'beat', recordId: ctx.recordId, source: 'detector', sample,
        timeMs: Math.round((sample / fs) * 1e6 + seg.gapMs * 1000) / 1000,
        label: beatLabel, lead: label, ...features,
      }
    }
    // The held block, its beats, then what came after it.
    async function* release(): AsyncGenerator<Item> {
      if (!held) return
      const h: Held = held
      held = null
      const beats = await h.beats
      yield h.block
      for (const b of beats) yield toItem(b)
      yield* h.after
    }
    async function* finish(): AsyncGenerator<Item> {
      yield* release()
      if (!engine) return
      const beats = await engine.finish()
      for (const b of beats) yield toItem(b)
      await engine.close()
      engine = null
    }
    const pickLead = (block: SampleBlock): number => {
      const i = typeof o.lead === 'number' ? o.lead : block.labels.indexOf(o.lead)
      if (i < 0 || i >= block.leads.length) {
        throw new PipelineError('E_CONFIG_VALUE', `detect: lead ${JSON.stringify(o.lead)} is not among the record's leads [${block.labels.join(', ')}]; set the detect stage's "lead" to an index from 0 to ${block.leads.length - 1} or one of those labels`, { field: 'lead' })
      }
      return i
    }
    const useThread = () => (o.thread === 'auto' ? durationSec >= AUTO_THREAD_SEC && availableParallelism() > 1 : o.thread)

    try {
      for await (const item of source as AsyncIterable<Item>) {
        if (item.kind === 'recording') durationSec = (item as RecordingItem).durationSec
        if (item.kind === 'gap') {
          gapMs += (item as GapItem).endMs - (item as GapItem).startMs
          if (next >= 0) {
            offset += Math.round(GAP_PAD_SEC * fs)
            segments.push({ detStart: next + offset, offset, gapMs })
          }
        }
        if (item.kind !== 'block') {
          if (held) held.after.push(item)
          else yield item
          continue
        }
        const block = item as SampleBlock
        if (!engine || block.fs !== fs) {
          // A new sampling rate (or the first block) starts a new engine; the beats so far come first.
          yield* finish()
          fs = block.fs
          lead = pickLead(block)
          label = block.labels[lead]
          offset = 0
          segments = [{ detStart: block.startSample, offset: 0, gapMs }]
          engine = (useThread() ? createWorkerBeatEngine : createLocalBeatEngine)({ fs, refractoryMs: o.refractoryMs })
        }
        const x = block.leads[lead]
        const beats = engine.push(x, block.startSample + offset)
        beats.catch(() => undefined) // awaited in release(); a failure must not count as unhandled before then
        yield* release()
        held = { block, beats, after: [] }
        next = block.startSample + x.length
      }
      yield* finish()
    } finally {
      await (engine as BeatEngine | null)?.close()
    }
  },
})
