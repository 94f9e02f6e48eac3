// The cached call (src/models/cached-call.ts) through the real adapter and limiter against the
// loopback chat server (test/helpers/chat-server.ts): a cached reply sends nothing, identical calls
// at once make one request (and what a waiter takes after a failure), an answer without text is
// stored, a fatal failure stops the model's later calls (those waiting for a slot included), and
// a store that fails throws its error after one request, never a second.
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { PipelineError } from '../../src/core/errors.ts'
import type { ContentCache } from '../../src/core/services.ts'
import { cachedCall, type CachedAnswer, type CachedCallOptions, type Halt, type InFlight } from '../../src/models/cached-call.ts'
import { apiModelSchema } from '../../src/models/model-config.ts'
import { createChatCaller, type ChatCaller } from '../../src/models/openai-adapter.ts'
import type { CallFailure } from '../../src/models/retry-policy.ts'
import { createContentCache } from '../../src/run/content-cache.ts'
import { createLimiter } from '../../src/run/limiter.ts'
import { startChatServer, type ChatServer } from '../helpers/chat-server.ts'
import { pipelineRejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const root = tmpDir('hp-cached-call-')
let server: ChatServer
let caches = 0
const signal = new AbortController().signal

beforeAll(async () => {
  server = await startChatServer()
})
afterAll(() => server.close())

const freshCache = (): ContentCache => createContentCache(path.join(root, `cache-${++caches}`), 'models')
function caller(concurrency = 2): ChatCaller {
  const model = apiModelSchema.parse({ name: 'm', kind: 'openai-compatible', baseURL: server.url, model: 'test-model', backoff: { minMs: 5, maxMs: 20 } })
  return createChatCaller(model, null, createLimiter({ concurrency }))
}
const body = (q: string) => ({ model: 'test-model', messages: [{ role: 'user', content: q }], max_tokens: 16 })
const since = (n: number) => server.requests.slice(n)

/** Options for the request asking `q` (its key in `cache`), through `call`. */
function options<E = never>(cache: ContentCache, call: ChatCaller, q: string, more: Partial<CachedCallOptions<E>> = {}): CachedCallOptions<E> {
  return { cache, key: cache.key(body(q)), send: (hooks) => call(body(q), { signal, cost: 100, ...hooks }), ...more }
}

describe('cachedCall: the cache', () => {
  it('a reply in the cache is returned without a request', async () => {
    server.setBehaviour(undefined)
    const cache = freshCache()
    const kept: CachedAnswer = { answer: 'B0', finishReason: 'stop', usage: null, latencyMs: 1, attempts: 1, at: '2024-01-01T00:00:00.000Z' }
    await cache.put(cache.key(body('cached')), kept)
    const n = server.requests.length
    expect(await cachedCall(options(cache, caller(), 'cached'))).toEqual({ status: 'cached', kept })
    expect(since(n)).toHaveLength(0)
  })

  it('a reply sent now is stored (the entry layout every cache shares) and read back by the next call', async () => {
    server.setBehaviour(undefined)
    const cache = freshCache()
    const n = server.requests.length
    const first = await cachedCall(options(cache, caller(), 'sent'))
    expect(first).toMatchObject({ status: 'sent', kept: { answer: expect.stringMatching(/^B[0-9a-f]{8}$/), finishReason: 'stop', attempts: 1 } })
    expect(Object.keys((first as { kept: CachedAnswer }).kept)).toEqual(['answer', 'finishReason', 'usage', 'latencyMs', 'attempts', 'at'])
    expect(await cache.get(cache.key(body('sent')))).toEqual((first as { kept: CachedAnswer }).kept)
    expect(await cachedCall(options(cache, caller(), 'sent'))).toEqual({ status: 'cached', kept: (first as { kept: CachedAnswer }).kept })
    expect(since(n)).toHaveLength(1)
  })

  it('an answer without text is stored and reported empty with the adapter\'s failure; the next call reads it', async () => {
    server.setBehaviour(() => ({ kind: 'no-content' }))
    const cache = freshCache()
    const n = server.requests.length
    const r = await cachedCall(options(cache, caller(), 'no text'))
    expect(r).toMatchObject({ status: 'empty', kept: { noText: true, finishReason: 'length' } })
    expect((r as { failure: { failure: CallFailure } }).failure.failure).toMatchObject({ kind: 'empty' })
    expect(await cachedCall(options(cache, caller(), 'no text'))).toMatchObject({ status: 'cached', kept: { noText: true } })
    expect(since(n)).toHaveLength(1)
    server.setBehaviour(undefined)
  })

  it('a store that fails throws its E_IO after one request: not tried again, nothing taken as cached', async () => {
    server.setBehaviour(undefined)
    const real = freshCache()
    // A cache folder under a file: every write fails with E_IO.
    writeFileSync(path.join(root, 'a-file'), '')
    const unwritable = createContentCache(path.join(root, 'a-file'), 'models')
    const cache: ContentCache = { ...real, key: real.key, get: real.get, put: unwritable.put }
    const n = server.requests.length
    const err = await pipelineRejection(cachedCall(options(cache, caller(), 'no disk')))
    expect(err.code).toBe('E_IO')
    expect(since(n)).toHaveLength(1)
    expect(await real.get(real.key(body('no disk')))).toBeUndefined()
  })
})

describe('cachedCall: identical calls at once', () => {
  for (const share of ['answer', 'outcome'] as const) {
    it(`make one request, the others reading its answer as cached (share: ${share})`, async () => {
      server.setBehaviour(() => ({ kind: 'answer', delayMs: 30 }))
      const cache = freshCache()
      const call = caller(4)
      const inflight: InFlight = new Map()
      const n = server.requests.length
      const rs = await Promise.all([1, 2, 3].map(() => cachedCall(options(cache, call, 'same', { dedupe: { inflight, share } }))))
      expect(since(n)).toHaveLength(1)
      expect(rs.map((r) => r.status)).toEqual(['sent', 'cached', 'cached'])
      expect(new Set(rs.map((r) => ('kept' in r ? r.kept.answer : null))).size).toBe(1)
      expect(inflight.size).toBe(0)
      server.setBehaviour(undefined)
    })
  }

  it('without an in-flight map, each is sent', async () => {
    server.setBehaviour(() => ({ kind: 'answer', delayMs: 30 }))
    const cache = freshCache()
    const call = caller(4)
    const n = server.requests.length
    await Promise.all([1, 2].map(() => cachedCall(options(cache, call, 'no dedupe'))))
    expect(since(n)).toHaveLength(2)
    server.setBehaviour(undefined)
  })

  it('after a failure, share: outcome gives the waiters that failure (counted once); share: answer has them call on their own', async () => {
    server.setBehaviour(() => ({ kind: 'status', status: 400, delayMs: 30 }))
    const call = caller(4)
    const inflight: InFlight = new Map()
    let n = server.requests.length
    const shared = await Promise.all([1, 2].map(() => cachedCall(options(freshCache(), call, 'bad', { dedupe: { inflight, share: 'outcome' } }))))
    expect(since(n)).toHaveLength(1)
    expect(shared.map((r) => [r.status, 'waited' in r])).toEqual([['failed', false], ['failed', true]])
    n = server.requests.length
    const own = await Promise.all([1, 2].map(() => cachedCall(options(freshCache(), call, 'bad', { dedupe: { inflight, share: 'answer' } }))))
    expect(since(n)).toHaveLength(2)
    // One after the other: the waiter claims the key again before it calls.
    expect(since(n)[1].receivedAt - since(n)[0].receivedAt).toBeGreaterThanOrEqual(25)
    expect(own.map((r) => [r.status, 'waited' in r])).toEqual([['failed', false], ['failed', false]])
    server.setBehaviour(undefined)
  })
})

describe('cachedCall: halt on a failure every call would get', () => {
  const halting = (state: Halt<string>) => ({ state, error: (f: CallFailure) => `stopped: ${f.status}` })

  it('a refused key stops the later calls, those already waiting for a slot included; the cache still answers', async () => {
    const cache = freshCache()
    const kept: CachedAnswer = { answer: 'B1', finishReason: 'stop', usage: null, latencyMs: 1, attempts: 1, at: '2024-01-01T00:00:00.000Z' }
    await cache.put(cache.key(body('paid before')), kept)
    server.setBehaviour(() => ({ kind: 'status', status: 401, delayMs: 30 }))
    const state: Halt<string> = {}
    const call = caller(1)
    const n = server.requests.length
    const rs = await Promise.all(['a', 'b', 'c'].map((q) => cachedCall(options(cache, call, q, { halt: halting(state) }))))
    expect(since(n)).toHaveLength(1)
    expect(rs).toEqual([
      { status: 'failed', failure: expect.anything(), stop: 'stopped: 401' },
      { status: 'halted', error: 'stopped: 401' },
      { status: 'halted', error: 'stopped: 401' },
    ])
    expect(state.error).toBe('stopped: 401')
    expect(await cachedCall(options(cache, call, 'd', { halt: halting(state) }))).toEqual({ status: 'halted', error: 'stopped: 401' })
    expect(await cachedCall(options(cache, call, 'paid before', { halt: halting(state) }))).toEqual({ status: 'cached', kept })
    expect(since(n)).toHaveLength(1)
    server.setBehaviour(undefined)
  })

  it('other failures, or no halt given, stop nothing', async () => {
    const cache = freshCache()
    const state: Halt<string> = {}
    const call = caller(1)
    const n = server.requests.length
    server.setBehaviour(() => ({ kind: 'status', status: 400 }))
    expect(await cachedCall(options(cache, call, 'e', { halt: halting(state) }))).toMatchObject({ status: 'failed' })
    server.setBehaviour(() => ({ kind: 'status', status: 401 }))
    for (const q of ['f', 'g']) expect(await cachedCall(options(cache, call, q))).toMatchObject({ status: 'failed', failure: { failure: { status: 401 } } })
    expect(since(n)).toHaveLength(3)
    expect(state.error).toBeUndefined()
    server.setBehaviour(undefined)
  })

  it('the halt error can be a PipelineError (the infer stage throws it)', async () => {
    server.setBehaviour(() => ({ kind: 'status', status: 403 }))
    const state: Halt<PipelineError> = {}
    const r = await cachedCall(options(freshCache(), caller(), 'h', { halt: { state, error: (f) => new PipelineError('E_MODEL_CALL', `stopped: ${f.status}`, {}) } }))
    expect(r.status === 'failed' && r.stop).toBe(state.error)
    server.setBehaviour(undefined)
  })
})
