// ScoreGPT's call: an openai-compatible model scores a candidate report against the
// reference with the prompt of src/metrics/judge-prompt.ts; the reply is validated by
// src/metrics/judge-parse.ts. Like api-predict.ts, the request goes through cached-call.ts: cached
// by a hash of (prompt version, server, body), the reply stored inside the call's limiter slot, so
// a rerun never pays twice, and identical requests in flight at once are sent once. The raw reply
// is what is cached, not the scores: a validation rule changed later applies to replies already paid.
// Outcomes:
//   - a failed call (after createChatCaller's retries), a reply without text or a reply refused
//     by validation is a per-item `{error}`, never a throw; a refused key, unknown model or
//     exhausted quota stops the judge's calls for the rest of the run (same error, nothing sent);
//   - an empty candidate scores 0 on every criterion without a call, flagged `empty` (leaving it
//     out of the mean would reward answering nothing; a judge may rate "nothing invented" high);
//   - an empty reference is an item error (`no-reference`), with no call;
//   - an abort propagates, as does a cache that cannot be written (our disk, not the judge) and a
//     task the judge does not score (E_USAGE: the caller's mistake).
import type { ContentCache, Limiter, Secret } from '../core/services.ts'
import { judgeCriteria } from '../metrics/judge-criteria.ts'
import { judgeSignature, parseJudgeReply, zeroScores, type JudgeScores } from '../metrics/judge-parse.ts'
import { JUDGE_PROMPT_VERSION, judgeMessages, judgePromptHash } from '../metrics/judge-prompt.ts'
import { cachedCall, type Halt, type InFlight } from './cached-call.ts'
import { chatBody } from './chat-request.ts'
import { requestConfig, type ApiModelConfig } from './model-config.ts'
import type { Usage } from './model.ts'
import { createChatCaller, type CallFailed } from './openai-adapter.ts'
import type { CallFailure } from './retry-policy.ts'

export interface JudgeServices {
  /** Where replies are kept (a run's `cache('judge')`, or any cache shared by several runs). */
  cache: ContentCache
  /** The judge model's limiter (run-wide). */
  limiter: Limiter
  /** Its API key; null for a local server without keys. */
  secret: Secret | null
  signal: AbortSignal
  /** Live counters (judge:calls, judge:cached, judge:retried, judge:failed, judge:invalid, judge:empty, judge:tokens-in/out, judge:cost-usd). */
  count?(name: string, n?: number): void
}

export interface JudgeInput {
  taskType: string
  candidate: string
  reference: string
}

export interface JudgeError {
  /** `http-<status>`, a call failure's kind (timeout, connection, malformed), `empty`, `invalid-reply` or `no-reference`. */
  code: string
  message: string
  status?: number
}

export type JudgeResult =
  | (JudgeScores & { cached: boolean; empty?: true; requestKey?: string; usage?: Usage | null })
  | { error: JudgeError; cached: boolean; requestKey?: string }

export type Judge = (input: JudgeInput) => Promise<JudgeResult>

/** A judge scoring with `model` (validated by apiModelSchema at the edge). */
export function createJudge(model: ApiModelConfig, services: JudgeServices): Judge {
  const { cache, signal } = services
  const count = services.count ?? (() => undefined)
  const call = createChatCaller(model, services.secret, services.limiter)
  // Per judge, not per module: requests on the wire by key, and the failure that stopped the judge.
  // One judge has one signal and one model, so a caller that waited for a call takes its outcome.
  const inflight: InFlight<JudgeError> = new Map()
  const halt: Halt<JudgeError> = {}

  function failed(err: CallFailed): JudgeError {
    const f = err.failure
    return { code: errorCode(f), message: `judge "${model.name}" failed after ${err.attempts} attempt(s): ${f.message}`, ...(f.status !== undefined ? { status: f.status } : {}) }
  }

  function stopped(f: CallFailure): JudgeError {
    return { code: errorCode(f), message: `judge "${model.name}" at ${model.baseURL} was stopped for the run: ${f.message}; fix the key (${model.apiKeyEnv ?? 'apiKeyEnv'}), the model name or the account, then score again (replies already received are cached)`, ...(f.status !== undefined ? { status: f.status } : {}) }
  }

  return async ({ taskType, candidate, reference }) => {
    signal.throwIfAborted()
    judgeCriteria(taskType)
    if (!reference.trim()) return { error: { code: 'no-reference', message: `the reference report is empty; a ${taskType} item needs its gold report to be judged (not sent)` }, cached: false }
    if (!candidate.trim()) {
      count('judge:empty')
      return { ...zeroScores(taskType), cached: false, empty: true }
    }
    const body = chatBody(model, judgeMessages(taskType, candidate, reference))
    const requestKey = cache.key({ prompts: JUDGE_PROMPT_VERSION, server: requestConfig(model), body })
    const r = await cachedCall({
      cache,
      key: requestKey,
      dedupe: { inflight, share: 'outcome' },
      halt: { state: halt, error: stopped },
      send: (hooks) => call(body, { signal, cost: Math.ceil(JSON.stringify(body).length / 3) + model.maxTokens, onRetry: () => count('judge:retried'), ...hooks }),
    })
    if (r.status === 'halted') return { error: r.error, cached: false, requestKey }
    if (r.status === 'failed') {
      if (!r.waited) count('judge:failed')
      return { error: r.stop ?? failed(r.failure), cached: false, requestKey }
    }
    const { kept } = r
    const cached = r.status === 'cached'
    // An answer without text was kept (it was billed): counted as a call, reported like a cached one below.
    if (cached) count('judge:cached')
    else {
      count('judge:calls')
      if (kept.usage) {
        count('judge:tokens-in', kept.usage.inputTokens)
        count('judge:tokens-out', kept.usage.outputTokens)
        if (model.prices) count('judge:cost-usd', (kept.usage.inputTokens * model.prices.inputPerMTok + kept.usage.outputTokens * model.prices.outputPerMTok) / 1e6)
      }
    }
    const from = cached ? ' (cached: a rerun reuses it; another judge model, maxTokens or prompt version asks again)' : ''
    if (kept.noText) return { error: { code: 'empty', message: `judge "${model.name}"'s reply holds no text (finish_reason ${kept.finishReason ?? 'none'})${from}` }, cached, requestKey }
    const verdict = parseJudgeReply(kept.answer, taskType)
    if ('error' in verdict) {
      count('judge:invalid')
      const cut = kept.finishReason === 'length' ? '; the reply was cut at maxTokens: raise the judge\'s maxTokens' : ''
      return { error: { code: 'invalid-reply', message: `${verdict.error}${cut}${from}` }, cached, requestKey }
    }
    return { ...verdict, cached, requestKey, usage: kept.usage }
  }
}

/** The ScoreGPT signature of `model` judging `taskType` (or of the judge alone). */
export function judgeSignatureFor(model: ApiModelConfig, taskType?: string): string {
  return judgeSignature({ model: model.model, temperature: model.temperature, seed: model.seed, promptHash: judgePromptHash(), version: JUDGE_PROMPT_VERSION, taskType })
}

function errorCode(f: CallFailure): string {
  return f.kind === 'status' ? `http-${f.status}` : f.kind
}
