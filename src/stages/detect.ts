// `detect` (issue 3): the streaming QRS detector (src/dsp/qrs-detector.ts) and beat classifier
// (src/dsp/beat-classifier.ts) on one lead, emitting `beat` items tagged source "detector" with
// an AAMI label (N, S, V, F, Q), the RR interval before the beat and the classifier's features.
// Works on raw or cleaned blocks. Beats come out after the block that holds them, as soon as the
// detector confirms them and the classifier has labelled them (about one beat later). At a gap
// (EDF+D) the detector's filters restart: the samples after it are fed as if 10 s later, so no
// beat pairs across the gap, and beat times add the gap's duration like every other stage.
import { defineStage } from '../core/stage.ts'
import type { BeatItem, GapItem, Item, SampleBlock } from '../core/items.ts'
import { PipelineError } from '../core/errors.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { createQrsDetector, type QrsDetector } from '../dsp/qrs-detector.ts'
import { createBeatClassifier, type BeatClassifier, type ClassifiedBeat } from '../dsp/beat-classifier.ts'

const schema = z.strictObject({
  /** The lead to detect on: index among the record's selected leads, or its label. */
  lead: z.union([z.number().int().min(0), z.string().min(1)]).default(0),
  /** Refractory period after a QRS, ms. */
  refractoryMs: z.number().min(100).max(400).default(200),
})

export type DetectOptions = z.infer<typeof schema>

// Samples added between segments at a gap, in seconds of signal, so the detector sees a jump.
const GAP_PAD_SEC = 10

/** Where detector sample numbers start and how they map back to the stream's numbering and time. */
interface Segment {
  detStart: number
  offset: number // detector sample - stream sample
  gapMs: number // gap time before this segment
}

export default defineStage<DetectOptions>({
  name: 'detect',
  version: 1,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const o = ctx.options
    let det: QrsDetector | null = null
    let cls: BeatClassifier | null = null
    let fs = 0
    let lead = -1
    let label = ''
    let offset = 0
    let gapMs = 0
    let next = -1 // next stream sample expected
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
    const found = (beats: number[]): BeatItem[] => {
      const out: BeatItem[] = []
      for (const s of beats) for (const b of cls!.beat(s)) out.push(toItem(b))
      return out
    }
    const finish = (): BeatItem[] => {
      if (!det) return []
      const out = found(det.finish())
      for (const b of cls!.finish()) out.push(toItem(b))
      det = cls = null
      return out
    }
    const pickLead = (block: SampleBlock): number => {
      const i = typeof o.lead === 'number' ? o.lead : block.labels.indexOf(o.lead)
      if (i < 0 || i >= block.leads.length) {
        throw new PipelineError('E_CONFIG_VALUE', `detect: lead ${JSON.stringify(o.lead)} is not among the record's leads [${block.labels.join(', ')}]; set the detect stage's "lead" to an index from 0 to ${block.leads.length - 1} or one of those labels`, { field: 'lead' })
      }
      return i
    }

    for await (const item of source as AsyncIterable<Item>) {
      yield item
      if (item.kind === 'gap') {
        gapMs += (item as GapItem).endMs - (item as GapItem).startMs
        if (next >= 0) {
          offset += Math.round(GAP_PAD_SEC * fs)
          segments.push({ detStart: next + offset, offset, gapMs })
        }
        continue
      }
      if (item.kind !== 'block') continue
      const block = item as SampleBlock
      if (!det || block.fs !== fs) {
        // A new sampling rate (or the first block) starts a new detector; beats so far are final.
        for (const b of finish()) yield b
        fs = block.fs
        lead = pickLead(block)
        label = block.labels[lead]
        offset = 0
        segments = [{ detStart: block.startSample, offset: 0, gapMs }]
        det = createQrsDetector({ fs, refractoryMs: o.refractoryMs })
        cls = createBeatClassifier({ fs })
      }
      const x = block.leads[lead]
      const at = block.startSample + offset
      cls!.push(x, at)
      for (const b of found(det.push(x, at))) yield b
      next = block.startSample + x.length
    }
    for (const b of finish()) yield b
  },
})
