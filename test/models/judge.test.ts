// The ScoreGPT judge against a real chat-completions server on 127.0.0.1 (test/helpers/chat-server.ts):
// scores from the reply, the cache (a rerun never pays twice), retries, per-item errors that never
// throw, empty inputs answered without a call, and aborts that do propagate.
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContentCache } from '../../src/core/services.ts'
import { judgeMessages, judgePromptHash } from '../../src/metrics/judge-prompt.ts'
import { createJudge, judgeSignatureFor, type JudgeResult, type JudgeServices } from '../../src/models/judge.ts'
import { apiModelSchema } from '../../src/models/model-config.ts'
import { createContentCache } from '../../src/run/content-cache.ts'
import { createLimiter } from '../../src/run/limiter.ts'
import { readSecret } from '../../src/run/secrets.ts'
import { startChatServer, type Behaviour, type ChatServer } from '../helpers/chat-server.ts'
import { rejection, pipelineRejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const root = tmpDir('hp-judge-')
let server: ChatServer
let caches = 0

// The judge's answer, derived from the request: for each key asked, (candidate length + 3 * key) % 101.
function scoresFor(candidate: string, keys: string[]): Record<string, number> {
  return Object.fromEntries(keys.map((k) => [k, (candidate.length + 3 * Number(k)) % 101]))
}
function answer(body: any): string {
  const user: string = body.messages[1].content
  const keys = JSON.parse(/^Keys: (.*)$/m.exec(user)![1]) as string[]
  const candidate = /<candidate>\n([\s\S]*)\n<\/candidate>/.exec(user)![1]
  return JSON.stringify(scoresFor(candidate, keys))
}
const meanOf = (s: Record<string, number>) => Object.values(s).reduce((a, b) => a + b, 0) / Object.keys(s).length

beforeAll(async () => {
  server = await startChatServer({ answer })
})
afterAll(() => server.close())

function model(over: Record<string, unknown> = {}) {
  return apiModelSchema.parse({ name: 'judge', kind: 'openai-compatible', baseURL: server.url, model: 'test-model', backoff: { minMs: 5, maxMs: 20 }, ...over })
}
function services(over: Partial<JudgeServices> = {}): JudgeServices & { counts: Record<string, number> } {
  const counts: Record<string, number> = {}
  return { cache: freshCache(), limiter: createLimiter({ concurrency: 2 }), secret: null, signal: new AbortController().signal, count: (k, n = 1) => void (counts[k] = (counts[k] ?? 0) + n), counts, ...over }
}
const freshCache = (): ContentCache => createContentCache(path.join(root, `cache-${++caches}`), 'judge')
const since = (n: number) => server.requests.slice(n)
function behave(list: (Behaviour | undefined)[]) {
  let k = 0
  server.setBehaviour(() => list[k++])
}

const REF = 'Recording duration 24 hours. Total beats 106,055; mean heart rate 74 bpm; maximum 133 bpm, minimum 50 bpm. Sinus rhythm. Ventricular premature beats: 4,812.'
const CAND = 'Over 24 hours, 106,055 beats at a mean of 74 bpm; fastest 133 bpm, slowest 50 bpm. Sinus rhythm with 4,812 ventricular premature beats.'
const FULL = 'report_general_summary'
const OVERVIEW = 'report_statistical_overview'
const ALL = Array.from({ length: 17 }, (_, i) => String(i + 1))

function scored(r: JudgeResult) {
  if ('error' in r) throw new Error(`expected scores, got error ${r.error.code}: ${r.error.message}`)
  return r
}
function failed(r: JudgeResult) {
  if (!('error' in r)) throw new Error(`expected an error, got scores ${JSON.stringify(r.scores)}`)
  return r
}

describe('judge: scores', () => {
  it('sends the prompt once and returns the scores and their mean', async () => {
    server.setBehaviour(undefined)
    const n = server.requests.length
    const s = services()
    const r = scored(await createJudge(model(), s)({ taskType: FULL, candidate: CAND, reference: REF }))
    const expected = scoresFor(CAND, ALL)
    expect(r).toMatchObject({ scores: expected, mean: meanOf(expected), cached: false })
    expect(r.requestKey).toMatch(/^[0-9a-f]{64}$/)
    expect(r.usage!.inputTokens).toBeGreaterThan(0)
    expect(since(n)).toHaveLength(1)
    const { body } = since(n)[0]
    expect(body.messages).toEqual(judgeMessages(FULL, CAND, REF))
    expect(body).toMatchObject({ model: 'test-model', temperature: 0, max_tokens: 512 })
    expect(s.counts).toMatchObject({ 'judge:calls': 1 })
  })

  it('the statistical overview is scored on its subset', async () => {
    server.setBehaviour(undefined)
    const r = scored(await createJudge(model(), services())({ taskType: OVERVIEW, candidate: CAND, reference: REF }))
    const keys = ['1', '2', '3', '10', '11', '15', '16']
    expect(Object.keys(r.scores)).toEqual(keys)
    expect(r.mean).toBeCloseTo(meanOf(scoresFor(CAND, keys)), 12)
  })

  it('the signature names the judge model, temperature and prompt hash, never the baseURL', () => {
    const sig = judgeSignatureFor(model({ temperature: 0.3 }), OVERVIEW)
    expect(sig).toContain('judge:test-model|temp:0.3|')
    expect(sig).toContain(`#${judgePromptHash().slice(0, 16)}|criteria:1,2,3,10,11,15,16|`)
    expect(sig).not.toContain('127.0.0.1')
  })
})

describe('judge: cache', () => {
  it('the same inputs again are answered from the cache: no request, by this judge or a new one on the same cache', async () => {
    server.setBehaviour(undefined)
    const s = services()
    const judge = createJudge(model(), s)
    const first = scored(await judge({ taskType: FULL, candidate: CAND, reference: REF }))
    const n = server.requests.length
    const again = scored(await judge({ taskType: FULL, candidate: CAND, reference: REF }))
    const rerun = scored(await createJudge(model({ name: 'renamed', concurrency: 8 }), { ...services(), cache: s.cache })({ taskType: FULL, candidate: CAND, reference: REF }))
    expect(since(n)).toHaveLength(0)
    for (const r of [again, rerun]) expect(r).toMatchObject({ scores: first.scores, mean: first.mean, cached: true, requestKey: first.requestKey })
    expect(s.counts['judge:cached']).toBe(1)
  })

  it('another candidate, reference, task or temperature is another request', async () => {
    server.setBehaviour(undefined)
    const s = services()
    await createJudge(model(), s)({ taskType: FULL, candidate: CAND, reference: REF })
    const n = server.requests.length
    const judge = createJudge(model(), s)
    await judge({ taskType: FULL, candidate: `${CAND} `, reference: REF })
    await judge({ taskType: FULL, candidate: CAND, reference: `${REF} ` })
    await judge({ taskType: OVERVIEW, candidate: CAND, reference: REF })
    await createJudge(model({ temperature: 0.5 }), s)({ taskType: FULL, candidate: CAND, reference: REF })
    expect(since(n)).toHaveLength(4)
  })

  it('identical requests at once are sent once', async () => {
    server.setBehaviour(() => ({ kind: 'answer', delayMs: 30 }))
    const n = server.requests.length
    const judge = createJudge(model(), services())
    const rs = await Promise.all([1, 2, 3].map(() => judge({ taskType: FULL, candidate: CAND, reference: REF })))
    expect(since(n)).toHaveLength(1)
    expect(rs.map((r) => scored(r).cached)).toEqual([false, true, true])
    expect(new Set(rs.map((r) => scored(r).mean)).size).toBe(1)
  })
})

describe('judge: failures are per item', () => {
  it('a 500 then an answer is retried and scored', async () => {
    behave([{ kind: 'status', status: 500 }])
    const n = server.requests.length
    const s = services()
    const r = scored(await createJudge(model(), s)({ taskType: FULL, candidate: CAND, reference: REF }))
    expect(since(n).map((q) => q.behaviour)).toEqual(['status 500', 'answer'])
    expect(r.scores).toEqual(scoresFor(CAND, ALL))
    expect(s.counts).toMatchObject({ 'judge:retried': 1, 'judge:calls': 1 })
  })

  it('a reply that is not the JSON asked for is an invalid-reply error, not a throw, and is not paid for again', async () => {
    server.setBehaviour(() => ({ kind: 'answer', text: 'A good report overall; I would give it 85.' }))
    const s = services()
    const judge = createJudge(model(), s)
    const n = server.requests.length
    const r = failed(await judge({ taskType: FULL, candidate: CAND, reference: REF }))
    expect(r).toMatchObject({ cached: false, error: { code: 'invalid-reply' } })
    expect(r.error.message).toMatch(/not a JSON object of scores \(found "A good report overall/)
    const again = failed(await judge({ taskType: FULL, candidate: CAND, reference: REF }))
    expect(again).toMatchObject({ cached: true, error: { code: 'invalid-reply' } })
    expect(again.error.message).toMatch(/\(cached: a rerun reuses it/)
    expect(since(n)).toHaveLength(1)
    expect(s.counts['judge:invalid']).toBe(2)
  })

  it('a reply with a key missing, or out of range, is an invalid-reply error', async () => {
    const judge = createJudge(model(), services())
    server.setBehaviour(() => ({ kind: 'answer', text: JSON.stringify({ ...scoresFor('x', ALL), '12': undefined }) }))
    expect(failed(await judge({ taskType: FULL, candidate: 'a', reference: REF })).error.message).toMatch(/missing 12/)
    server.setBehaviour(() => ({ kind: 'answer', text: JSON.stringify({ ...scoresFor('x', ALL), '12': 120 }) }))
    expect(failed(await judge({ taskType: FULL, candidate: 'b', reference: REF })).error.message).toMatch(/criterion 12 is out of range: 120/)
  })

  it('a body that is not JSON, after the retries, is a per-item error', async () => {
    server.setBehaviour(() => ({ kind: 'malformed' }))
    const n = server.requests.length
    const r = failed(await createJudge(model({ retries: 1 }), services())({ taskType: FULL, candidate: CAND, reference: REF }))
    expect(since(n)).toHaveLength(2)
    expect(r.error.code).toBe('malformed')
    expect(r.error.message).toMatch(/judge "judge" failed after 2 attempt\(s\)/)
    expect(r.cached).toBe(false)
  })

  it('a 400 is not retried: http-400 for the item', async () => {
    server.setBehaviour(() => ({ kind: 'status', status: 400, message: 'bad request body' }))
    const n = server.requests.length
    const r = failed(await createJudge(model(), services())({ taskType: FULL, candidate: CAND, reference: REF }))
    expect(since(n)).toHaveLength(1)
    expect(r.error).toMatchObject({ code: 'http-400', status: 400 })
    expect(r.error.message).toContain('bad request body')
  })

  it('an answer without text is an empty error, stored, so not asked again', async () => {
    server.setBehaviour(() => ({ kind: 'no-content' }))
    const judge = createJudge(model(), services())
    const n = server.requests.length
    expect(failed(await judge({ taskType: FULL, candidate: CAND, reference: REF })).error).toMatchObject({ code: 'empty', message: expect.stringContaining('finish_reason length') })
    expect(failed(await judge({ taskType: FULL, candidate: CAND, reference: REF }))).toMatchObject({ cached: true, error: { code: 'empty' } })
    expect(since(n)).toHaveLength(1)
  })

  it('a refused key stops the judge for the run: later items get the same error without a request', async () => {
    const keyed = await startChatServer({ apiKey: 'sk-right', answer })
    try {
      const secret = readSecret('HP_JUDGE_KEY', { HP_JUDGE_KEY: 'sk-wrong' })
      const judge = createJudge(model({ baseURL: keyed.url, apiKeyEnv: 'HP_JUDGE_KEY' }), services({ secret }))
      const first = failed(await judge({ taskType: FULL, candidate: 'one', reference: REF }))
      const second = failed(await judge({ taskType: FULL, candidate: 'two', reference: REF }))
      expect(keyed.requests).toHaveLength(1)
      expect(first.error).toMatchObject({ code: 'http-401', status: 401 })
      expect(first.error.message).toMatch(/stopped for the run: .*fix the key \(HP_JUDGE_KEY\)/)
      expect(first.error.message).not.toContain('sk-wrong')
      expect(second.error).toEqual(first.error)
    } finally {
      await keyed.close()
    }
  })

  it('the right key is sent and scored', async () => {
    const keyed = await startChatServer({ apiKey: 'sk-right', answer })
    try {
      const secret = readSecret('HP_JUDGE_KEY', { HP_JUDGE_KEY: 'sk-right' })
      const r = await createJudge(model({ baseURL: keyed.url, apiKeyEnv: 'HP_JUDGE_KEY' }), services({ secret }))({ taskType: FULL, candidate: CAND, reference: REF })
      expect(scored(r).scores).toEqual(scoresFor(CAND, ALL))
    } finally {
      await keyed.close()
    }
  })
})

describe('judge: inputs answered without a call', () => {
  it('an empty candidate scores 0 on every criterion, flagged empty', async () => {
    const n = server.requests.length
    const s = services()
    const judge = createJudge(model(), s)
    expect(await judge({ taskType: FULL, candidate: '  \n', reference: REF })).toEqual({ scores: Object.fromEntries(ALL.map((k) => [k, 0])), mean: 0, cached: false, empty: true })
    expect(scored(await judge({ taskType: OVERVIEW, candidate: '', reference: REF })).scores).toEqual({ '1': 0, '2': 0, '3': 0, '10': 0, '11': 0, '15': 0, '16': 0 })
    expect(since(n)).toHaveLength(0)
    expect(s.counts['judge:empty']).toBe(2)
  })

  it('an empty reference is a no-reference error', async () => {
    const n = server.requests.length
    const r = failed(await createJudge(model(), services())({ taskType: FULL, candidate: CAND, reference: ' ' }))
    expect(r.error.code).toBe('no-reference')
    expect(since(n)).toHaveLength(0)
  })

  it('a task the judge does not score is the caller\'s error (E_USAGE)', async () => {
    const err = await pipelineRejection(createJudge(model(), services())({ taskType: 'open_diagnosis', candidate: CAND, reference: REF }))
    expect(err.code).toBe('E_USAGE')
  })
})

describe('judge: aborts propagate', () => {
  it('an aborted signal rejects with its reason, sending nothing', async () => {
    const ac = new AbortController()
    const reason = new Error('stopped by the test')
    ac.abort(reason)
    const n = server.requests.length
    expect(await rejection(createJudge(model(), services({ signal: ac.signal }))({ taskType: FULL, candidate: CAND, reference: REF }))).toBe(reason)
    expect(since(n)).toHaveLength(0)
  })

  it('an abort while the call is on the wire rejects with its reason (after the grace for an answer)', async () => {
    const ac = new AbortController()
    const reason = new Error('stopped mid-call')
    server.setBehaviour(() => {
      setImmediate(() => ac.abort(reason))
      return { kind: 'hang' }
    })
    const n = server.requests.length
    const s = services({ signal: ac.signal })
    const err = await rejection(createJudge(model({ timeoutMs: 300 }), s)({ taskType: FULL, candidate: `${CAND} (abort)`, reference: REF }))
    expect(err).toBe(reason)
    expect(since(n)).toHaveLength(1)
    expect(s.counts['judge:failed']).toBeUndefined()
  })

  it('an abort during a retry wait rejects too', async () => {
    const ac = new AbortController()
    const reason = new Error('stopped in backoff')
    server.setBehaviour(() => {
      setTimeout(() => ac.abort(reason), 20)
      return { kind: 'status', status: 503 }
    })
    const err = await rejection(createJudge(model({ backoff: { minMs: 5000, maxMs: 5000 } }), services({ signal: ac.signal }))({ taskType: FULL, candidate: `${CAND} (backoff)`, reference: REF }))
    expect(err).toBe(reason)
  })
})
