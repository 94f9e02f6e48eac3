// One model call behind a content cache, shared by the infer stage (api-predict.ts), the judge
// (judge.ts) and the qa stage's writer (answer-writer.ts): a request answered before, in this run
// or any run sharing the cache, is never sent again; identical requests at once make one call
// (when the caller gives an in-flight map); a failure every call would get alike (a refused key,
// an unknown model, no credit) stops the model's later calls (when the caller gives a halt).
// The answer is stored by the `keep` hook, inside the call's limiter slot, before the next request
// may go out: an interrupted run has stored every answer it received but the ones in flight. A
// store that fails throws its E_IO (our disk, not the model): the adapter does not try again, so
// the failure never costs a second call, and the caller never takes the reply as cached.
// The halt is checked twice: before the call asks for a slot, and by `gate` once it has one, so
// calls already waiting for a slot when the stop comes send nothing.
import { PipelineError } from '../core/errors.ts'
import type { ContentCache } from '../core/services.ts'
import type { Usage } from './model.ts'
import { CallFailed, type CallHooks, type CallResult } from './openai-adapter.ts'
import type { CallFailure } from './retry-policy.ts'

/** What the cache keeps of an answered request (every entry of the models/ and judge/ caches). */
export interface CachedAnswer {
  answer: string
  /** The server's finish_reason. */
  finishReason?: string | null
  /** The answer held no text: an `empty` error, from the cache as when it came. */
  noText?: boolean
  usage: Usage | null
  latencyMs: number
  attempts: number
  at: string
}

/** A model's stop for the run: `error` is unset while it runs, then the error every later call gets. */
export interface Halt<E> {
  error?: E
}

/** How one cached call ended. */
export type CallReply<E = never> =
  /** From the cache, or from an identical call this one waited for: nothing sent. */
  | { status: 'cached'; kept: CachedAnswer }
  /** Sent now, answered and stored. */
  | { status: 'sent'; kept: CachedAnswer }
  /** Sent now and answered without text: stored all the same (it was billed, and would come back the same); `failure` is the adapter's `empty` failure. */
  | { status: 'empty'; kept: CachedAnswer; failure: CallFailed }
  /** No answer after the call's retries, nothing stored. `stop`: the model's halt error when this failure is one every call would get. `waited`: the failure of an identical call this one waited for (outcome sharing), counted there. */
  | { status: 'failed'; failure: CallFailed; stop?: E; waited?: true }
  /** Not sent: the model was stopped for the run (only with a `halt`). */
  | ([E] extends [never] ? never : { status: 'halted'; error: E })

/** Identical requests on the wire now, by cache key. */
export type InFlight<E = never> = Map<string, Promise<CallReply<E>>>

export interface CachedCallOptions<E> {
  cache: ContentCache
  /** The request's cache key (cache.key of prompt version, server and body). */
  key: string
  /** Sends the request with these hooks added to the caller's own (signal, cost, counters). */
  send(hooks: Required<Pick<CallHooks, 'keep'>> & Pick<CallHooks, 'gate' | 'onFail'>): Promise<CallResult>
  /** Without it, identical calls at once are each sent. */
  dedupe?: {
    inflight: InFlight<E>
    /**
     * What a caller that waited for an identical call takes from it. `answer`: only an answer;
     * after a failure or a throw it looks up and calls on its own (its own signal, retries and
     * halt), for a map shared by models and records. `outcome`: whatever came, failure and throw
     * included, for a map of one model with one signal.
     */
    share: 'answer' | 'outcome'
  }
  /** Without it, no failure stops the later calls. */
  halt?: {
    state: Halt<E>
    /** The error the stop is reported with, made from the first failure that stops the model. */
    error(f: CallFailure): E
  }
}

/** The reply for `o.key`: from the cache, from an identical call in flight, or sent now and stored. */
export async function cachedCall<E = never>(o: CachedCallOptions<E>): Promise<CallReply<E>> {
  const inflight = o.dedupe?.inflight
  const pending = inflight?.get(o.key)
  if (pending) return waitFor(pending, o)
  // Claimed before the first await: callers of one key at once share one lookup and one call.
  const reply = lookUpOrSend(o)
  if (!inflight) return reply
  inflight.set(o.key, reply)
  try {
    return await reply
  } finally {
    if (inflight.get(o.key) === reply) inflight.delete(o.key)
  }
}

// A caller of a key already in flight: an answer is its own as cached; anything else as `share` says.
async function waitFor<E>(pending: Promise<CallReply<E>>, o: CachedCallOptions<E>): Promise<CallReply<E>> {
  if (o.dedupe!.share === 'outcome') {
    const r = await pending
    if ('kept' in r) return { status: 'cached', kept: r.kept }
    return r.status === 'failed' ? { ...r, waited: true } : r
  }
  const r = await pending.catch(() => undefined)
  if (r && 'kept' in r) return { status: 'cached', kept: r.kept }
  return cachedCall(o)
}

async function lookUpOrSend<E>(o: CachedCallOptions<E>): Promise<CallReply<E>> {
  const hit = await o.cache.get<CachedAnswer>(o.key)
  if (hit) return { status: 'cached', kept: hit }
  const halt = o.halt
  if (halt?.state.error !== undefined) return halted(halt.state.error)
  let kept: CachedAnswer | undefined
  // Thrown by the gate, inside the adapter, to send nothing; known here by identity.
  let refused: PipelineError | undefined
  try {
    await o.send({
      keep: async (r) => {
        kept = { answer: r.text, finishReason: r.finishReason, ...(r.noText ? { noText: true } : {}), usage: r.usage, latencyMs: r.latencyMs, attempts: r.attempts, at: new Date().toISOString() }
        await o.cache.put(o.key, kept)
      },
      ...(halt ? {
        gate: () => {
          if (halt.state.error !== undefined) throw (refused = new PipelineError('E_MODEL_CALL', 'the model was stopped for the run', { key: o.key }))
        },
        onFail: (f: CallFailure) => {
          if (isFatal(f)) halt.state.error ??= halt.error(f)
        },
      } : {}),
    })
    return { status: 'sent', kept: kept! }
  } catch (err) {
    if (refused && err === refused) return halted(halt!.state.error as E)
    if (!(err instanceof CallFailed)) throw err
    // A CallFailed after the answer was kept: it held no text.
    if (kept) return { status: 'empty', kept, failure: err }
    const stop = halt && isFatal(err.failure) ? (halt.state.error ??= halt.error(err.failure)) : undefined
    return { status: 'failed', failure: err, ...(stop !== undefined ? { stop } : {}) }
  }
}

// Cast: for a generic E the conditional member of CallReply stays unresolved (it exists whenever a halt does).
function halted<E>(error: E): CallReply<E> {
  return { status: 'halted', error } as CallReply<E>
}

// Failures every call would get alike: a refused key, an unknown model, no credit.
function isFatal(f: CallFailure): boolean {
  return [401, 403, 404].includes(f.status ?? 0) || f.code === 'insufficient_quota'
}
