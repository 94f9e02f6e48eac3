// `excerpt`: chooses spans of a record and emits `excerpt` items {id, recordId, set, startSample,
// endSample, startMs, endMs, fs, reason}, so rendering, questions and model inputs refer to the
// same spans (design.md "Ordering, excerpts and ids"). One rule per stage (every N minutes,
// around chosen beat labels or rhythm changes, seeded random); several excerpt stages make
// several sets, told apart by `set`, which the render stages name to draw them. An excerpt never
// straddles a gap (those are skipped) and is emitted once its whole span has passed, with its
// start as its position: the watermarks passed on are lowered to the lowest start still to come.
// Every item passes through unchanged.
import { defineStage } from '../core/stage.ts'
import { PipelineError } from '../core/errors.ts'
import type { ExcerptItem } from '../core/items.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { createWatermarks } from '../core/watermark.ts'
import { endsRhythm, rhythmOf } from '../formats/annotation-text.ts'
import { aroundPlan, everyPlan, randomPlan, wholePlan, type ExcerptPlan, type Span } from '../excerpts/excerpt-plans.ts'
import { stratifiedPlan, type StratifiedInput } from '../excerpts/stratified-plan.ts'
import { feedReferenceMark } from '../qa/fact-buffer.ts'
import { vocabularyOption } from '../qa/vocabulary-option.ts'

// A render stage holds a span's signal until it has passed (src/render/span-cutter.ts): 6 h at most.
const lengthSec = z.number().positive().max(6 * 3600, 'at most 21600 (6 h): a render stage holds an excerpt\'s whole signal until it has passed')

const around = z.strictObject({
  /** Beat labels (N, S, V, F, Q) and rhythm names (AFIB, VT, ...) to centre excerpts on. */
  labels: z.array(z.string().min(1)).min(1),
  /** Whose events: the reference annotations (annotate stage), the detector's, or both. */
  source: z.enum(['reference', 'detector', 'all']).default('reference'),
  /** Seconds of signal on each side of the event (or before and after, as [before, after]). */
  padSec: z.union([z.number().positive().max(3600), z.tuple([z.number().min(0).max(3600), z.number().positive().max(3600)])]).default(5),
  /** Skip an event within this many seconds after the last one taken. */
  minGapSec: z.number().min(0).default(10),
  /** At most this many per record. */
  max: z.number().int().min(1).max(100_000).default(200),
})

const stratified = z.strictObject({
  /** Length of each excerpt (the tiles the record is cut into). */
  lengthSec: z.number().positive().max(3600, 'at most 3600 (1 h): tiles are weighed a horizon at a time, and a render stage holds the horizon and a tile'),
  /** Excerpts chosen per hour of record. */
  perHour: z.number().positive().max(3600),
  seed: z.union([z.number(), z.string()]).default(1),
  /** Hours of tiles weighed together (a render stage holds this much signal, plus a tile). */
  horizonHours: z.number().positive().max(5).default(1),
  /** Tiles overlapping a window the quality stage flagged: skipped (default) or allowed. */
  artifacts: z.enum(['skip', 'allow']).default('skip'),
  /** Whose beats say which events a tile holds. */
  source: z.enum(['reference', 'detector']).default('reference'),
  /** The events weighed (the qa stage's vocabulary; default: src/qa/vocabulary.ts). */
  vocabulary: vocabularyOption,
})

const schema = z
  .strictObject({
    /** The set's name: excerpt ids are <recordId>:ex:<set>:<startSample> (0@<event sample> for an around span clipped at the record's start), and render stages name the sets they draw. */
    set: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower-case letters, digits, "_" and "-"').default('excerpts'),
    every: z.strictObject({ minutes: z.number().positive(), lengthSec, offsetSec: z.number().min(0).default(0) }).optional(),
    random: z.strictObject({ count: z.number().int().min(1).max(100_000), lengthSec, seed: z.union([z.number(), z.string()]).default(1) }).optional(),
    around: around.optional(),
    /** Tiles chosen so that excerpts with and without each event of the QA vocabulary occur (src/excerpts/stratified-plan.ts). */
    stratified: stratified.optional(),
    /** The whole record as one excerpt, for records up to maxSec long (longer ones get none, with a warning). */
    whole: z.strictObject({ maxSec: lengthSec }).optional(),
  })
  .refine((o) => [o.every, o.random, o.around, o.stratified, o.whole].filter(Boolean).length === 1, { message: 'give exactly one rule: every, random, around, stratified or whole (use one excerpt stage per rule)' })

export type ExcerptOptions = z.infer<typeof schema>

export default defineStage<ExcerptOptions>({
  name: 'excerpt',
  version: 1,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    const o = ctx.options
    const marks = createWatermarks(ctx.recordId)
    const state: { plan: ExcerptPlan | null; feed: StratifiedInput | null } = { plan: null, feed: null }
    let fs = 0
    let total = 0
    let signalEnd = 0
    let sidecar = false
    const gaps: { atSample: number; ms: number }[] = [] // each gap and the gap time up to it
    let skipped = 0
    const msOf = (sample: number) => {
      let gapMs = 0
      for (const g of gaps) if (g.atSample <= sample) gapMs = g.ms
      return Math.round((sample / fs) * 1000 + gapMs)
    }
    const toItem = (s: Span): ExcerptItem | null => {
      if (gaps.some((g) => g.atSample > s.startSample && g.atSample < s.endSample)) {
        skipped++
        return null
      }
      const ev = s.reason.event
      const startMs = ev ? Math.round(ev.timeMs - ((ev.sample - s.startSample) / fs) * 1000) : msOf(s.startSample)
      return { kind: 'excerpt', id: `${ctx.recordId}:ex:${o.set}:${s.name ?? s.startSample}`, recordId: ctx.recordId, set: o.set, startSample: s.startSample, endSample: s.endSample, startMs, endMs: startMs + Math.round(((s.endSample - s.startSample) / fs) * 1000), fs, reason: s.reason }
    }
    const start = (rate: number, samples: number) => {
      fs = rate
      total = samples
      const sec = (x: number) => Math.round(x * fs)
      if (o.every) state.plan = everyPlan(sec(o.every.minutes * 60), sec(o.every.lengthSec), sec(o.every.offsetSec))
      else if (o.random) {
        if (!Number.isFinite(total)) throw new PipelineError('E_CONFIG_VALUE', 'excerpt: the random rule needs the record\'s length from the recording item the read stage emits; put the excerpt stage after read', { field: 'random' })
        state.plan = randomPlan(o.random.count, sec(o.random.lengthSec), total, `${o.random.seed}:${ctx.recordId}`)
      } else if (o.stratified) {
        const t = o.stratified
        const p = stratifiedPlan({ length: sec(t.lengthSec), horizon: sec(t.horizonHours * 3600), perHour: t.perHour, fs, seed: `${t.seed}:${ctx.recordId}`, allowArtifacts: t.artifacts === 'allow', source: t.source, avgBeats: 8, vocab: t.vocabulary })
        state.plan = p
        state.feed = p.input
      } else if (o.whole) {
        state.plan = wholePlan(sec(o.whole.maxSec), total, () => ctx.warn('W_EXCERPT_WHOLE', `record ${ctx.recordId} is longer than excerpt option whole.maxSec (${o.whole!.maxSec} s): set ${o.set} has no excerpt of it (raise maxSec up to 21600, or use the stratified rule)`))
      } else {
        const a = o.around!
        const [before, after] = typeof a.padSec === 'number' ? [a.padSec, a.padSec] : a.padSec
        state.plan = aroundPlan(sec(before), sec(after), sec(a.minGapSec), a.max)
      }
    }
    const wanted = new Set(o.around?.labels ?? [])
    const fromSource = (s: string) => o.around !== undefined && (o.around.source === 'all' || o.around.source === s)

    for await (const item of source) {
      const plan = state.plan
      if (item.kind === 'watermark') {
        marks.seen(item.sample)
        for (const s of plan?.due(item.sample) ?? []) {
          const x = toItem(s)
          if (x) yield x
        }
        const w = marks.next(plan ? plan.lowest(item.sample) : -Infinity)
        if (w) yield w
        continue
      }
      yield item
      if (item.kind === 'recording') {
        sidecar = item.annotationSidecar !== undefined
        start(item.fs, item.totalSamples)
      } else if (item.kind === 'block') {
        if (!state.plan) start(item.fs, Infinity)
        signalEnd = Math.max(signalEnd, item.startSample + (item.leads[0]?.length ?? 0))
      } else if (item.kind === 'window') {
        // A run over an earlier run has windows and no blocks: they tell how far the signal goes.
        if (!state.plan) start(item.fs, Infinity)
        signalEnd = Math.max(signalEnd, item.startSample + item.lengthSamples)
      } else if (item.kind === 'gap') {
        gaps.push({ atSample: item.atSample, ms: (gaps.at(-1)?.ms ?? 0) + item.endMs - item.startMs })
        state.feed?.gap(item.atSample)
      } else if (state.feed && item.kind === 'quality') {
        if (item.leads.some((l) => l.flags.length)) state.feed.artifact(item.startSample, item.endSample)
      } else if (state.feed && item.kind === 'beat') {
        state.feed.beat(item)
      } else if (state.feed && item.kind === 'annotation') {
        if ((item.origin === 'sidecar') === sidecar) feedReferenceMark(state.feed, item)
      } else if (plan && item.kind === 'beat') {
        if (wanted.has(item.label) && fromSource(item.source)) plan.event({ sample: item.sample, timeMs: item.timeMs, label: item.label, source: item.source, kind: 'beat' })
      } else if (plan && item.kind === 'annotation') {
        // A rhythm change ("+" with aux "(AFIB") of the reference in use: the recording's own, or the sidecar's rows.
        const rhythm = (item.origin === 'sidecar') === sidecar ? rhythmOf(item) : null
        if (rhythm && wanted.has(rhythm) && fromSource('reference')) plan.event({ sample: item.sample, timeMs: item.timeMs, label: rhythm, source: 'reference', kind: 'rhythm' })
      }
    }
    const plan = state.plan
    if (plan) {
      for (const s of [...plan.due(signalEnd), ...plan.end(signalEnd)]) {
        const x = toItem(s)
        if (x) yield x
      }
    } else if (total === 0 && signalEnd === 0) {
      throw new PipelineError('E_CONFIG_VALUE', 'excerpt: no recording or signal reached this stage; put it after read (stages: [read, ..., excerpt])', { field: 'stages' })
    }
    if (skipped) ctx.warn('W_EXCERPT_GAP', `${skipped} excerpt${skipped === 1 ? '' : 's'} of set ${o.set} would straddle a gap in the signal and ${skipped === 1 ? 'was' : 'were'} skipped`)
    const w = marks.next()
    if (w) yield w
  },
})

