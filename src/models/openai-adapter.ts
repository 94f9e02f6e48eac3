// The adapter for any server that speaks the chat-completions API (OpenAI, vLLM, llama.cpp's
// server, LiteLLM, Ollama), through the `openai` package with its own retries off: p-retry runs
// the attempts, each one through the model's run-wide limiter (a slot is held only while a
// request is on the wire, never during a backoff wait), and retry-policy.ts decides what is
// tried again and when. The key is revealed only to the client that sends it.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import pRetry, { AbortError } from 'p-retry'
import { setTimeout as sleep } from 'node:timers/promises'
import { PipelineError } from '../core/errors.ts'
import type { Limiter, Secret } from '../core/services.ts'
import type { ApiModelConfig } from './model-config.ts'
import type { Usage } from './model.ts'
import { isRetryable, retryDelayMs, type CallFailure } from './retry-policy.ts'

export interface CallResult {
  text: string
  /** The server's finish_reason (`length`: the answer was cut at maxTokens). */
  finishReason: string | null
  /** The answer held no text (content null or missing): an `empty` failure, stored all the same. */
  noText: boolean
  usage: Usage | null
  attempts: number
  latencyMs: number
}

/** A call that failed for good: its last failure and the attempts made. */
export class CallFailed extends Error {
  constructor(readonly failure: CallFailure, readonly attempts: number) {
    super(failure.message)
  }
}

export interface CallHooks {
  signal: AbortSignal
  /** Tokens the call may cost (for the limiter's tpm). */
  cost: number
  /** Before a retry: the failure and the wait. */
  onRetry?(f: CallFailure, waitMs: number): void
  /** When a request goes on the wire and when it comes back. */
  onSend?(): void
  onSettle?(): void
  /** Called when the call has its slot, before it is sent: throws to send nothing (the model was stopped). */
  gate?(): void
  /** An attempt failed; called while it still holds its slot (so a stop it decides on is seen by the next call). */
  onFail?(f: CallFailure): void
  /** Stores the answer; awaited while the call still holds its limiter slot (see api-predict.ts). */
  keep?(result: CallResult): Promise<void>
}

export type ChatCaller = (body: Record<string, unknown>, hooks: CallHooks) => Promise<CallResult>

/** A caller for `model`'s server; `key` is its API key (none for a local server without keys). */
export function createChatCaller(model: ApiModelConfig, key: Secret | null, limiter: Limiter): ChatCaller {
  // The package refuses to start without a key; a local server ignores this placeholder.
  // organization and project null: the package would otherwise send OPENAI_ORG_ID / OPENAI_PROJECT_ID
  // from the environment to whatever server baseURL names.
  const client = new OpenAI({ baseURL: model.baseURL, apiKey: key ? key.reveal() : 'no-key', maxRetries: 0, timeout: model.timeoutMs, organization: null, project: null })
  // A server may quote the key it was sent in an error message: it never reaches a prediction, log or output.
  const scrub = (f: CallFailure): CallFailure => (key ? { ...f, message: f.message.split(key.reveal()).join(`[secret ${key.name}]`) } : f)
  return async (body, hooks) => {
    const started = performance.now()
    let attempts = 0
    let last: CallFailure | null = null
    const attempt = async () => {
      hooks.gate?.()
      attempts++
      hooks.onSend?.()
      // Not aborted with the run: a request on the wire may already be billed, so its answer is
      // awaited and stored (the stage waits for it). The timeout covers the whole response: the
      // package's own timeout stops at the headers.
      const timeout = attemptSignal(hooks.signal, model.timeoutMs, Math.min(model.timeoutMs, GRACE_MS))
      try {
        const res = await client.chat.completions.create(body as never, { signal: timeout.signal })
        const choice = (res as { choices?: { message?: { content?: unknown }; finish_reason?: string }[] }).choices?.[0]
        const content = choice?.message?.content
        const u = (res as { usage?: { prompt_tokens?: number; completion_tokens?: number } }).usage
        const result: CallResult = { text: typeof content === 'string' ? content : '', noText: typeof content !== 'string', finishReason: choice?.finish_reason ?? null, usage: u ? { inputTokens: u.prompt_tokens ?? 0, outputTokens: u.completion_tokens ?? 0 } : null, attempts, latencyMs: Math.round(performance.now() - started) }
        // Kept even without text: it was answered (and billed), and asking again would be answered the same.
        await hooks.keep?.(result)
        if (typeof content !== 'string') throw new CallFailed(emptyFailure(result.finishReason), attempts)
        return result
      } catch (err) {
        if (timeout.signal.aborted && !(err instanceof CallFailed) && !(err instanceof PipelineError)) err = hooks.signal.aborted ? hooks.signal.reason : new CallFailed({ kind: 'timeout', message: `no complete answer within timeoutMs (${model.timeoutMs} ms)` }, attempts)
        if (!(err instanceof PipelineError)) hooks.onFail?.(scrub(describe(err, hooks.signal)))
        throw err
      } finally {
        timeout.dispose()
        hooks.onSettle?.()
      }
    }
    try {
      const out = await pRetry(async () => {
        try {
          return await limiter.run(attempt, { cost: hooks.cost, signal: hooks.signal })
        } catch (err) {
          // Our own failure (the cache could not be written): never a reason to pay again.
          if (err instanceof PipelineError) throw new AbortError(err)
          last = describe(err, hooks.signal)
          if (last.kind === 'aborted') throw new AbortError(err as Error)
          throw err
        }
      }, {
        retries: model.retries,
        minTimeout: 0,
        maxTimeout: 0,
        signal: hooks.signal,
        shouldRetry: () => isRetryable(last!),
        // p-retry waits nothing itself (minTimeout 0): the wait is the policy's, and obeys Retry-After.
        onFailedAttempt: async ({ attemptNumber, retriesLeft }) => {
          if (retriesLeft === 0 || !isRetryable(last!)) return
          const wait = retryDelayMs(last!, attemptNumber, model.backoff)
          if (wait === null) {
            // The server asks for a longer wait than the model allows: the item fails now, saying so.
            last = { ...last!, kind: 'status', message: `${last!.message} (the server asked to wait longer than backoff.maxRetryAfterMs, ${model.backoff.maxRetryAfterMs} ms)`, giveUp: true }
            return
          }
          hooks.onRetry?.(scrub(last!), wait)
          await sleep(wait, undefined, { signal: hooks.signal })
        },
      })
      return out
    } catch (err) {
      if (hooks.signal.aborted) throw hooks.signal.reason
      if (err instanceof PipelineError) throw err
      throw new CallFailed(scrub(last ?? describe(err, hooks.signal)), attempts)
    }
  }
}

// How long a call already on the wire may still take once the run is stopped (Ctrl-C): its answer
// may be billed, so it is awaited and stored, but a server that never answers does not hold the stop.
const GRACE_MS = 10_000

// An attempt's signal: aborted after `timeoutMs`, or `graceMs` after the run stops. Plain timers
// cleared by dispose(), not AbortSignal.timeout: that one lives (with whatever listens to it, the
// request among them) until it fires, so a busy run would hold every answer of the last timeoutMs.
function attemptSignal(run: AbortSignal, timeoutMs: number, graceMs: number): { signal: AbortSignal; dispose(): void } {
  const c = new AbortController()
  const timer = setTimeout(() => c.abort(new Error('timeout')), timeoutMs)
  let grace: NodeJS.Timeout | undefined
  const fire = () => {
    grace = setTimeout(() => c.abort(run.reason), graceMs)
  }
  if (run.aborted) fire()
  else run.addEventListener('abort', fire, { once: true })
  return {
    signal: c.signal,
    dispose() {
      run.removeEventListener('abort', fire)
      clearTimeout(timer)
      clearTimeout(grace)
    },
  }
}

function emptyFailure(finishReason: string | null): CallFailure {
  return { kind: 'empty', message: `the response holds no choices[0].message.content text (finish_reason ${finishReason ?? 'none'}${finishReason === 'length' ? ': raise maxTokens' : ''})` }
}

/** A thrown error as a failure the policy can judge. */
export function describe(err: unknown, signal: AbortSignal): CallFailure {
  if (signal.aborted || err instanceof APIUserAbortError) return { kind: 'aborted', message: 'the run was interrupted' }
  if (err instanceof CallFailed) return err.failure
  if (err instanceof APIConnectionTimeoutError) return { kind: 'timeout', message: `no answer within the model's timeoutMs (${(err as Error).message})` }
  if (err instanceof APIConnectionError) return { kind: 'connection', message: `the connection failed: ${connectionCause(err)}` }
  if (err instanceof APIError && err.status !== undefined) return { kind: 'status', status: err.status, headers: err.headers ?? null, code: err.code ?? null, message: err.message }
  if (err instanceof SyntaxError) return { kind: 'malformed', message: `the response is not valid JSON: ${err.message}` }
  return { kind: 'connection', message: err instanceof Error ? err.message : String(err) }
}

function connectionCause(err: Error): string {
  const cause = err.cause as { message?: string; code?: string } | undefined
  return [err.message, cause?.code, cause?.message].filter(Boolean).join(': ')
}
