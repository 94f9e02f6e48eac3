// A real OpenAI-compatible chat-completions server on 127.0.0.1 for the tests of the infer stage
// and of `pipeline run` children (which may be SIGKILLed mid-call): it validates bodies like the
// real API, records every chat request, and answers each as the test's `behave` says (an answer,
// 429 with Retry-After, another status, a dropped socket, a body that is not JSON, no answer).
// `completed` means the server finished sending a full 200 chat.completion (handed to the OS), so
// a request that repeats a completed body (repeatedCompleted) is a paid call made again. A client
// killed after that point but before it saved the answer may legitimately repeat it.
// Errors keep OpenAI's shape ({error: {message, type, param, code}}) so the SDK maps them.
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

export interface RecordedRequest {
  /** 1-based arrival number among chat requests. */
  id: number
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  /** Parsed JSON, or null when the body was not JSON. */
  body: any
  raw: string
  receivedAt: number
  /** The server finished sending a full 200 chat.completion for it. */
  completed: boolean
  /** `answer`, `rate-limit`, `status <n>`, `drop`, `malformed`, `hang`, or a rejection: `unauthorized`, `invalid`, `unknown-model`, `too-large`, `client-aborted`. */
  behaviour: string
  /** Content parts by type (a string content counts as one text part). */
  parts: { text: number; image: number; video: number }
  /** sha256 of the body's canonical JSON (keys sorted); null when the body was not JSON. */
  bodyHash: string | null
  /** The status sent; null while pending, or when dropped or never answered. */
  status: number | null
  /** The connection closed before the response was fully sent (client abort, drop, server close). */
  aborted: boolean
}

export type Behaviour =
  | { kind: 'answer'; text?: string; delayMs?: number; usage?: { prompt_tokens: number; completion_tokens: number } }
  /** A 200 whose message has no text (content null, finish_reason length): a reasoning model out of tokens. */
  | { kind: 'no-content'; delayMs?: number }
  | { kind: 'rate-limit'; retryAfter?: string; delayMs?: number }
  | { kind: 'status'; status: number; message?: string; code?: string; delayMs?: number }
  /** 200 headers and the start of a body, then nothing (a client's timeout must cover the body). */
  | { kind: 'stall'; delayMs?: number }
  | { kind: 'drop'; delayMs?: number }
  | { kind: 'malformed'; delayMs?: number }
  | { kind: 'hang' }

export interface ChatServerOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string
  /** Model names the server knows (default ['test-model']); another model gets 404 model_not_found. */
  models?: string[]
  /** Decides a valid chat request's behaviour (n: 1-based count of requests that got this far); undefined: the default answer. */
  behave?: (req: RecordedRequest, n: number) => Behaviour | undefined
  /** Default answer text from the body (default: `B` and 8 hex digits of the body's hash). */
  answer?: (body: any) => string
  /** Delay of every default answer in ms (default 0). */
  delayMs?: number
}

export interface ChatServer {
  /** `http://127.0.0.1:<port>/v1`. */
  url: string
  /** Chat-completions requests in arrival order. */
  requests: RecordedRequest[]
  readonly inFlight: number
  readonly maxInFlight: number
  /** Requests whose body equals an earlier completed request's body: repeated paid calls. */
  repeatedCompleted(): RecordedRequest[]
  setBehaviour(fn: ChatServerOptions['behave']): void
  /** Stops listening and destroys every connection, hanging and keep-alive ones included. */
  close(): Promise<void>
}

const MAX_BODY = 64 << 20
const ROLES = ['system', 'user', 'assistant']
const IMAGE_DATA = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/
const VIDEO_DATA = /^data:video\/mp4;base64,[A-Za-z0-9+/]+=*$/
const HTTP_URL = /^https?:\/\/\S+$/
const BAD_KEY = 'Incorrect API key provided. The test server expects the apiKey it was started with.'

class Invalid extends Error {
  constructor(readonly param: string | null, message: string) {
    super(message)
  }
}

/** Starts the server on 127.0.0.1 (a free port); close it in afterAll/afterEach. */
export async function startChatServer(o: ChatServerOptions = {}): Promise<ChatServer> {
  const models = o.models ?? ['test-model']
  const requests: RecordedRequest[] = []
  let behave = o.behave
  let inFlight = 0
  let maxInFlight = 0
  let valid = 0
  // Responses not yet closed: close() waits for them, as their 'close' events come after the server's.
  let open = 0
  let allClosed: (() => void) | null = null
  const server = createServer((req, res) => {
    open++
    res.once('close', () => --open === 0 && allClosed?.())
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy()
      sendError(res, 500, `chat-server bug: ${(err as Error).message}`, 'server_error', null, null)
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    const authorized = !o.apiKey || req.headers.authorization === `Bearer ${o.apiKey}`
    if (req.method === 'GET' && path === '/v1/models') {
      if (!authorized) return sendError(res, 401, BAD_KEY, 'invalid_request_error', null, 'invalid_api_key')
      const data = models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'chat-server' }))
      return sendJson(res, 200, { object: 'list', data })
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return sendError(res, 404, `Invalid URL (${req.method} ${path})`, 'invalid_request_error', null, null)

    const rec: RecordedRequest = { id: requests.length + 1, method: req.method, path, headers: { ...req.headers }, body: null, raw: '', receivedAt: Date.now(), completed: false, behaviour: 'pending', parts: { text: 0, image: 0, video: 0 }, bodyHash: null, status: null, aborted: false }
    requests.push(rec)
    maxInFlight = Math.max(maxInFlight, ++inFlight)
    const closed = new AbortController()
    res.on('finish', () => (rec.completed = rec.status === 200 && rec.behaviour === 'answer'))
    res.on('close', () => {
      inFlight--
      rec.aborted = !res.writableFinished
      closed.abort()
    })
    const reject = (why: string, status: number, message: string, param: string | null, code: string | null) => {
      rec.behaviour = why
      rec.status = status
      sendError(res, status, message, 'invalid_request_error', param, code)
    }

    const raw = await readBody(req, closed.signal)
    if (raw === null && closed.signal.aborted) return void (rec.behaviour = 'client-aborted')
    if (raw === null) return reject('too-large', 413, `The request body is over ${MAX_BODY} bytes; send smaller inputs.`, null, null)
    rec.raw = raw
    if (!authorized) return reject('unauthorized', 401, BAD_KEY, null, 'invalid_api_key')
    try {
      rec.body = JSON.parse(raw)
      rec.bodyHash = createHash('sha256').update(canonical(rec.body)).digest('hex')
    } catch (err) {
      return reject('invalid', 400, `We could not parse the JSON body of your request (${(err as Error).message}).`, null, null)
    }
    try {
      rec.parts = validateChatBody(rec.body)
    } catch (err) {
      if (!(err instanceof Invalid)) throw err
      return reject('invalid', 400, err.message, err.param, null)
    }
    if (!models.includes(rec.body.model)) return reject('unknown-model', 404, `The model \`${rec.body.model}\` does not exist`, null, 'model_not_found')

    const b: Behaviour = behave?.(rec, ++valid) ?? { kind: 'answer', delayMs: o.delayMs }
    rec.behaviour = b.kind === 'status' ? `status ${b.status}` : b.kind
    if (b.kind === 'hang') return
    if (b.delayMs && !(await wait(b.delayMs, closed.signal))) return
    if (b.kind === 'drop') return void req.socket.destroy()
    if (b.kind === 'malformed') {
      rec.status = 200
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"chatcmpl-broken","choices":[{')
    }
    if (b.kind === 'stall') {
      rec.status = 200
      res.writeHead(200, { 'content-type': 'application/json' })
      return void res.write('{"id":"chatcmpl-stalled","object":"chat.completion","choices":[')
    }
    if (b.kind === 'rate-limit') {
      rec.status = 429
      return sendError(res, 429, `Rate limit reached for ${rec.body.model} on requests per min (RPM). Please try again later.`, 'requests', null, 'rate_limit_exceeded', b.retryAfter)
    }
    if (b.kind === 'status') {
      rec.status = b.status
      const type = b.status >= 500 ? 'server_error' : 'invalid_request_error'
      return sendError(res, b.status, b.message ?? `chat-server: status ${b.status} as the test asked`, type, null, b.code ?? null)
    }
    const text = b.kind === 'no-content' ? null : (b.text ?? (o.answer ? o.answer(rec.body) : `B${rec.bodyHash!.slice(0, 8)}`))
    const usage = (b.kind === 'answer' && b.usage) || { prompt_tokens: Math.max(1, Math.ceil(raw.length / 4)), completion_tokens: Math.max(1, Math.ceil((text ?? '').length / 4)) }
    rec.status = 200
    sendJson(res, 200, {
      id: `chatcmpl-${rec.id}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: rec.body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: text === null ? 'length' : 'stop' }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get inFlight() {
      return inFlight
    },
    get maxInFlight() {
      return maxInFlight
    },
    repeatedCompleted() {
      const first = new Map<string, number>()
      for (const r of requests) if (r.completed && r.bodyHash && !first.has(r.bodyHash)) first.set(r.bodyHash, r.id)
      return requests.filter((r) => r.bodyHash !== null && (first.get(r.bodyHash) ?? Infinity) < r.id)
    },
    setBehaviour(fn) {
      behave = fn
    },
    async close() {
      const responsesClosed = open === 0 ? Promise.resolve() : new Promise<void>((resolve) => (allClosed = resolve))
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err && (err as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING' ? reject(err) : resolve()))
        server.closeAllConnections()
      })
      await responsesClosed
    },
  }
}

/** Content part counts of a valid chat body; throws Invalid (param and message as the real API words them) otherwise. */
export function validateChatBody(body: unknown): RecordedRequest['parts'] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Invalid(null, 'The request body must be a JSON object.')
  const b = body as Record<string, unknown>
  if (typeof b.model !== 'string') throw new Invalid('model', "Missing or invalid 'model': expected a string.")
  if (b.stream) throw new Invalid('stream', 'This test server does not stream; send stream: false.')
  for (const k of ['max_tokens', 'max_completion_tokens']) {
    if (b[k] !== undefined && b[k] !== null && !(Number.isInteger(b[k]) && (b[k] as number) >= 1)) throw new Invalid(k, `Invalid '${k}': expected an integer >= 1.`)
  }
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw new Invalid('messages', "Invalid 'messages': expected a non-empty array.")
  const parts = { text: 0, image: 0, video: 0 }
  b.messages.forEach((m: any, i: number) => {
    const at = `messages[${i}]`
    if (!m || typeof m !== 'object' || !ROLES.includes(m.role)) throw new Invalid(`${at}.role`, `Invalid '${at}.role': expected one of ${ROLES.join(', ')}, got ${JSON.stringify(m?.role)}.`)
    if (typeof m.content === 'string') return void parts.text++
    if (!Array.isArray(m.content) || m.content.length === 0) throw new Invalid(`${at}.content`, `Invalid '${at}.content': expected a string or a non-empty array of parts.`)
    m.content.forEach((p: any, j: number) => {
      const pat = `${at}.content[${j}]`
      if (p?.type === 'text' && typeof p.text === 'string') return void parts.text++
      if (p?.type === 'image_url' && mediaUrl(p.image_url?.url, IMAGE_DATA)) return void parts.image++
      if (p?.type === 'video_url' && mediaUrl(p.video_url?.url, VIDEO_DATA)) return void parts.video++
      throw new Invalid(pat, `Invalid '${pat}': expected {type:'text', text}, {type:'image_url', image_url:{url}} (data:image/png;base64 or http(s)) or {type:'video_url', video_url:{url}} (data:video/mp4;base64 or http(s)); got type ${JSON.stringify(p?.type)}.`)
    })
  })
  return parts
}

function mediaUrl(url: unknown, data: RegExp): boolean {
  return typeof url === 'string' && (data.test(url) || HTTP_URL.test(url))
}

// JSON with object keys sorted, so equal bodies hash equally whatever the client's key order.
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`
  return JSON.stringify(v)
}

// The body as text; null when the client went away first or it is over MAX_BODY.
async function readBody(req: IncomingMessage, signal: AbortSignal): Promise<string | null> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > MAX_BODY) return null
      chunks.push(chunk)
    }
  } catch (err) {
    if (signal.aborted || (err as NodeJS.ErrnoException).code === 'ECONNRESET') return null
    throw err
  }
  return signal.aborted ? null : Buffer.concat(chunks).toString('utf8')
}

// Whether `ms` passed before the response closed (client abort or server close).
async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal })
    return true
  } catch (err) {
    if (signal.aborted) return false
    throw err
  }
}

function sendJson(res: ServerResponse, status: number, x: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(x))
}

function sendError(res: ServerResponse, status: number, message: string, type: string, param: string | null, code: string | null, retryAfter?: string): void {
  sendJson(res, status, { error: { message, type, param, code } }, retryAfter ? { 'retry-after': retryAfter } : {})
}
