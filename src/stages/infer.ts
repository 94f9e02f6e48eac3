// `infer`: every QA item put in front of every configured model, one `prediction` item
// per item and model. API models get the item's own inputs in their modality, checked against
// their budgets before anything is read or paid (src/models/api-predict.ts), through a limiter
// shared by every record of the run, with each answer cached by its exact request; baselines
// answer in-process (holter-dsp from the detector's facts of the excerpt, gathered here as the
// record streams). Predictions come out in the order of their items, at most `window` pending per
// record, so the stream (and memory) is held while the models are busy. Every item passes through.
import { setMaxListeners } from 'node:events'
import path from 'node:path'
import { defineStage } from '../core/stage.ts'
import type { QaItem, WatermarkItem } from '../core/items.ts'
import { createOrderedQueue } from '../core/map-ordered.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { vocabularyOption } from '../qa/vocabulary-option.ts'
import { createDetectorFacts } from '../models/detector-facts.ts'
import { inferPlanProblems } from '../models/infer-plan-check.ts'
import { modelsSchema, type ModelConfig } from '../models/model-config.ts'
import type { PredictionItem } from '../models/model.ts'
import { createModelRunners } from '../models/model-runners.ts'

const schema = z.strictObject({
  models: modelsSchema,
  /** Predictions pending per record (calls in flight and answers waiting for their turn); default: twice the models' concurrency, at least 16. */
  window: z.number().int().min(1).max(10_000).optional(),
  /** holter-dsp: beats averaged for a heart rate, and the events it knows (as the qa stage's). */
  avgBeats: z.number().int().min(1).max(100).default(8),
  vocabulary: vocabularyOption,
})

export type InferOptions = z.infer<typeof schema> & { baseDir?: string }

export default defineStage<InferOptions>({
  name: 'infer',
  version: 1,
  parseOptions: (raw, where) => ({ ...parseOptionsWith(schema, raw, where), baseDir: path.dirname(path.resolve(where.file)) }),
  checkPlan: inferPlanProblems,
  async *transform(source, ctx) {
    const o = ctx.options
    // Every call in flight listens for the abort (client, limiter, backoff): one signal of the
    // stage's own, allowed that many listeners, stands for the run's.
    const stop = new AbortController()
    const onAbort = () => stop.abort(ctx.signal.reason)
    ctx.signal.addEventListener('abort', onAbort, { once: true })
    setMaxListeners(0, stop.signal)
    const runners = await createModelRunners(o, { ...ctx, signal: stop.signal })
    const facts = o.models.some((m: ModelConfig) => m.kind === 'holter-dsp') ? createDetectorFacts(o.vocabulary, o.avgBeats) : null
    const window = o.window ?? Math.max(16, 2 * o.models.reduce((n, m) => n + (m.kind === 'openai-compatible' ? m.concurrency : 0), 0))
    // Watermarks take their place in the queue behind the predictions started before them, so the
    // calls of many excerpts stay in flight while nothing comes out past a watermark it precedes.
    const queue = createOrderedQueue<PredictionItem | WatermarkItem>(window)
    let completed = false
    try {
      for await (const item of source) {
        facts?.feed(item)
        if (item.kind === 'watermark') {
          if (queue.size === 0) yield item
          else {
            queue.push(item)
            yield* queue.land()
          }
          continue
        }
        yield item
        if (item.kind !== 'qa') continue
        for (const run of runners) {
          if (!run.takes(item as QaItem)) continue
          run.check?.(item as QaItem)
          queue.push(run.predict(item as QaItem, facts?.of(item.excerpt.id) ?? null))
          yield* queue.land()
        }
      }
      yield* queue.land(0)
      runners.forEach((r) => r.finish())
      completed = true
    } finally {
      // Ended early (a failed item under onError: record, a fail budget, a stage after this one):
      // calls still waiting for a slot or a retry stop; calls on the wire finish and are stored.
      if (!completed) stop.abort(new Error('the record ended'))
      await queue.settle()
      ctx.signal.removeEventListener('abort', onAbort)
    }
  },
})
