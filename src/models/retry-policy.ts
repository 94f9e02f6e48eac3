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
}

/** Whether a failure is worth another attempt. */
export function isRetryable(f: CallFailure): boolean {
  // An answer without text (a refusal, a reasoning model out of tokens) would come back the same: asking again only pays again.
  if (f.kind === 'aborted' || f.kind === 'empty') return false
  if (f.kind !== 'status') return true
  const s = f.status ?? 0
  return s === 408 || s === 409 || s === 429 || s >= 500
}

/** The server's own wait in ms, from retry-after-ms or Retry-After (seconds or an HTTP date), or null. */
export function retryAfterMs(headers: CallFailure['headers'], now = Date.now()): number | null {
  if (!headers) return null
  const ms = Number(headers.get('retry-after-ms'))
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms
  const raw = headers.get('retry-after')
  if (raw === null || raw.trim() === '') return null
  const seconds = Number(raw)
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null
  const date = Date.parse(raw)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

export interface Backoff {
  minMs: number
  maxMs: number
}

/** The wait before attempt `attempt + 1` (attempt counts from 1): the server's Retry-After, else min * 2^(attempt-1), capped, with equal jitter (half of it random). */
export function retryDelayMs(f: CallFailure, attempt: number, b: Backoff, random: () => number = Math.random, now = Date.now()): number {
  const told = f.status === 429 || f.status === 503 ? retryAfterMs(f.headers, now) : null
  // A server's own wait is obeyed even above maxMs: coming back sooner only earns another 429.
  if (told !== null) return told
  const cap = Math.min(b.maxMs, b.minMs * 2 ** (attempt - 1))
  return Math.round(cap / 2 + random() * (cap / 2))
}
