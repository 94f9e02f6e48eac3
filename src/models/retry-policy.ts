// Which failed calls are tried again, and after how long (pure). A rate limit (429) waits for the
// server's Retry-After (seconds or an HTTP date; OpenAI's retry-after-ms too) when it sends one,
// else exponential backoff with jitter; server errors (5xx), 408/409, timeouts, dropped
// connections and bodies that are not the JSON promised are tried again with backoff; every other
// 4xx is the request's own fault (a bad key, an unknown model, a body the server refuses) and is
// not: repeating it would only pay again for the same refusal.

export interface CallFailure {
  /** HTTP status, when the server answered. */
  status?: number
  /** The response's headers, when the server answered. */
  headers?: { get(name: string): string | null } | null
  /** What went wrong, as the prediction will say it. */
  kind: 'status' | 'timeout' | 'connection' | 'malformed' | 'empty' | 'aborted'
  message: string
  /** The error's code in the body (OpenAI: `insufficient_quota`, `rate_limit_exceeded`...). */
  code?: string | null
  /** Not to be tried again whatever its kind (the server's wait is over the model's limit). */
  giveUp?: boolean
}

/** Whether a failure is worth another attempt. */
export function isRetryable(f: CallFailure): boolean {
  // An answer without text (a refusal, a reasoning model out of tokens) would come back the same: asking again only pays again.
  if (f.kind === 'aborted' || f.kind === 'empty' || f.giveUp) return false
  if (f.kind !== 'status') return true
  // Out of credit is a 429 too, but waiting does not refill it.
  if (f.code === 'insufficient_quota') return false
  const s = f.status ?? 0
  return s === 408 || s === 409 || s === 429 || s >= 500
}

const DECIMAL = /^\s*\d+(\.\d+)?\s*$/

/** The server's own wait in ms, from retry-after-ms or Retry-After (delay seconds or an HTTP date), or null when it sends none that parses. */
export function retryAfterMs(headers: CallFailure['headers'], now = Date.now()): number | null {
  if (!headers) return null
  const ms = headers.get('retry-after-ms')
  if (ms !== null && DECIMAL.test(ms)) return Number(ms)
  const raw = headers.get('retry-after')
  if (raw === null) return null
  if (DECIMAL.test(raw)) return Number(raw) * 1000
  // An HTTP date names its weekday or month in letters; a bare number in another base is not one.
  if (!/[a-z]/i.test(raw)) return null
  const date = Date.parse(raw)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

export interface Backoff {
  minMs: number
  maxMs: number
  /** The longest server-asked wait obeyed; over it the item fails (null from retryDelayMs). */
  maxRetryAfterMs: number
}

/** The wait before attempt `attempt + 1` (attempt counts from 1): the server's Retry-After (plus up to 10 % so waiting callers do not all return at once), else min * 2^(attempt-1), capped, with equal jitter (half of it random); null when the server asks for more than maxRetryAfterMs. */
export function retryDelayMs(f: CallFailure, attempt: number, b: Backoff, random: () => number = Math.random, now = Date.now()): number | null {
  const told = f.status === 429 || f.status === 503 ? retryAfterMs(f.headers, now) : null
  // A server's own wait is obeyed even above maxMs (coming back sooner only earns another 429), up to maxRetryAfterMs.
  if (told !== null) return told > b.maxRetryAfterMs ? null : Math.round(told * (1 + 0.1 * random()))
  const cap = Math.min(b.maxMs, b.minMs * 2 ** (attempt - 1))
  return Math.round(cap / 2 + random() * (cap / 2))
}
