// The bounded, ordered concurrency helper (unit layer): results in the order started, at most
// `concurrency` waiting, fn called in order, failures at their turn and never unhandled, an
// early stop settling what is in flight.
import { describe, expect, it } from 'vitest'
import { createOrderedQueue, mapOrdered } from '../../src/core/map-ordered.ts'
import { deferred, settle } from '../helpers/deferred.ts'

describe('mapOrdered', () => {
  it('yields in source order whatever order the work finishes in, with at most `concurrency` in flight', async () => {
    const latches = Array.from({ length: 6 }, () => deferred<number>())
    let inFlight = 0
    let peak = 0
    const called: number[] = []
    const fn = (i: number) => {
      called.push(i)
      peak = Math.max(peak, ++inFlight)
      return latches[i].promise.finally(() => inFlight--)
    }
    const out: number[] = []
    const run = (async () => {
      for await (const r of mapOrdered([0, 1, 2, 3, 4, 5], fn, { concurrency: 3 })) out.push(r)
    })()
    // Finish them backwards, a turn of the event loop apart.
    for (const i of [2, 1, 0, 5, 4, 3]) {
      await settle()
      latches[i].resolve(i * 10)
    }
    await run
    expect(out).toEqual([0, 10, 20, 30, 40, 50])
    expect(called).toEqual([0, 1, 2, 3, 4, 5])
    expect(peak).toBe(3)
  })

  it('passes values returned directly through in order, behind the work before them', async () => {
    const slow = deferred<string>()
    const out: string[] = []
    const run = (async () => {
      for await (const r of mapOrdered(['a', 'b', 'c'], (v) => (v === 'a' ? slow.promise : v.toUpperCase()), { concurrency: 4 })) out.push(r)
    })()
    await settle()
    expect(out).toEqual([])
    slow.resolve('A')
    await run
    expect(out).toEqual(['A', 'B', 'C'])
  })

  it('rejects with a failure at its turn, after the results before it, and settles the rest before it returns', async () => {
    const later = deferred<number>()
    let settledLater = false
    later.promise.finally(() => (settledLater = true))
    const out: number[] = []
    const fn = (i: number) => (i === 1 ? Promise.reject(new Error('no 1')) : i === 2 ? later.promise : Promise.resolve(i))
    let settledRun = false
    const run = (async () => {
      for await (const r of mapOrdered([0, 1, 2], fn, { concurrency: 3 })) out.push(r)
    })()
    run.then(() => (settledRun = true), () => (settledRun = true))
    // Item 1 has failed and item 2 is still in flight: the run waits for it before it rejects.
    await settle()
    expect(out).toEqual([0])
    expect(settledRun).toBe(false)
    later.resolve(2)
    await expect(run).rejects.toThrow('no 1')
    expect(out).toEqual([0])
    expect(settledLater).toBe(true) // in flight when the failure came: awaited, not abandoned
  })

  it('stops at an abort between items', async () => {
    const ac = new AbortController()
    const out: number[] = []
    const run = (async () => {
      for await (const r of mapOrdered([1, 2, 3], (i) => i, { concurrency: 1, signal: ac.signal })) {
        out.push(r)
        if (r === 1) ac.abort()
      }
    })()
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
    expect(out).toEqual([1])
  })
})

describe('createOrderedQueue', () => {
  it('lands the oldest results while more than `keep` wait, and refuses a concurrency below 1', async () => {
    const q = createOrderedQueue<number>(2)
    q.push(Promise.resolve(1))
    q.push(2)
    q.push(Promise.resolve(3))
    const got: number[] = []
    for await (const r of q.land()) got.push(r)
    expect(got).toEqual([1, 2])
    expect(q.size).toBe(1)
    for await (const r of q.land(0)) got.push(r)
    expect(got).toEqual([1, 2, 3])
    expect(() => createOrderedQueue(0)).toThrow(/at least 1/)
  })
})
