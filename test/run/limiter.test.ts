// The run-wide limiter (src/run/limiter.ts), unit layer. Calls are held open by latches, so what
// runs and what waits is read from the limiter itself; rates are driven by an injected clock
// moved together with vitest's fake setTimeout, never by real waiting. One test uses a child
// process: whether a process lives through a rate wait cannot be seen from inside it.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Limiter, LimiterOptions } from '../../src/core/services.ts'
import { createLimiter } from '../../src/run/limiter.ts'
import { ROOT } from '../helpers/shared.ts'
import { deferred, settle, type Deferred } from '../helpers/deferred.ts'
import { rejection, thrown } from '../helpers/thrown.ts'

/** A limiter on a hand-driven clock, with calls that stay open until the test ends them. */
function harness(o: LimiterOptions) {
  let t = 0
  const limiter: Limiter = createLimiter(o, () => t)
  const started: string[] = []
  let peak = 0
  const calls = new Map<string, { began: Deferred<void>; done: Deferred<string>; result: Promise<string> }>()
  return {
    limiter,
    started,
    get peak() {
      return peak
    },
    /** Asks for a call named `name`; it runs until finish(name). */
    call(name: string, opts?: { cost?: number; signal?: AbortSignal }): Promise<string> {
      const began = deferred()
      const done = deferred<string>()
      const result = limiter.run(() => {
        started.push(name)
        peak = Math.max(peak, limiter.active)
        began.resolve()
        return done.promise
      }, opts)
      calls.set(name, { began, done, result })
      return result
    },
    /** Resolves when call `name` is running. */
    began: (name: string) => calls.get(name)!.began.promise,
    /** Asks for a call that returns at once. */
    quick(name: string, opts?: { cost?: number; signal?: AbortSignal }): Promise<string> {
      return limiter.run(async () => {
        started.push(name)
        return name
      }, opts)
    },
    /** Ends call `name` (its slot is free again when this resolves). */
    async finish(name: string): Promise<void> {
      const c = calls.get(name)!
      c.done.resolve(name)
      await c.result
    },
    /** Moves the clock and the timers on by `ms`. */
    async advance(ms: number): Promise<void> {
      await settle()
      t += ms
      await vi.advanceTimersByTimeAsync(ms)
    },
    /** Moves only the timers (the clock stays). */
    async timersOnly(ms: number): Promise<void> {
      await settle()
      await vi.advanceTimersByTimeAsync(ms)
    },
  }
}

describe('limiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses concurrency %s with E_CONFIG_VALUE', (concurrency) => {
    const err = thrown(() => createLimiter({ concurrency }))
    expect(err.code).toBe('E_CONFIG_VALUE')
    expect(err.context.field).toBe('concurrency')
  })

  it('runs at most `concurrency` calls at a time and starts waiting ones in the order they came', async () => {
    const h = harness({ concurrency: 2 })
    const results = ['a', 'b', 'c', 'd', 'e'].map((n) => h.call(n))
    expect([h.limiter.active, h.limiter.waiting]).toEqual([2, 3])
    await Promise.all([h.began('a'), h.began('b')])
    expect(h.started).toEqual(['a', 'b'])
    await h.finish('b') // the second call ends first: its slot goes to the oldest waiter
    await h.began('c')
    expect([h.limiter.active, h.limiter.waiting]).toEqual([2, 2])
    expect(h.started).toEqual(['a', 'b', 'c'])
    await h.finish('a')
    await h.finish('c')
    await h.finish('d')
    expect([h.limiter.active, h.limiter.waiting]).toEqual([1, 0])
    await h.finish('e')
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(h.started).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(h.peak).toBe(2)
    expect([h.limiter.active, h.limiter.waiting]).toEqual([0, 0])
  })

  it("frees the slot of a call that fails and passes the call's own error on", async () => {
    const h = harness({ concurrency: 1 })
    const boom = new Error('boom')
    const failing = h.limiter.run(async () => {
      throw boom
    })
    const next = h.quick('next')
    expect(await rejection(failing)).toBe(boom)
    expect(await next).toBe('next')
    expect([h.limiter.active, h.limiter.waiting]).toEqual([0, 0])
  })

  // A full bucket lets rpm calls go at once; then the n-th extra call waits until n calls' worth
  // has flowed back (60000 / rpm ms each, rounded up to the timer's whole ms).
  it.each([3, 7, 60])('with rpm %i, starts rpm calls at once, then one per 60000/rpm ms', async (rpm) => {
    const h = harness({ concurrency: 1000, rpm })
    const all = Array.from({ length: rpm + 2 }, (_, i) => h.quick(`c${i}`))
    const startedCount = () => rpm + 2 - h.limiter.waiting
    expect(startedCount()).toBe(rpm)
    let now = 0
    for (const n of [1, 2]) {
      const due = Math.ceil((n * 60_000) / rpm)
      await h.advance(due - 1 - now)
      expect(startedCount()).toBe(rpm + n - 1)
      await h.advance(1)
      now = due
      expect(startedCount()).toBe(rpm + n)
    }
    await Promise.all(all)
    expect(h.started).toEqual(Array.from({ length: rpm + 2 }, (_, i) => `c${i}`))
  })

  it('counts each call\'s cost against tpm, and a cheap call never overtakes a dear one waiting before it', async () => {
    const h = harness({ concurrency: 10, tpm: 1000 })
    const all = [h.quick('a', { cost: 400 }), h.quick('b', { cost: 400 }), h.quick('c', { cost: 400 }), h.quick('d', { cost: 100 })]
    // 200 tokens are left: enough for d, but c (400) is first in line and needs 200 more (12 s).
    expect(h.limiter.waiting).toBe(2)
    await h.advance(11_999)
    expect(h.limiter.waiting).toBe(2)
    await h.advance(1)
    expect(h.limiter.waiting).toBe(1)
    // c took the bucket to 0: d's 100 tokens take 6 s more.
    await h.advance(5_999)
    expect(h.limiter.waiting).toBe(1)
    await h.advance(1)
    expect(h.limiter.waiting).toBe(0)
    await Promise.all(all)
    expect(h.started).toEqual(['a', 'b', 'c', 'd'])
  })

  it('lets a cost above tpm go once the bucket is full (it would never fit), instead of waiting for ever', async () => {
    const h = harness({ concurrency: 10, tpm: 100 })
    const first = h.quick('first', { cost: 250 })
    expect(h.limiter.waiting).toBe(0)
    const second = h.quick('second', { cost: 250 })
    expect(h.limiter.waiting).toBe(1)
    await h.advance(59_999)
    expect(h.limiter.waiting).toBe(1)
    await h.advance(1)
    expect(h.limiter.waiting).toBe(0)
    expect(await Promise.all([first, second])).toEqual(['first', 'second'])
  })

  it('with rpm and tpm both set, waits for the later of the two', async () => {
    // rpm 60: a request every 1 s; tpm 600: 10 tokens a second.
    const h = harness({ concurrency: 10, rpm: 60, tpm: 600 })
    const all = [h.quick('drain', { cost: 600 }), h.quick('next', { cost: 60 })]
    await h.advance(5_999) // the request bucket allowed it after 1 s; tokens need 6 s
    expect(h.limiter.waiting).toBe(1)
    await h.advance(1)
    expect(h.limiter.waiting).toBe(0)
    await Promise.all(all)
  })

  it('goes by the injected clock, not by when its timer fires', async () => {
    const h = harness({ concurrency: 10, rpm: 1 })
    const all = [h.quick('a'), h.quick('b')]
    await h.timersOnly(120_000) // timers fire, but the clock says no time has passed
    expect(h.limiter.waiting).toBe(1)
    await h.advance(60_000)
    expect(h.limiter.waiting).toBe(0)
    await Promise.all(all)
  })

  it("an aborted wait leaves the queue, rejects with the signal's reason and never runs; the next caller is served", async () => {
    const h = harness({ concurrency: 1 })
    const a = h.call('a')
    const ac = new AbortController()
    const b = h.call('b', { signal: ac.signal })
    const c = h.call('c')
    expect(h.limiter.waiting).toBe(2)
    const reason = new Error('record cancelled')
    ac.abort(reason)
    expect(h.limiter.waiting).toBe(1)
    expect(await rejection(b)).toBe(reason)
    await h.finish('a')
    await h.finish('c')
    expect(await Promise.all([a, c])).toEqual(['a', 'c'])
    expect(h.started).toEqual(['a', 'c'])
  })

  it('an already aborted signal rejects at once, even with a free slot, without running or queueing', async () => {
    const h = harness({ concurrency: 1 })
    const reason = new Error('gone')
    const err = await rejection(h.call('x', { signal: AbortSignal.abort(reason) }))
    expect(err).toBe(reason)
    expect(h.started).toEqual([])
    expect([h.limiter.active, h.limiter.waiting]).toEqual([0, 0])
  })

  it('when the waiter at the head of a rate wait is aborted, the next one goes as soon as its own cost fits', async () => {
    const h = harness({ concurrency: 10, tpm: 100 })
    const first = h.quick('first', { cost: 100 })
    const ac = new AbortController()
    const dear = h.quick('dear', { cost: 100, signal: ac.signal }) // would wait 60 s
    const cheap = h.quick('cheap', { cost: 10 }) // 6 s of tokens, behind it
    ac.abort(new Error('stop'))
    await rejection(dear)
    await h.advance(5_999)
    expect(h.limiter.waiting).toBe(1)
    await h.advance(1)
    expect(h.limiter.waiting).toBe(0)
    expect(await Promise.all([first, cheap])).toEqual(['first', 'cheap'])
    expect(h.started).toEqual(['first', 'cheap'])
  })

  it('keeps the process alive while a call waits for its rate (the wait is all that is left to do)', async () => {
    vi.useRealTimers()
    // tpm 6000 = 100 tokens a second: after a call of 6000, one of 10 waits 100 ms.
    const code = `
const { createLimiter } = await import(${JSON.stringify(path.join(ROOT, 'src/run/limiter.ts'))})
const limiter = createLimiter({ concurrency: 1, tpm: 6000 })
await limiter.run(async () => undefined, { cost: 6000 })
await limiter.run(async () => undefined, { cost: 10 })
process.stdout.write('ran\\n')
`
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect({ exitCode, out }).toEqual({ exitCode: 0, out: 'ran\n' })
  })
})
