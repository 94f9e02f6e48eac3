// A limiter shared by every record of a run (design.md "Scale": model calls with bounded
// concurrency and rate limits): at most `concurrency` calls at a time, and, when given, at most
// `rpm` calls and `tpm` of cost (tokens) started in any minute (token buckets that refill
// continuously). Waiting callers are served in order; an aborted wait leaves the queue.
import type { Limiter, LimiterOptions } from '../core/services.ts'
import { PipelineError } from '../core/errors.ts'

interface Waiter {
  cost: number
  start: () => void
  signal?: AbortSignal
  onAbort?: () => void
}

/** A limiter; `now` is the clock in ms (tests pass their own). */
export function createLimiter(o: LimiterOptions, now: () => number = Date.now): Limiter {
  if (!(Number.isInteger(o.concurrency) && o.concurrency >= 1)) throw new PipelineError('E_CONFIG_VALUE', `a limiter's concurrency must be an integer of at least 1, found ${o.concurrency}`, { field: 'concurrency' })
  const bucket = (perMinute: number | undefined) => (perMinute === undefined ? null : { level: perMinute, per: perMinute, at: now() })
  const requests = bucket(o.rpm)
  const tokens = bucket(o.tpm)
  const refill = (b: NonNullable<ReturnType<typeof bucket>>) => {
    const t = now()
    b.level = Math.min(b.per, b.level + ((t - b.at) / 60_000) * b.per)
    b.at = t
  }
  // ms until `b` holds `need`; a need above the bucket's size waits for a full bucket, then goes (it would never fit).
  const waitFor = (b: ReturnType<typeof bucket>, need: number): number => {
    if (!b) return 0
    refill(b)
    const want = Math.min(need, b.per)
    return b.level >= want ? 0 : ((want - b.level) / b.per) * 60_000
  }
  let active = 0
  const queue: Waiter[] = []
  let timer: NodeJS.Timeout | null = null
  const pump = () => {
    while (queue.length && active < o.concurrency) {
      const w = queue[0]
      const delay = Math.max(waitFor(requests, 1), waitFor(tokens, w.cost))
      if (delay > 0) {
        // Not unref'd: when every record waits for the rate, this timer is what keeps the process alive.
        timer ??= setTimeout(() => {
          timer = null
          pump()
        }, Math.ceil(delay))
        return
      }
      queue.shift()
      if (requests) requests.level -= 1
      if (tokens) tokens.level -= Math.min(w.cost, tokens.per)
      active++
      if (w.onAbort) w.signal!.removeEventListener('abort', w.onAbort)
      w.start()
    }
  }
  return {
    get active() {
      return active
    },
    get waiting() {
      return queue.length
    },
    async run(fn, opts = {}) {
      opts.signal?.throwIfAborted()
      await new Promise<void>((resolve, reject) => {
        const w: Waiter = { cost: opts.cost ?? 0, start: resolve, signal: opts.signal }
        if (opts.signal) {
          w.onAbort = () => {
            const i = queue.indexOf(w)
            if (i >= 0) queue.splice(i, 1)
            // The timer was set for this waiter's need: the next one may need less (or nobody waits).
            if (i === 0 && timer) {
              clearTimeout(timer)
              timer = null
            }
            reject(opts.signal!.reason)
            pump()
          }
          opts.signal.addEventListener('abort', w.onAbort, { once: true })
        }
        queue.push(w)
        pump()
      })
      try {
        return await fn()
      } finally {
        active--
        pump()
      }
    },
  }
}
