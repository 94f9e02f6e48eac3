// `summarize` (issue 3): per record, one `summary` item emitted when the record's stream ends,
// built incrementally from the `beat` and `rhythm` items that pass (no beat list is held): the
// figures of a Holter report (duration, beats, mean/max/min HR with times, tachy/brady share,
// S and V counts and burden, singles/couplets/runs, bigeminy/trigeminy, pauses, rhythm episodes)
// with the beat times they came from (capped lists). `source: auto` summarizes the detector's
// beats when there are any, else the reference beats (both are tracked, one is reported).
// With a `quality` stage upstream, beats in flagged windows are left out of the statistics
// (counted as excludedBeats; no interval spans them) and the flagged time is reported per lead;
// see artifact-gate.ts for which lead counts.
import { defineStage } from '../core/stage.ts'
import type { BeatItem, GapItem, Item, QualityItem, RecordingItem, RhythmItem, SampleBlock } from '../core/items.ts'
import { createRecordSummary } from '../dsp/record-summary.ts'
import { createArtifactGate, type GatedBeat } from '../dsp/artifact-gate.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'

const schema = z.strictObject({
  source: z.enum(['auto', 'reference', 'detector']).default('auto'),
  tachyBpm: z.number().positive().default(100),
  bradyBpm: z.number().positive().default(60),
  pauseSec: z.number().positive().default(2),
  avgBeats: z.number().int().min(1).max(100).default(8),
  /** Most event times listed per kind of event (counts stay exact). */
  maxTimes: z.number().int().min(0).max(100_000).default(100),
  /** Leave beats in windows flagged by the quality stage out of the statistics. */
  excludeArtifacts: z.boolean().default(true),
})

export type SummarizeOptions = z.infer<typeof schema>

export default defineStage<SummarizeOptions>({
  name: 'summarize',
  version: 2,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const o = ctx.options
    const make = () => createRecordSummary({ tachyBpm: o.tachyBpm, bradyBpm: o.bradyBpm, pauseMs: o.pauseSec * 1000, avgBeats: o.avgBeats, cap: o.maxTimes })
    const trackers = { reference: make(), detector: make() }
    const seen = { reference: 0, detector: 0 }
    const gate = createArtifactGate()
    const flagged = new Map<string, { flaggedMs: number; invalid: number; flat: number; saturated: number; noisy: number }>()
    let windows = 0
    let durationSec = 0
    let signalSec = 0
    const add = (gated: GatedBeat[]) => {
      for (const { beat: b, artifact, afterArtifact, afterGap } of gated) {
        const t = trackers[b.source]
        // Across a gap there is no signal, so never an interval; across an artifact, by choice.
        if (afterGap || (afterArtifact && o.excludeArtifacts)) t.interrupt(b.timeMs)
        t.addBeat(b.label, b.timeMs, artifact && o.excludeArtifacts)
      }
    }
    for await (const item of source as AsyncIterable<Item>) {
      yield item
      if (item.kind === 'beat') {
        const b = item as BeatItem
        seen[b.source]++
        add(gate.beat(b))
      } else if (item.kind === 'rhythm') {
        const r = item as RhythmItem
        trackers[r.source].addRhythm(r.rhythm, r.startMs, r.endMs)
      } else if (item.kind === 'quality') {
        const q = item as QualityItem
        windows++
        for (const l of q.leads) {
          const f = flagged.get(l.label) ?? { flaggedMs: 0, invalid: 0, flat: 0, saturated: 0, noisy: 0 }
          if (l.flags.length) f.flaggedMs += q.endMs - q.startMs
          for (const flag of l.flags) f[flag]++
          flagged.set(l.label, f)
        }
        add(gate.quality(q))
      } else if (item.kind === 'gap') {
        gate.gap((item as GapItem).atSample)
      } else if (item.kind === 'recording') {
        durationSec = (item as RecordingItem).durationSec
      } else if (item.kind === 'block') {
        const b = item as SampleBlock
        signalSec += (b.leads[0]?.length ?? 0) / b.fs
        add(gate.position(b.startSample + (b.leads[0]?.length ?? 0), b.fs))
      }
    }
    add(gate.finish())
    const chosen = o.source === 'auto' ? (seen.detector > 0 ? 'detector' : 'reference') : o.source
    const stats = trackers[chosen].finish()
    // Rhythm episodes come only from reference annotations, whichever beats are summarized.
    const rhythms = chosen === 'reference' ? stats.rhythms : trackers.reference.finish().rhythms
    yield {
      kind: 'summary', recordId: ctx.recordId, source: chosen,
      durationSec: Math.round((signalSec || durationSec) * 1000) / 1000,
      settings: { tachyBpm: o.tachyBpm, bradyBpm: o.bradyBpm, pauseSec: o.pauseSec, avgBeats: o.avgBeats, excludeArtifacts: o.excludeArtifacts },
      ...stats,
      rhythms,
      // Flagged windows per lead (counts per flag): only when a quality stage ran.
      ...(windows > 0 ? { quality: { windows, leads: Object.fromEntries(flagged) } } : {}),
    }
  },
})
