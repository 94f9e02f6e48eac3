// The infer stage against a real chat-completions server on 127.0.0.1 (test/helpers/chat-server.ts):
// what each modality sends, the retry rules, budgets before spend, the cache, the run-wide limit on
// calls in flight, and the API key kept out of everything written.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Item, QaItem } from '../../src/core/items.ts'
import type { PredictionItem } from '../../src/models/model.ts'
import { createRunServices } from '../../src/run/run-services.ts'
import infer from '../../src/stages/infer.ts'
import { startChatServer, type Behaviour, type ChatServer } from '../helpers/chat-server.ts'
import { qaItem, writeInputs, type InputFiles } from '../helpers/qa-items.ts'
import { filesUnder, tmpDir } from '../helpers/tmp.ts'
import { testContext } from '../helpers/stage-context.ts'
import { rejection } from '../helpers/thrown.ts'
import { ffmpegTools } from '../helpers/ffprobe.ts'

const root = tmpDir('hp-infer-')
let server: ChatServer
let files: InputFiles
let runCount = 0

beforeAll(async () => {
  server = await startChatServer({ apiKey: 'sk-test-SECRET-123' })
  files = writeInputs(root, 'r1', { video: true })
})
afterAll(() => server.close())

const env = { HP_TEST_KEY: 'sk-test-SECRET-123' }

function model(over: Record<string, unknown> = {}) {
  return { name: 'm', kind: 'openai-compatible', baseURL: server.url, model: 'test-model', apiKeyEnv: 'HP_TEST_KEY', backoff: { minMs: 5, maxMs: 40 }, ...over }
}

interface Infer { predictions: PredictionItem[]; counts: Record<string, number>; warnings: { code: string }[] }

/** Runs infer over `items`, with the run's cache in `cacheDir` (a fresh one unless given). */
async function runInfer(models: unknown[], items: QaItem[], o: { cacheDir?: string; services?: ReturnType<typeof createRunServices>; recordId?: string } = {}): Promise<Infer> {
  const warnings: { code: string; message: string }[] = []
  const record = { id: o.recordId ?? 'r1', path: 'none', format: 'wfdb' as const, annotator: false as const, annotatorExplicit: false }
  const ctx = testContext(infer, { models }, record, warnings, new AbortController().signal, root)
  const counts: Record<string, number> = {}
  const run = o.services ?? createRunServices({ cacheDir: o.cacheDir ?? path.join(root, `cache-${++runCount}`), env })
  const out: Item[] = []
  async function* source() {
    yield* items
  }
  for await (const item of infer.transform(source(), { ...ctx, run, count: (k: string, n = 1) => (counts[k] = (counts[k] ?? 0) + n) })) out.push(item as Item)
  return { predictions: out.filter((i): i is PredictionItem => i.kind === 'prediction'), counts, warnings }
}

const since = (n: number) => server.requests.slice(n)
function behave(list: (Behaviour | undefined)[]) {
  let k = 0
  server.setBehaviour(() => list[k++])
}

describe('infer: what each modality sends', () => {
  it('text: the system prompt, a header saying how to read the values, the text, then the question', async () => {
    server.setBehaviour(undefined)
    const n = server.requests.length
    const item = qaItem('r1', 0, { text: files.text })
    const { predictions } = await runInfer([model()], [item])
    const [req] = since(n)
    expect(since(n)).toHaveLength(1)
    const [system, user] = req.body.messages
    expect(system.role).toBe('system')
    expect(system.content).toMatch(/letter/)
    expect(user.content).toContain('lead MLII, 100 samples per second, values in millivolts')
    expect(user.content).toContain(readFileSync(path.join(root, files.text.path), 'utf8').trim())
    expect(user.content.endsWith(item.question)).toBe(true)
    expect(req.body).toMatchObject({ model: 'test-model', temperature: 0, max_tokens: 512 })
    expect(predictions).toHaveLength(1)
    expect(predictions[0]).toMatchObject({ kind: 'prediction', id: `${item.id}@m`, qaId: item.id, model: 'm', modality: 'text', cached: false, attempts: 1 })
    expect(predictions[0].answer).toMatch(/^B[0-9a-f]{8}$/)
    expect(predictions[0].usage!.inputTokens).toBeGreaterThan(0)
  })

  it('images: every strip as an image part, in order', async () => {
    const n = server.requests.length
    await runInfer([model({ modality: 'images' })], [qaItem('r1', 0, { images: files.images })])
    const [req] = since(n)
    expect(req.parts.image).toBe(3)
    const urls = req.body.messages[1].content.filter((p: { type: string }) => p.type === 'image_url').map((p: { image_url: { url: string } }) => p.image_url.url)
    expect(urls).toEqual(files.images.paths.map((p) => `data:image/png;base64,${readFileSync(path.join(root, p)).toString('base64')}`))
  })

  it.skipIf(!ffmpegTools() && !process.env.CI)('video: the clip as a video_url part, or frames sampled from it as images', async () => {
    expect(files.video, 'ffmpeg made the test clip').toBeDefined()
    const item = qaItem('r1', 0, { video: files.video })
    const n = server.requests.length
    await runInfer([model({ modality: 'video', video: { send: 'video_url' } }), model({ name: 'f', modality: 'video', video: { send: 'frames', frames: 6 } })], [item])
    const [asClip, asFrames] = since(n)
    expect(asClip.parts).toMatchObject({ video: 1, image: 0 })
    expect(asClip.body.messages[1].content[1].video_url.url).toBe(`data:video/mp4;base64,${readFileSync(path.join(root, files.video!.path)).toString('base64')}`)
    expect(asFrames.parts).toMatchObject({ video: 0, image: 6 })
  })
})

describe('infer: retries', () => {
  const item = (k: number) => qaItem('r1', 100 + k, { text: files.text })

  it('429 waits for Retry-After in seconds, then answers', async () => {
    behave([{ kind: 'rate-limit', retryAfter: '1' }])
    const n = server.requests.length
    const { predictions, counts } = await runInfer([model()], [item(1)])
    const reqs = since(n)
    expect(reqs.map((r) => r.behaviour)).toEqual(['rate-limit', 'answer'])
    expect(reqs[1].receivedAt - reqs[0].receivedAt).toBeGreaterThanOrEqual(950)
    expect(predictions[0]).toMatchObject({ attempts: 2, cached: false })
    expect(predictions[0].error).toBeUndefined()
    expect(counts['model:retried']).toBe(1)
  })

  it('429 waits for Retry-After given as an HTTP date', async () => {
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000)
    behave([{ kind: 'rate-limit', retryAfter: at.toUTCString() }])
    const n = server.requests.length
    await runInfer([model()], [item(2)])
    const reqs = since(n)
    expect(reqs).toHaveLength(2)
    expect(reqs[1].receivedAt).toBeGreaterThanOrEqual(at.getTime() - 20)
  })

  it('5xx, dropped connections, malformed JSON and timeouts are tried again', async () => {
    behave([{ kind: 'status', status: 500 }, { kind: 'drop' }, { kind: 'malformed' }, { kind: 'hang' }, { kind: 'status', status: 503 }])
    const n = server.requests.length
    const { predictions } = await runInfer([model({ timeoutMs: 300 })], [item(3)])
    expect(since(n).map((r) => r.behaviour)).toEqual(['status 500', 'drop', 'malformed', 'hang', 'status 503', 'answer'])
    expect(predictions[0]).toMatchObject({ attempts: 6 })
    expect(predictions[0].error).toBeUndefined()
  })

  it('a timeout covers the whole answer: headers then silence is a timeout, tried again', async () => {
    behave([{ kind: 'stall' }])
    const n = server.requests.length
    const { predictions } = await runInfer([model({ timeoutMs: 300 })], [item(20)])
    expect(since(n).map((r) => r.behaviour)).toEqual(['stall', 'answer'])
    expect(predictions[0]).toMatchObject({ attempts: 2 })
    expect(predictions[0].error).toBeUndefined()
  })

  it('429 without Retry-After backs off (exponentially, with jitter) and answers', async () => {
    behave([{ kind: 'rate-limit' }, { kind: 'rate-limit' }])
    const n = server.requests.length
    const { predictions } = await runInfer([model({ backoff: { minMs: 100, maxMs: 1000 } })], [item(21)])
    const reqs = since(n)
    expect(reqs.map((r) => r.behaviour)).toEqual(['rate-limit', 'rate-limit', 'answer'])
    // Waits of 50-100 ms, then 100-200 ms (equal jitter on 100 and 200).
    expect(reqs[1].receivedAt - reqs[0].receivedAt).toBeGreaterThanOrEqual(45)
    expect(reqs[2].receivedAt - reqs[1].receivedAt).toBeGreaterThanOrEqual(95)
    expect(predictions[0]).toMatchObject({ attempts: 3 })
  })

  it('a Retry-After over backoff.maxRetryAfterMs fails the item at once, saying so', async () => {
    behave([{ kind: 'rate-limit', retryAfter: '3600' }])
    const n = server.requests.length
    const { predictions } = await runInfer([model()], [item(22)])
    expect(since(n)).toHaveLength(1)
    expect(predictions[0]).toMatchObject({ attempts: 1, error: { code: 'http-429' } })
    expect(predictions[0].error!.message).toMatch(/asked to wait longer than backoff.maxRetryAfterMs, 600000 ms/)
  })

  it('a refused key, an unknown model or no credit fails the record (every item would fail alike), without retries', async () => {
    for (const [b, status] of [[{ kind: 'status', status: 401 }, 401], [{ kind: 'status', status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota' }, 429]] as const) {
      behave([b as Behaviour])
      const n = server.requests.length
      const err = await rejection(runInfer([model({ concurrency: 1 })], [item(23), item(24), item(25)]))
      expect(err).toMatchObject({ code: 'E_MODEL_CALL', context: { status } })
      // The model stops for the run: the items waiting for its slot send nothing.
      expect(since(n)).toHaveLength(1)
    }
    server.setBehaviour(undefined)
  })

  it('a key the server quotes in its error message is never written', async () => {
    behave([{ kind: 'status', status: 400, message: 'Bad request from Bearer sk-test-SECRET-123 (key sk-test-SECRET-123)' }])
    const { predictions } = await runInfer([model()], [item(25)])
    expect(predictions[0].error!.message).toBe('400 Bad request from Bearer [secret HP_TEST_KEY] (key [secret HP_TEST_KEY])')
    behave([{ kind: 'status', status: 401, message: 'Incorrect API key provided: sk-test-SECRET-123' }])
    const err = await rejection(runInfer([model()], [item(26)]))
    expect(String(err)).not.toContain('SECRET')
    expect(String(err)).toContain('[secret HP_TEST_KEY]')
  })

  it('an answer without text is stored like any answer: a second run asks nothing', async () => {
    behave([{ kind: 'no-content' }])
    const cacheDir = path.join(root, 'empty-cache')
    const n = server.requests.length
    await runInfer([model()], [item(27)], { cacheDir })
    const { predictions } = await runInfer([model()], [item(27)], { cacheDir })
    expect(since(n)).toHaveLength(1)
    expect(predictions[0]).toMatchObject({ cached: true, error: { code: 'empty' } })
  })

  it('other 4xx are not tried again: the item gets the error and the run goes on', async () => {
    behave([{ kind: 'status', status: 400, message: 'bad request' }])
    const n = server.requests.length
    const { predictions, counts } = await runInfer([model({ concurrency: 1 })], [item(4), item(5)])
    expect(since(n).map((r) => r.behaviour)).toEqual(['status 400', 'answer'])
    expect(predictions[0]).toMatchObject({ answer: '', attempts: 1, error: { code: 'http-400', status: 400 } })
    expect(predictions[1].error).toBeUndefined()
    expect(counts['model:failed']).toBe(1)
  })

  it('an answer without text is not asked again (it would come back the same), and says why', async () => {
    behave([{ kind: 'no-content' }])
    const n = server.requests.length
    const { predictions } = await runInfer([model()], [item(8)])
    expect(since(n)).toHaveLength(1)
    expect(predictions[0]).toMatchObject({ attempts: 1, error: { code: 'empty' } })
    expect(predictions[0].error!.message).toMatch(/finish_reason length: raise maxTokens/)
  })

  it('after the last attempt the item gets the error; with onError: record the record fails', async () => {
    server.setBehaviour(() => ({ kind: 'status', status: 502 }))
    const n = server.requests.length
    const { predictions } = await runInfer([model({ retries: 2 })], [item(6)])
    expect(since(n)).toHaveLength(3)
    expect(predictions[0]).toMatchObject({ attempts: 3, error: { code: 'http-502' } })
    const err = await rejection(runInfer([model({ retries: 1, onError: 'record' })], [item(7)]))
    expect(err).toMatchObject({ code: 'E_MODEL_CALL' })
    expect(String(err)).toMatch(/onError is record/)
    server.setBehaviour(undefined)
  })
})

describe('infer: budgets before spend', () => {
  const big = () => qaItem('r1', 200, { text: files.text, images: files.images })

  it('skip: a prediction with over-budget and the numbers, and no request', async () => {
    const n = server.requests.length
    const { predictions, counts } = await runInfer([model({ limits: { contextTokens: 1000 } }), model({ name: 'i', modality: 'images', limits: { maxImages: 2 }, overBudget: 'downsample' })], [big()])
    expect(since(n)).toHaveLength(0)
    expect(predictions[0]).toMatchObject({ error: { code: 'over-budget' }, budget: { policy: 'skip', over: [{ limit: 'contextTokens', max: 1000 }] } })
    expect(predictions[0].budget!.over[0].size).toBeGreaterThan(files.text.tokens)
    // Strips are never dropped: downsample cannot help images, and says so.
    expect(predictions[1]).toMatchObject({ error: { code: 'over-budget' }, budget: { policy: 'downsample', over: [{ limit: 'maxImages', size: 3, max: 2 }] } })
    expect(predictions[1].budget!.action).toMatch(/cannot be downsampled/)
    expect(counts['model:over-budget']).toBe(2)
  })

  it('downsample: the text at a lower rate, said in the prediction', async () => {
    const n = server.requests.length
    const limit = Math.round(files.text.tokens / 2) + 700
    const { predictions } = await runInfer([model({ limits: { contextTokens: limit }, overBudget: 'downsample' })], [big()])
    const [req] = since(n)
    expect(req.body.messages[1].content).toMatch(/MLII 00:00:10\.000 (50|\d{2})Hz: /)
    expect(predictions[0].budget).toMatchObject({ policy: 'downsample', over: [{ limit: 'contextTokens' }] })
    expect(predictions[0].budget!.action).toMatch(/text resampled from 100 Hz to \d+ Hz/)
    expect(predictions[0].error).toBeUndefined()
  })

  it('downsample that cannot fit (the text at 10 Hz is still too long) skips the item and says so', async () => {
    const n = server.requests.length
    const { predictions } = await runInfer([model({ limits: { contextTokens: 800 }, overBudget: 'downsample' })], [big()])
    expect(since(n)).toHaveLength(0)
    expect(predictions[0]).toMatchObject({ error: { code: 'over-budget' }, budget: { policy: 'downsample' } })
    expect(predictions[0].budget!.action).toMatch(/does not fit \d+ tokens even at the lowest rate/)
  })

  it.skipIf(!ffmpegTools() && !process.env.CI)('downsample of a clip sent whole: frames sampled from it, as many as maxFrames allows', async () => {
    const n = server.requests.length
    const { predictions } = await runInfer([model({ modality: 'video', video: { send: 'video_url' }, limits: { maxFrames: 12 }, overBudget: 'downsample' })], [qaItem('r1', 201, { video: files.video })])
    expect(since(n)[0].parts).toMatchObject({ video: 0, image: 12 })
    expect(predictions[0].budget).toMatchObject({ policy: 'downsample', over: [{ limit: 'maxFrames', size: 20, max: 12 }] })
    expect(predictions[0].budget!.action).toBe('12 frames sampled from the clip sent as images instead of its 20 frames')
  })

  it('fail: an item over budget fails the record before its turn, with no call for the items after it', async () => {
    server.setBehaviour(() => ({ kind: 'answer', delayMs: 30 }))
    const n = server.requests.length
    const small = (k: number) => qaItem('r1', 250 + k, { text: { ...files.text, tokens: 10 } })
    const items = [small(0), small(1), big(), ...Array.from({ length: 30 }, (_, k) => small(10 + k))]
    const err = await rejection(runInfer([model({ limits: { contextTokens: 2000 }, overBudget: 'fail', concurrency: 2 })], items))
    expect(err).toMatchObject({ code: 'E_MODEL_BUDGET' })
    expect(since(n).length).toBeLessThanOrEqual(2)
    server.setBehaviour(undefined)
  })

  it('fail: the record fails before any call, naming the item and the numbers', async () => {
    const n = server.requests.length
    const err = await rejection(runInfer([model({ limits: { maxBytes: 100 }, overBudget: 'fail' })], [big()]))
    expect(err).toMatchObject({ code: 'E_MODEL_BUDGET' })
    expect(String(err)).toMatch(/maxBytes \d+ > 100/)
    expect(since(n)).toHaveLength(0)
  })
})

describe('infer: cache, concurrency and secrets', () => {
  it('a second run with the same cache sends nothing and marks the answers cached', async () => {
    const cacheDir = path.join(root, 'shared-cache')
    const items = [0, 1, 2].map((k) => qaItem('r1', 300 + k, { text: files.text }))
    const n = server.requests.length
    const first = await runInfer([model()], items, { cacheDir })
    expect(since(n)).toHaveLength(3)
    const second = await runInfer([model({ name: 'renamed', concurrency: 9 })], items, { cacheDir })
    expect(since(n)).toHaveLength(3)
    expect(second.predictions.map((p) => [p.cached, p.answer])).toEqual(first.predictions.map((p) => [true, p.answer]))
    expect(second.counts['model:cached']).toBe(3)
    // Another temperature is another request.
    await runInfer([model({ temperature: 0.5 })], items.slice(0, 1), { cacheDir })
    expect(since(n)).toHaveLength(4)
  })

  it('calls in flight stay within the model\'s concurrency across records, predictions in item order', async () => {
    server.setBehaviour(() => ({ kind: 'answer', delayMs: 40 }))
    const before = server.maxInFlight
    const services = createRunServices({ cacheDir: path.join(root, 'conc-cache'), env })
    const items = (r: string) => Array.from({ length: 12 }, (_, k) => qaItem(r, 400 + k, { text: files.text }))
    const [a, b] = await Promise.all(['r1', 'r1'].map((r, j) => runInfer([model({ concurrency: 3 })], items(r).map((q) => ({ ...q, id: `${q.id}/${j}`, question: `${q.question} (${j})` })), { services })))
    // Earlier tests had at most 2 calls at once; 24 calls of two records share the limit of 3.
    expect(before).toBeLessThan(3)
    expect(server.maxInFlight).toBe(3)
    expect(a.predictions.map((p) => p.qaId)).toEqual(items('r1').map((q) => `${q.id}/0`))
    expect(b.predictions.map((p) => p.qaId)).toEqual(items('r1').map((q) => `${q.id}/1`))
    server.setBehaviour(undefined)
  })

  it('watermarks wait behind the predictions before them, without holding back the calls after them', async () => {
    // Requests on the wire when each arrives: 4 at the last, if no watermark held a call back.
    const onWire: number[] = []
    server.setBehaviour(() => {
      onWire.push(server.inFlight)
      return { kind: 'answer', delayMs: 300 }
    })
    const items = [0, 1, 2, 3].map((k) => qaItem('r1', 900 + k, { text: files.text }))
    const stream: Item[] = items.flatMap((q) => [q, { kind: 'watermark', recordId: 'r1', sample: q.endSample } as Item])
    const warnings: { code: string; message: string }[] = []
    const record = { id: 'r1', path: 'none', format: 'wfdb' as const, annotator: false as const, annotatorExplicit: false }
    const ctx = testContext(infer, { models: [model({ concurrency: 4 })] }, record, warnings, new AbortController().signal, root)
    const out: Item[] = []
    async function* source() {
      yield* stream
    }
    for await (const item of infer.transform(source(), { ...ctx, run: createRunServices({ cacheDir: path.join(root, 'wm-cache'), env }) })) out.push(item as Item)
    const order = out.map((i) => (i.kind === 'watermark' ? `w${i.sample}` : i.kind === 'prediction' ? `p${i.endSample}` : `q${(i as QaItem).endSample}`))
    for (const q of items) expect(order.indexOf(`p${q.endSample}`)).toBeLessThan(order.indexOf(`w${q.endSample}`))
    expect(onWire).toEqual([1, 2, 3, 4])
    server.setBehaviour(undefined)
  })

  it('an identical request already on the wire is waited for, not paid twice (two names for one model)', async () => {
    server.setBehaviour(() => ({ kind: 'answer', delayMs: 60 }))
    const n = server.requests.length
    const items = [0, 1, 2].map((k) => qaItem('r1', 350 + k, { text: files.text }))
    const { predictions } = await runInfer([model(), model({ name: 'alias' })], items)
    expect(since(n)).toHaveLength(3)
    expect(server.repeatedCompleted()).toEqual([])
    for (let k = 0; k < 3; k++) {
      const [a, b] = predictions.slice(2 * k, 2 * k + 2)
      expect([a.model, b.model, b.answer, a.cached || b.cached, a.cached && b.cached]).toEqual(['m', 'alias', a.answer, true, false])
    }
    server.setBehaviour(undefined)
  })

  it('the API key is sent to the server and written nowhere', async () => {
    const n = server.requests.length
    const cacheDir = path.join(root, 'key-cache')
    const { predictions } = await runInfer([model()], [qaItem('r1', 500, { text: files.text })], { cacheDir })
    expect(since(n)[0].headers.authorization).toBe('Bearer sk-test-SECRET-123')
    expect(JSON.stringify(predictions)).not.toContain('SECRET')
    for (const f of filesUnder(cacheDir)) expect(readFileSync(path.join(cacheDir, f), 'utf8')).not.toContain('SECRET')
  })

  it('an item without an input in the model\'s modality gets error no-input, unsent, and the record a warning', async () => {
    const n = server.requests.length
    const { predictions, warnings, counts } = await runInfer([model({ modality: 'images' })], [qaItem('r1', 700, { text: files.text }), qaItem('r1', 701, { images: files.images })])
    expect(since(n)).toHaveLength(1)
    expect(predictions[0]).toMatchObject({ error: { code: 'no-input' }, attempts: 0 })
    expect(predictions[1].error).toBeUndefined()
    expect(counts['model:no-input']).toBe(1)
    expect(warnings.map((w) => w.code)).toEqual(['W_MODEL_NO_INPUT'])
  })

  it('a model answers only the items its `only` filter takes', async () => {
    const n = server.requests.length
    const items = [qaItem('r1', 800, { text: files.text }), qaItem('r1', 801, { text: files.text }, { split: 'train' }), qaItem('r1', 802, { text: files.text }, { taskType: 'closed_presence' })]
    const { predictions } = await runInfer([model({ only: { splits: ['test'], tasks: ['closed_event_counting'] } }), { name: 'rnd', kind: 'random' }], items)
    expect(since(n)).toHaveLength(1)
    expect(predictions.map((p) => p.id)).toEqual([`${items[0].id}@m`, `${items[0].id}@rnd`, `${items[1].id}@rnd`, `${items[2].id}@rnd`])
  })

  it('a missing key variable fails the record with how to set it', async () => {
    const err = await rejection(runInfer([model({ apiKeyEnv: 'HP_NOT_SET_ANYWHERE' })], [qaItem('r1', 600, { text: files.text })]))
    expect(err).toMatchObject({ code: 'E_SECRET_MISSING' })
    expect(String(err)).toMatch(/export HP_NOT_SET_ANYWHERE=/)
  })
})
