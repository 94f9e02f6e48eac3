// One API model's prediction for one QA item: the budget check before anything is read or paid,
// the request built from the item's own inputs, then the cached call (cached-call.ts: a request
// answered before, in this run or any run sharing the cache, is never sent again, and its answer
// is stored inside the call's limiter slot, so an interrupted run has stored every answer it
// received but the ones in flight).
import { PipelineError } from '../core/errors.ts'
import type { QaItem } from '../core/items.ts'
import type { ContentCache } from '../core/services.ts'
import { checkBudget, checkBytes, type BudgetVerdict } from './budget-check.ts'
import { cachedCall, type Halt, type InFlight } from './cached-call.ts'
import { buildChatRequest, promptTokens, TooBig, type InputReader } from './chat-request.ts'
import { requestConfig, type ApiModelConfig } from './model-config.ts'
import type { BudgetNote, PredictionItem } from './model.ts'
import type { ChatCaller } from './openai-adapter.ts'
import { prediction } from './prediction.ts'
import { PROMPT_VERSION } from './prompts.ts'
import type { CallFailure } from './retry-policy.ts'

export interface ApiPredictEnv {
  model: ApiModelConfig
  call: ChatCaller
  cache: ContentCache
  io: InputReader
  signal: AbortSignal
  /** Live counters (ctx.count). */
  count(name: string, n?: number): void
  /** Requests on the wire now, run-wide, by key: an identical request waits for that answer instead of paying again. */
  inflight: InFlight<PipelineError>
  /** This model's stop for the run (run-wide, by model name): set by an error every call would get (a refused key). */
  halt: Halt<PipelineError>
}

/** The prediction of `env.model` for `item`; `verdict` is the item's budget check when failFast already made it. */
export async function predictWithApi(item: QaItem, env: ApiPredictEnv, verdict = budgetOf(item, env.model)): Promise<PredictionItem> {
  const m = env.model
  if (verdict.missing) {
    // A set drawn in other modalities (the report excerpts as clips only): the model cannot be shown this item.
    env.count('model:no-input')
    return apiPrediction(item, m, { error: { code: 'no-input', message: `item ${item.id} has no ${verdict.missing} input (its excerpt set "${item.excerpt.set}" was not rendered as ${verdict.missing}); not sent` } })
  }
  let budget: BudgetNote | undefined
  let fit: { textTokens?: number; frames?: number } = {}
  if (verdict.over.length) {
    const refused = refuse(item, m, verdict)
    if (refused) return skipped(refused, env)
    budget = { policy: 'downsample', over: verdict.over }
    fit = { textTokens: verdict.textTokensAllowed, frames: verdict.framesAllowed }
  }
  let req: Awaited<ReturnType<typeof buildChatRequest>>
  try {
    req = await buildChatRequest(item, m, env.io, fit)
  } catch (err) {
    if (!(err instanceof TooBig) || !budget) throw err
    return skipped(apiPrediction(item, m, { budget: { ...budget, action: err.message }, error: { code: 'over-budget', message: `the input is over the model's limits (${budget.over.map((o) => `${o.limit} ${o.size} > ${o.max}`).join(', ')}) and ${err.message}; not sent` } }), env)
  }
  if (budget && req.action) budget.action = req.action
  const bytesOver = checkBytes(req.bytes, m)
  if (bytesOver.length) {
    // Bytes are known only now; downsampling does not shrink strips, so it counts as skip.
    const refused = refuse(item, m, { over: bytesOver, downsampleable: false })
    if (refused) return skipped(refused, env)
  }
  const requestKey = env.cache.key({ prompts: PROMPT_VERSION, server: requestConfig(m), body: req.body })
  const base = { requestKey, ...(budget ? { budget } : {}) }
  const cost = (item.inputs.text && m.modality === 'text' ? Math.ceil(req.bytes / 3) : 1000) + m.maxTokens
  const r = await cachedCall({
    cache: env.cache,
    key: requestKey,
    // Run-wide, shared by models and records: a waiter takes only an answer, else calls on its own.
    dedupe: { inflight: env.inflight, share: 'answer' },
    halt: { state: env.halt, error: (f) => fatalError(m, item, f) },
    send: (hooks) => env.call(req.body, {
      signal: env.signal,
      cost,
      onSend: () => env.count('model:in-flight', 1),
      onSettle: () => env.count('model:in-flight', -1),
      onRetry: () => env.count('model:retried'),
      ...hooks,
    }),
  })
  if (r.status === 'halted') throw r.error
  if (r.status === 'cached') {
    const hit = r.kept
    env.count('model:cached')
    const told = { ...base, usage: hit.usage, latencyMs: hit.latencyMs, cached: true, attempts: 0 }
    if (hit.noText) return apiPrediction(item, m, { ...told, error: { code: 'empty', message: `the answer (cached) holds no text (finish_reason ${hit.finishReason ?? 'none'})` } })
    return apiPrediction(item, m, { ...told, answer: hit.answer, ...truncated(hit.finishReason) })
  }
  if (r.status === 'sent') {
    const out = r.kept
    env.count('model:calls')
    if (out.usage) {
      env.count('model:tokens-in', out.usage.inputTokens)
      env.count('model:tokens-out', out.usage.outputTokens)
      if (m.prices) env.count('model:cost-usd', (out.usage.inputTokens * m.prices.inputPerMTok + out.usage.outputTokens * m.prices.outputPerMTok) / 1e6)
    }
    return apiPrediction(item, m, { ...base, answer: out.answer, usage: out.usage, latencyMs: out.latencyMs, attempts: out.attempts, cached: false, ...truncated(out.finishReason) })
  }
  // Failed, or answered without text (stored, so a rerun reads it from the cache).
  const err = r.failure
  env.count('model:failed')
  // A refused key, an unknown model or no credit fails every item alike: the record fails, so
  // a rerun after the fix redoes it (a record done with errors would be skipped on resume).
  if (r.status === 'failed' && r.stop) throw r.stop
  if (m.onError === 'record') throw new PipelineError('E_MODEL_CALL', `model "${m.name}" failed on item ${item.id} after ${err.attempts} attempt(s): ${err.failure.message}; the model's onError is record (use onError: item to record the error and go on)`, { model: m.name, qaId: item.id }, { cause: err })
  const error = { code: errorCode(err.failure), message: err.failure.message, ...(err.failure.status !== undefined ? { status: err.failure.status } : {}) }
  return apiPrediction(item, m, { ...base, attempts: err.attempts, error })
}

// The prediction for an item over budget under skip (or a downsample that cannot help); throws under fail.
function refuse(item: QaItem, m: ApiModelConfig, v: Pick<BudgetVerdict, 'over' | 'downsampleable'>): PredictionItem | null {
  const numbers = v.over.map((o) => `${o.limit} ${o.size} > ${o.max}`).join(', ')
  if (m.overBudget === 'fail') throw new PipelineError('E_MODEL_BUDGET', `item ${item.id} is over model "${m.name}"'s budget (${numbers}) and its overBudget is fail; raise the limits, or choose overBudget: skip or downsample`, { model: m.name, qaId: item.id, field: 'overBudget' })
  if (m.overBudget === 'downsample' && v.downsampleable) return null
  const why = v.over.some((o) => o.limit === 'maxBytes') ? 'the request is too large even as the budget allows it' : m.modality === 'images' ? 'strips are never dropped' : 'no smaller input fits'
  const budget: BudgetNote = { policy: m.overBudget, over: v.over, ...(m.overBudget === 'downsample' ? { action: `cannot be downsampled to fit (${why}); skipped` } : {}) }
  return apiPrediction(item, m, { budget, error: { code: 'over-budget', message: `the input is over the model's limits: ${numbers}; not sent` } })
}

function fatalError(m: ApiModelConfig, item: QaItem, f: CallFailure): PipelineError {
  return new PipelineError('E_MODEL_CALL', `model "${m.name}" at ${m.baseURL} was stopped for the run: ${f.message} (first on item ${item.id}); fix the key (${m.apiKeyEnv ?? 'apiKeyEnv'}), the model name or the account, then run again (answers already received are cached)`, { model: m.name, qaId: item.id, status: f.status })
}

function truncated(finishReason: string | null | undefined): { truncated?: true } {
  return finishReason === 'length' ? { truncated: true } : {}
}

/** Throws E_MODEL_BUDGET now when `item` is over a `fail` model's limits (before any call of the record is made for it); else the verdict, for predictWithApi. */
export function failFast(item: QaItem, m: ApiModelConfig): BudgetVerdict | undefined {
  if (m.overBudget !== 'fail') return undefined
  const v = budgetOf(item, m)
  if (v.over.length) refuse(item, m, v)
  return v
}

function budgetOf(item: QaItem, m: ApiModelConfig): BudgetVerdict {
  return checkBudget(item, m, promptTokens(item, m))
}

function skipped(p: PredictionItem, env: ApiPredictEnv): PredictionItem {
  env.count('model:over-budget')
  return p
}

function errorCode(f: CallFailure): string {
  return f.kind === 'status' ? `http-${f.status}` : f.kind
}

// An API model's prediction: its name, modality and, for Table 11, its id on the server.
function apiPrediction(item: QaItem, m: ApiModelConfig, fields: Partial<PredictionItem>): PredictionItem {
  return prediction(item, m.name, m.modality, { modelId: m.model, ...fields })
}
