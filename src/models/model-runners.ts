// The infer stage's models made live for one record: an API model's caller (its client and the
// run-wide limiter, made once per run), the run's answer cache and the record's media reader; a
// baseline with its train split loaded once per run. Each runner turns a QA item into its
// prediction.
import { availableParallelism } from 'node:os'
import path from 'node:path'
import type { PipelineError } from '../core/errors.ts'
import type { QaItem } from '../core/items.ts'
import { hashConfig } from '../run/config-hash.ts'
import type { StageContext } from '../core/stage.ts'
import type { ExcerptFacts } from '../qa/excerpt-facts.ts'
import type { VocabularyEvent } from '../qa/vocabulary.ts'
import { failFast, predictWithApi } from './api-predict.ts'
import { createBaseline } from './baselines/index.ts'
import type { BudgetVerdict } from './budget-check.ts'
import type { Halt, InFlight } from './cached-call.ts'
import { answers, limiterName, type ApiModelConfig, type BaselineConfig, type ModelConfig } from './model-config.ts'
import type { PredictionItem } from './model.ts'
import { createChatCaller } from './openai-adapter.ts'
import { prediction } from './prediction.ts'
import { readTrainItems } from './train-items.ts'
import { sampleVideoFrames } from './video-frames.ts'

export interface ModelRunner {
  name: string
  /** Whether the model answers this item (its `only` filter). */
  takes(item: QaItem): boolean
  /** Throws at once when the item would fail the record (a `fail` budget), before its turn comes. */
  check?(item: QaItem): void
  predict(item: QaItem, detectorFacts: ExcerptFacts | null): Promise<PredictionItem>
  /** Called at the record's end (warnings gathered while it streamed). */
  finish(): void
}

interface RunnerOptions {
  models: ModelConfig[]
  avgBeats: number
  vocabulary: readonly VocabularyEvent[]
  baseDir?: string
}

/** The runners of `o.models` for the record of `ctx`. */
export async function createModelRunners(o: RunnerOptions, ctx: StageContext<unknown>): Promise<ModelRunner[]> {
  return Promise.all(o.models.map((m) => (m.kind === 'openai-compatible' ? apiRunner(m, ctx) : baselineRunner(m, o, ctx))))
}

async function apiRunner(m: ApiModelConfig, ctx: StageContext<unknown>): Promise<ModelRunner> {
  const limiter = ctx.run.limiter(limiterName(m), { concurrency: m.concurrency, rpm: m.rpm, tpm: m.tpm })
  // The key is read once per run; a missing variable fails the record with how to set it.
  const call = await ctx.run.once(`model-caller:${hashConfig(m)}`, async () => createChatCaller(m, m.apiKeyEnv ? ctx.run.secret(m.apiKeyEnv) : null, limiter))
  const cache = ctx.run.cache('models')
  const decoders = ctx.run.limiter('ffmpeg-frames', { concurrency: availableParallelism() })
  const inflight = await ctx.run.once('model-requests-in-flight', async (): Promise<InFlight<PipelineError>> => new Map())
  // By name, like the limiter: every record's runner of this model shares its stop.
  const halt = await ctx.run.once(`model-halt:${m.name}`, async (): Promise<Halt<PipelineError>> => ({}))
  const io = {
    read: (p: string, range?: { offset: number; bytes: number }) => ctx.media.read(p, range),
    // One ffmpeg per core at most, whatever the number of calls waiting.
    frames: (p: string, count: number, frames: number) => decoders.run(() => sampleVideoFrames(ctx.media.resolve(p), { count, frames, signal: ctx.signal }), { signal: ctx.signal }),
  }
  let noInput = 0
  const count = (name: string, n = 1) => {
    if (name === 'model:no-input') noInput += n
    ctx.count(name, n)
  }
  // The budget verdicts check made, taken by predict (called right after it with the same item): one check per item.
  const verdicts = new WeakMap<QaItem, BudgetVerdict>()
  return {
    name: m.name,
    takes: (item) => answers(m, item),
    check(item) {
      const v = failFast(item, m)
      if (v) verdicts.set(item, v)
    },
    predict(item) {
      const v = verdicts.get(item)
      verdicts.delete(item)
      return predictWithApi(item, { model: m, call, cache, io, signal: ctx.signal, count, inflight, halt }, v)
    },
    finish() {
      if (noInput) ctx.warn('W_MODEL_NO_INPUT', `model "${m.name}" reads ${m.modality}, but ${noInput} item(s) of record ${ctx.recordId} have no ${m.modality} input; their predictions say error no-input (render their excerpt sets as ${m.modality}, or leave them to a model of another modality)`, { model: m.name, items: noInput })
    },
  }
}

async function baselineRunner(m: BaselineConfig, o: RunnerOptions, ctx: StageContext<unknown>): Promise<ModelRunner> {
  const trainDir = m.train === undefined ? undefined : path.resolve(o.baseDir ?? '.', m.train)
  const train = trainDir ? await ctx.run.once(`train-items:${trainDir}`, () => readTrainItems(trainDir, ctx.signal)) : undefined
  // Learnt once per run (prior and blind go over the whole train split), shared by the records.
  const baseline = await ctx.run.once(`baseline:${hashConfig(m)}`, async () => createBaseline(m.kind, { seed: m.seed, train }))
  let blindItems = 0
  return {
    name: m.name,
    takes: (item) => answers(m, item),
    async predict(item, detectorFacts) {
      if (m.kind === 'holter-dsp' && detectorFacts === null) blindItems++
      const answer = baseline.answer(item, { detectorFacts, vocabulary: o.vocabulary, avgBeats: o.avgBeats })
      ctx.count('model:baseline')
      return prediction(item, m.name, 'none', { answer })
    },
    finish() {
      if (blindItems) ctx.warn('W_HOLTER_DSP_BLIND', `holter-dsp had no detector beats for ${blindItems} item(s) of record ${ctx.recordId} and answered them blind; run the detect stage before qa (or stream the benchmark run's beat, quality and excerpt items: input.kinds)`, { model: m.name, items: blindItems })
    },
  }
}
