// `qa`: the Holtercare-style questions of a record, each about one excerpt of the sets
// it names (the excerpt stage's), with the excerpt's render items as its inputs. When an excerpt
// arrives its span has passed, so its facts are computed then from the beats, rhythms and flags
// held since the watermark (src/qa/fact-buffer.ts); render items `of` it join it as they come.
// At the record's end the questions are made (src/qa/record-questions.ts: the closed ones are
// balanced across the record's excerpts, so they are held until then), assigned the case's split
// and yielded in excerpt order. Every item passes through unchanged.
// Items hold the facts of their excerpts only: memory grows with the excerpts chosen, not with
// the record's length.
import { defineStage } from '../core/stage.ts'
import type { ExcerptItem, QaItem } from '../core/items.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { createWatermarks } from '../core/watermark.ts'
import { createFactBuffer, feedReferenceMark } from '../qa/fact-buffer.ts'
import type { ExcerptFacts } from '../qa/excerpt-facts.ts'
import { TASK_TYPES, type TaskType } from '../holtercare/format.ts'
import { MULTITASK_TYPES, TASKS } from '../qa/tasks/index.ts'
import { createInputs } from '../qa/item-inputs.ts'
import { recordQuestions } from '../qa/record-questions.ts'
import { assignSplits } from '../qa/splits.ts'
import { splitOption } from '../qa/split-option.ts'
import { composeItem } from '../qa/compose-item.ts'
import { checkBudgets } from '../qa/input-budgets.ts'
import { qaPlanProblems } from '../qa/qa-plan-check.ts'
import { vocabularyOption } from '../qa/vocabulary-option.ts'
import { caseIdOf } from '../config/case-id.ts'
import { mapOrdered } from '../core/map-ordered.ts'
import { createAnswerWriter } from '../models/answer-writer.ts'
import { apiModelSchema } from '../models/model-config.ts'

// "all" is the public release's 12 tasks, "multitask" the ECG multi-task benchmark's: a set asks one kind or names its tasks.
const tasks = z.union([z.literal('all'), z.literal('multitask'), z.array(z.enum(TASKS.map((t) => t.type) as [TaskType, ...TaskType[]])).min(1)])

const schema = z.strictObject({
  /** Seeds every random choice (excerpts' questions, options, phrasings, splits). */
  seed: z.union([z.number(), z.string()]).default(1),
  /** Whose beats the gold is computed from: the reference annotations, the detector's, or the reference when the record has any. */
  source: z.enum(['reference', 'detector', 'auto']).default('reference'),
  /**
   * Excerpt sets (the excerpt stage's `set`): the task types asked about each ("all": the 12), and
   * the modalities each of its items must have an input in (render-text, render-strip and
   * render-video drawing the set): {tasks, inputs}, or the tasks alone.
   */
  sets: z.record(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'an excerpt set name'), z.union([tasks, z.strictObject({ tasks, inputs: z.array(z.enum(['text', 'images', 'video'])).default([]) })]).transform((v) => (typeof v === 'object' && !Array.isArray(v) ? v : { tasks: v, inputs: [] as ('text' | 'images' | 'video')[] })))
    .refine((s) => Object.keys(s).length > 0, 'name at least one excerpt set'),
  /** Shares of test and valid, and cases pinned to a split (src/qa/split-option.ts). */
  split: splitOption,
  /** A model's limits every item's inputs must fit (checked when the dataset is loaded where the sizes are known then, else per excerpt). */
  budgets: z.strictObject({ maxTextTokens: z.number().int().positive().optional(), maxImages: z.number().int().positive().optional(), maxFrames: z.number().int().positive().optional() }).default({}),
  avgBeats: z.number().int().min(1).max(100).default(8),
  /** Decoys of an extremum item are at least this much slower (faster) than the extreme; an open one needs every other moment this clear. */
  marginBpm: z.number().min(0).default(2),
  /** An excerpt asked about as lacking a sustained rate (sinus tachycardia, bradycardia) keeps at least this far from the threshold. */
  presenceMarginBpm: z.number().min(0).default(5),
  maxList: z.number().int().min(1).max(20).default(6),
  /** Present/absent pairs of excerpts per event and record (each pair carries that event's presence or evidence, counting and timing questions). */
  pairsPerEvent: z.number().int().min(1).default(50),
  /** Fewest options of a diagnosis item: groups of 4 excerpts with different findings are made first, then of 3 (then 2, if allowed). */
  minDiagnosisOptions: z.number().int().min(2).max(4).default(3),
  /** The events asked about and where each comes from (docs/qa.md); default: src/qa/vocabulary.ts. */
  vocabulary: vocabularyOption,
  /**
   * A model that writes the free-text answers of these tasks from the facts (checked: a written
   * answer that changes a number or a finding is rejected and the template kept). Default: none,
   * the templates' answers.
   */
  writer: z.strictObject({
    model: apiModelSchema.extend({ kind: z.literal('openai-compatible').default('openai-compatible') }),
    tasks: z.array(z.enum(['open_evidence_reasoning', 'report_general_summary', 'report_statistical_overview'])).min(1).default(['open_evidence_reasoning', 'report_general_summary', 'report_statistical_overview']),
  }).optional(),
})

export type QaOptions = z.infer<typeof schema>

export default defineStage<QaOptions>({
  name: 'qa',
  version: 1,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  checkPlan: qaPlanProblems,
  async *transform(source, ctx) {
    const o = ctx.options
    const seed = String(o.seed)
    const buffer = createFactBuffer(o.vocabulary, o.avgBeats)
    const marks = createWatermarks(ctx.recordId)
    const entries: { ex: ExcerptItem; facts: Record<'reference' | 'detector', ExcerptFacts | null>; inputs: ReturnType<typeof createInputs> }[] = []
    const byId = new Map<string, (typeof entries)[number]>()
    let patient: { age?: number; sex?: 'M' | 'F' } = {}
    let sidecar = false
    for await (const item of source) {
      if (item.kind === 'watermark') {
        marks.seen(item.sample)
        buffer.keepFrom(item.sample)
        const w = marks.next(entries[0]?.ex.endSample ?? Infinity)
        if (w) yield w
        continue
      }
      yield item
      if (item.kind === 'recording') {
        sidecar = item.annotationSidecar !== undefined
        const p = { ...(item.patient ?? {}), ...(ctx.record.patient ?? {}) } as { age?: unknown; sex?: unknown }
        patient = { ...(typeof p.age === 'number' ? { age: p.age } : {}), ...(p.sex === 'M' || p.sex === 'F' ? { sex: p.sex } : {}) }
      } else if (item.kind === 'beat') buffer.beat(item)
      else if (item.kind === 'annotation' && (item.origin === 'sidecar') === sidecar) {
        feedReferenceMark(buffer, item)
      } else if (item.kind === 'quality' && item.leads.some((l) => l.flags.length)) buffer.artifact(item.startSample, item.endSample)
      else if (item.kind === 'gap') buffer.gap(item.atSample)
      else if (item.kind === 'excerpt' && Object.hasOwn(o.sets, item.set)) {
        // With source auto both are kept: which one the record uses is known at its end.
        const facts = (s: 'reference' | 'detector') => (o.source === s || o.source === 'auto' ? buffer.facts(item, s) : null)
        const entry = { ex: item, facts: { reference: facts('reference'), detector: facts('detector') }, inputs: createInputs() }
        entries.push(entry)
        byId.set(item.id, entry)
      } else if (item.kind === 'render' && typeof item.of === 'string') byId.get(item.of)?.inputs.add(item)
    }
    const beats = o.source === 'auto' ? (buffer.seenReference > 0 ? 'reference' : 'detector') : o.source
    const tasksOf = (set: string) => { const t = o.sets[set].tasks; return new Set<string>(t === 'all' ? TASK_TYPES : t === 'multitask' ? MULTITASK_TYPES : t) }
    const { drafts, leftOut } = recordQuestions(ctx.recordId, entries.map((e) => ({ facts: e.facts[beats]!, tasks: tasksOf(e.ex.set) })), { seed, avgBeats: o.avgBeats, marginBpm: o.marginBpm, presenceMarginBpm: o.presenceMarginBpm, maxList: o.maxList, pairsPerEvent: o.pairsPerEvent, minDiagnosisOptions: o.minDiagnosisOptions, vocabulary: o.vocabulary, patient })
    for (const [task, why] of leftOut) {
      const n = [...why.values()].reduce((a, b) => a + b, 0)
      ctx.warn('W_QA_LEFT_OUT', `${n} excerpt${n === 1 ? '' : 's'} asked ${task} carry no item (${[...why].map(([r, k]) => `${r}: ${k}`).join('; ')})`)
    }
    const caseId = caseIdOf(ctx.record)
    const split = assignSplits(ctx.records.map(caseIdOf), { ...o.split, seed }).get(caseId) ?? 'train'
    const inputs = entries.map((e) => ({ of: e.inputs.inputs(), ids: e.inputs.ids() }))
    entries.forEach((e, i) => checkBudgets(e.ex, inputs[i].of, { budgets: o.budgets, inputs: o.sets[e.ex.set].inputs }))
    const seen = new Map<string, number>()
    const items = drafts.map(({ excerpt, draft }): QaItem => {
      const e = entries[excerpt]
      const key = `${e.ex.id}:${draft.task}`
      const k = seen.get(key) ?? 0
      seen.set(key, k + 1)
      return composeItem({ id: `${key}:${k}`, ex: e.ex, draft, patient, caseId, split, inputs: inputs[excerpt].of, renderIds: inputs[excerpt].ids, seed })
    })
    if (o.writer) {
      const write = await createAnswerWriter(o.writer.model, o.vocabulary, ctx)
      const tasks = new Set<string>(o.writer.tasks)
      yield* mapOrdered(items, (q) => (tasks.has(q.taskType) ? write(q) : q), { concurrency: o.writer.model.concurrency, signal: ctx.signal })
    } else yield* items
    if (entries.length === 0) ctx.warn('W_QA_NO_EXCERPTS', `no excerpt of the sets ${Object.keys(o.sets).join(', ')} reached the qa stage for record ${ctx.recordId}; put an excerpt stage making them before qa`)
    const w = marks.next()
    if (w) yield w
  },
})

