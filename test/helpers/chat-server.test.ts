// The test chat server seen through the real `openai` client, as the infer stage will see it.
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startChatServer, type ChatServer } from './chat-server.ts'
import { rejection } from './thrown.ts'
import { waitUntil } from './child.ts'

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const MP4 = 'data:video/mp4;base64,AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDE='
const ask = (text: string) => ({ model: 'test-model', messages: [{ role: 'user' as const, content: text }] })

describe('chat server', () => {
  let server: ChatServer
  let client: OpenAI
  beforeAll(async () => {
    server = await startChatServer({ apiKey: 'k' })
    client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 })
  })
  afterEach(() => server.setBehaviour(undefined))
  afterAll(() => server.close())

  it('answers text with usage, deterministically', async () => {
    const a = await client.chat.completions.create({ ...ask('hello'), max_tokens: 5 })
    const b = await client.chat.completions.create({ ...ask('hello'), max_tokens: 5 })
    expect(a.object).toBe('chat.completion')
    expect(a.choices[0].message).toMatchObject({ role: 'assistant', content: expect.stringMatching(/^B[0-9a-f]{8}$/) })
    expect(b.choices[0].message.content).toBe(a.choices[0].message.content)
    expect(a.choices[0].finish_reason).toBe('stop')
    expect(a.usage!.prompt_tokens).toBeGreaterThanOrEqual(1)
    expect(a.usage!.total_tokens).toBe(a.usage!.prompt_tokens + a.usage!.completion_tokens)
    server.setBehaviour(() => ({ kind: 'answer', text: 'N', usage: { prompt_tokens: 7, completion_tokens: 1 } }))
    const c = await client.chat.completions.create(ask('x'))
    expect(c.choices[0].message.content).toBe('N')
    expect(c.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 })
  })

  it('accepts and counts image and video parts, and rejects unknown parts with 400', async () => {
    const content = [
      { type: 'text', text: 'which rhythm?' },
      { type: 'image_url', image_url: { url: PNG } },
      { type: 'image_url', image_url: { url: 'https://example.org/a.png' } },
      { type: 'video_url', video_url: { url: MP4 } },
    ]
    await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: content as any }] })
    expect(server.requests.at(-1)!.parts).toEqual({ text: 2, image: 2, video: 1 })
    const bad = (await rejection(client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: [{ type: 'audio', x: 1 }] as any }] }))) as InstanceType<typeof OpenAI.APIError>
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError)
    expect(bad.error).toMatchObject({ type: 'invalid_request_error', param: 'messages[0].content[0]', code: null })
    const empty = await rejection(client.chat.completions.create({ model: 'test-model', messages: [] }))
    expect((empty as InstanceType<typeof OpenAI.APIError>).status).toBe(400)
  })

  it('rate-limits with Retry-After, and fails with the status asked for', async () => {
    let calls = 0
    server.setBehaviour(() => (++calls === 1 ? { kind: 'rate-limit', retryAfter: '2' } : { kind: 'status', status: 500 }))
    const limited = (await rejection(client.chat.completions.create(ask('a')))) as InstanceType<typeof OpenAI.APIError>
    expect(limited.status).toBe(429)
    expect(limited.headers!.get('retry-after')).toBe('2')
    expect(limited.code).toBe('rate_limit_exceeded')
    const failed = (await rejection(client.chat.completions.create(ask('b')))) as InstanceType<typeof OpenAI.APIError>
    expect(failed).toBeInstanceOf(OpenAI.InternalServerError)
    expect(failed.status).toBe(500)
  })

  it('drops the connection (APIConnectionError) and sends malformed JSON (an error)', async () => {
    server.setBehaviour(() => ({ kind: 'drop' }))
    expect(await rejection(client.chat.completions.create(ask('d')))).toBeInstanceOf(OpenAI.APIConnectionError)
    server.setBehaviour(() => ({ kind: 'malformed' }))
    expect(await rejection(client.chat.completions.create(ask('m')))).toBeInstanceOf(Error)
    expect(server.requests.slice(-2).map((r) => [r.behaviour, r.completed])).toEqual([['drop', false], ['malformed', false]])
  })

  it('refuses an unknown model (404) and a wrong key (401)', async () => {
    const unknown = (await rejection(client.chat.completions.create({ ...ask('u'), model: 'gpt-x' }))) as InstanceType<typeof OpenAI.APIError>
    expect(unknown.status).toBe(404)
    expect(unknown.error).toMatchObject({ message: 'The model `gpt-x` does not exist', type: 'invalid_request_error', code: 'model_not_found' })
    const wrong = new OpenAI({ baseURL: server.url, apiKey: 'nope', maxRetries: 0 })
    expect(await rejection(wrong.chat.completions.create(ask('w')))).toBeInstanceOf(OpenAI.AuthenticationError)
    expect(await rejection(wrong.models.list())).toBeInstanceOf(OpenAI.AuthenticationError)
  })

  it('serves 16 concurrent delayed calls at once', async () => {
    server.setBehaviour(() => ({ kind: 'answer', delayMs: 150 }))
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => client.chat.completions.create(ask(`c${i}`))))
    expect(answers).toHaveLength(16)
    expect(server.maxInFlight).toBe(16)
    expect(server.inFlight).toBe(0)
  })

  it('finds repeated completed bodies, whatever the key order', async () => {
    const before = server.repeatedCompleted().length
    await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'once' }] })
    expect(server.repeatedCompleted()).toHaveLength(before)
    await client.chat.completions.create({ messages: [{ content: 'once', role: 'user' }], model: 'test-model' })
    const repeated = server.repeatedCompleted()
    expect(repeated).toHaveLength(before + 1)
    expect(repeated.at(-1)!.body.messages[0].content).toBe('once')
  })

  it('survives a client that aborts mid-call', async () => {
    server.setBehaviour(() => ({ kind: 'answer', delayMs: 2000 }))
    const abort = new AbortController()
    const call = rejection(client.chat.completions.create(ask('abort me'), { signal: abort.signal }))
    await waitUntil(() => server.inFlight === 1, 'the call to arrive', { timeoutMs: 2000 })
    abort.abort()
    expect(await call).toBeInstanceOf(OpenAI.APIUserAbortError)
    await waitUntil(() => server.inFlight === 0, 'the server to see the abort', { timeoutMs: 2000 })
    expect(server.requests.at(-1)).toMatchObject({ aborted: true, completed: false, status: null })
    server.setBehaviour(undefined)
    expect((await client.chat.completions.create(ask('after'))).choices[0].message.content).toMatch(/^B/)
  })

  it('lists the known models', async () => {
    const page = await client.models.list()
    expect(page.data.map((m) => [m.id, m.object])).toEqual([['test-model', 'model']])
  })
})

describe('chat server close', () => {
  it('closes hanging requests, which the client sees as a connection error', async () => {
    const server = await startChatServer({ behave: () => ({ kind: 'hang' }) })
    const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 })
    const call = rejection(client.chat.completions.create(ask('h')))
    await waitUntil(() => server.inFlight === 1, 'the hanging request to arrive', { timeoutMs: 2000 })
    await server.close()
    expect(await call).toBeInstanceOf(OpenAI.APIConnectionError)
    expect(server.requests[0]).toMatchObject({ behaviour: 'hang', aborted: true, completed: false, status: null })
    expect(server.inFlight).toBe(0)
  })
})
