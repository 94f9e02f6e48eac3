// `summarize`: per record, one `summary` item emitted when the record's stream ends, built
// incrementally from the `beat` and `rhythm` items that pass (no beat list is held): the figures
// of a Holter report (duration, beats, mean/max/min HR with times and tachy/brady share, every
// beat counting toward the rates as src/dsp/hr-stats.ts defines them, S and V counts and
// burden, singles/couplets/runs, bigeminy/trigeminy, pauses, rhythm episodes) with the beat
// times they came from (capped lists). `source: auto` summarizes the reference
// beats when the record has any (an expert's labels beat a detector's guesses), else the
// detector's (both are tracked, one is reported, and `source` says which).
// With a `quality` stage upstream, beats in flagged windows are left out of the statistics
// (counted as excludedBeats; no interval spans them) and the flagged time is reported per lead,
// keyed by label, or by label#index for leads that share a label; see artifact-gate.ts for
// which lead counts.
import { defineStage } from '../core/stage.ts'
import type { SummaryItem } from '../core/items.ts'
import { createFlaggedTime, createRecordSummary } from '../dsp/record-summary.ts'
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
  version: 4,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const o = ctx.options
    // Rates are measured in samples once the recording's sampling rate is known (it comes first);
    // a tracker is made at its first beat, so it measures in one unit throughout.
    let fs: number | undefined
    const made: Partial<Record<'reference' | 'detector', ReturnType<typeof createRecordSummary>>> = {}
    const tracker = (s: 'reference' | 'detector') => (made[s] ??= createRecordSummary({ tachyBpm: o.tachyBpm, bradyBpm: o.bradyBpm, pauseMs: o.pauseSec * 1000, avgBeats: o.avgBeats, cap: o.maxTimes, fs }))
    const seen = { reference: 0, detector: 0 }
    const gate = createArtifactGate()
    const flagged = createFlaggedTime()
    let windows = 0
    let durationSec = 0
    let signalSec = 0
    const add = (gated: GatedBeat[]) => {
      for (const { beat: b, artifact, afterArtifact, afterGap } of gated) {
        const t = tracker(b.source)
        // Across a gap there is no signal, so never an interval; across an artifact, by choice.
        if (afterGap || (afterArtifact && o.excludeArtifacts)) t.interrupt(b.timeMs)
        t.addBeat(b, artifact && o.excludeArtifacts)
      }
    }
    for await (const item of source) {
      yield item
      if (item.kind === 'beat') {
        seen[item.source]++
        add(gate.beat(item))
      } else if (item.kind === 'rhythm') {
        tracker(item.source).addRhythm(item.rhythm, item.startMs, item.endMs)
      } else if (item.kind === 'quality') {
        windows++
        flagged.add(item)
        add(gate.quality(item))
      } else if (item.kind === 'gap') {
        gate.gap(item.atSample)
      } else if (item.kind === 'recording') {
        durationSec = item.durationSec
        fs = item.fs
      } else if (item.kind === 'block') {
        signalSec += (item.leads[0]?.length ?? 0) / item.fs
      } else if (item.kind === 'watermark') {
        add(gate.watermark(item.sample))
      }
    }
    add(gate.finish())
    const chosen = o.source === 'auto' ? (seen.reference > 0 ? 'reference' : 'detector') : o.source
    const stats = tracker(chosen).finish()
    // Rhythm episodes come only from reference annotations, whichever beats are summarized.
    const rhythms = chosen === 'reference' ? stats.rhythms : tracker('reference').finish().rhythms
    const summary: SummaryItem = {
      kind: 'summary', id: `${ctx.recordId}:summary`, recordId: ctx.recordId, source: chosen,
      durationSec: Math.round((signalSec || durationSec) * 1000) / 1000,
      settings: { tachyBpm: o.tachyBpm, bradyBpm: o.bradyBpm, pauseSec: o.pauseSec, avgBeats: o.avgBeats, excludeArtifacts: o.excludeArtifacts },
      ...stats,
      rhythms,
      // Flagged windows per lead (counts per flag): only when a quality stage ran.
      ...(windows > 0 ? { quality: { windows, leads: flagged.finish() } } : {}),
    }
    yield summary
  },
})
