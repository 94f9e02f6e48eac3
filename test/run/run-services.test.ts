// The services a run's records share (src/run/run-services.ts), unit layer.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LimiterOptions } from '../../src/core/services.ts'
import { createRunServices } from '../../src/run/run-services.ts'
import { deferred } from '../helpers/deferred.ts'
import { rejection, thrown } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

describe('run services', () => {
  it('limiter(name) is the same limiter for every caller of that name, and another one for another name', async () => {
    const services = createRunServices({ cacheDir: null, env: {} })
    const a = services.limiter('llm', { concurrency: 1 })
    expect(services.limiter('llm', { concurrency: 1, rpm: undefined })).toBe(a)
    const other = services.limiter('ocr', { concurrency: 1 })
    expect(other).not.toBe(a)
    // Shared for real: one record's call holds the only slot for the next record's.
    const held = deferred<void>()
    const first = a.run(() => held.promise)
    void services.limiter('llm', { concurrency: 1 }).run(async () => undefined)
    expect([a.active, a.waiting]).toEqual([1, 1])
    expect([other.active, other.waiting]).toEqual([0, 0])
    held.resolve()
    await first
  })

  it.each<[string, LimiterOptions]>([
    ['another concurrency', { concurrency: 3, rpm: 60 }],
    ['no rpm', { concurrency: 2 }],
    ['another rpm', { concurrency: 2, rpm: 61 }],
    ['a tpm added', { concurrency: 2, rpm: 60, tpm: 1000 }],
  ])('refuses a name asked for with %s (E_CONFIG_VALUE) and keeps the first limiter', (_, again) => {
    const services = createRunServices({ cacheDir: null, env: {} })
    const first = services.limiter('llm', { concurrency: 2, rpm: 60 })
    const err = thrown(() => services.limiter('llm', again))
    expect(err.code).toBe('E_CONFIG_VALUE')
    expect(err.message).toContain('"llm"')
    expect(services.limiter('llm', { concurrency: 2, rpm: 60 })).toBe(first)
  })

  it('cache() is E_USAGE without a cache folder', () => {
    const services = createRunServices({ cacheDir: null, env: {} })
    expect(thrown(() => services.cache('llm')).code).toBe('E_USAGE')
  })

  it("cache(ns) lives in the run's cache folder, and what one record puts another gets", async () => {
    const cacheDir = tmpDir('hp-services-')
    const services = createRunServices({ cacheDir, env: {} })
    const one = services.cache('llm')
    expect(one.dir).toBe(path.join(cacheDir, 'llm'))
    const key = one.key({ prompt: 'p' })
    await one.put(key, 'answer')
    expect(await services.cache('llm').get(key)).toBe('answer')
  })

  it('secret(name) reads the env the services were given, not process.env', () => {
    const services = createRunServices({ cacheDir: null, env: { API_KEY: 'v1' } })
    expect(services.secret('API_KEY').reveal()).toBe('v1')
    expect(process.env.PATH).toBeTruthy()
    expect(thrown(() => services.secret('PATH')).code).toBe('E_SECRET_MISSING')
  })

  it('once(key) makes once per key: every caller, also while it is being made, gets that result', async () => {
    const services = createRunServices({ cacheDir: null, env: {} })
    const made: string[] = []
    const gate = deferred<string>()
    const make = (key: string, result: Promise<string>) => () => {
      made.push(key)
      return result
    }
    const early = [services.once('ffmpeg', make('ffmpeg', gate.promise)), services.once('ffmpeg', make('ffmpeg', Promise.resolve('second')))]
    const other = services.once('input-run', make('input-run', Promise.resolve('run')))
    gate.resolve('first')
    expect(await Promise.all(early)).toEqual(['first', 'first'])
    expect(await services.once('ffmpeg', make('ffmpeg', Promise.resolve('later')))).toBe('first')
    expect(await other).toBe('run')
    expect(made).toEqual(['ffmpeg', 'input-run'])
  })

  it('once(key) keeps no failure: callers of the failed attempt get its error, the next call makes again', async () => {
    const services = createRunServices({ cacheDir: null, env: {} })
    let attempts = 0
    const gate = deferred<string>()
    const boom = new Error('ffmpeg not found')
    const make = () => {
      attempts++
      return attempts === 1 ? gate.promise : Promise.resolve(`made on attempt ${attempts}`)
    }
    const during = [services.once('ffmpeg', make), services.once('ffmpeg', make)]
    gate.reject(boom)
    for (const p of during) expect(await rejection(p)).toBe(boom)
    expect(await services.once('ffmpeg', make)).toBe('made on attempt 2')
    expect(await services.once('ffmpeg', make)).toBe('made on attempt 2')
    expect(attempts).toBe(2)
  })
})
