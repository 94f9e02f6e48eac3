// The content-addressed cache (src/run/content-cache.ts), unit layer on a real folder.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { createContentCache } from '../../src/run/content-cache.ts'
import { hashConfig } from '../../src/run/config-hash.ts'
import { pipelineRejection, rejection, thrown } from '../helpers/thrown.ts'
import { filesUnder, tmpDir } from '../helpers/tmp.ts'

describe('content cache', () => {
  it('keys a value by the sha256 of its canonical JSON: key order and undefined keys do not matter, values do', () => {
    const cache = createContentCache(tmpDir('hp-cache-'), 'llm')
    const k = cache.key({ model: 'm1', prompt: 'p', opts: { t: 0, n: 1 } })
    expect(k).toBe(createHash('sha256').update('{"model":"m1","opts":{"n":1,"t":0},"prompt":"p"}').digest('hex'))
    expect(cache.key({ opts: { n: 1, t: 0 }, prompt: 'p', model: 'm1', extra: undefined })).toBe(k)
    expect(k).toBe(hashConfig({ model: 'm1', prompt: 'p', opts: { t: 0, n: 1 } })) // one hash of canonical JSON in the project
    for (const other of [{ model: 'm2', prompt: 'p', opts: { t: 0, n: 1 } }, { model: 'm1', prompt: 'p', opts: { t: 0, n: 2 } }, ['m1', 'p'], 'm1']) {
      expect(cache.key(other)).not.toBe(k)
    }
  })

  it('stores a value in <dir>/<namespace>/<2 hex>/<hash>.json and finds it again, also from a new cache on the folder', async () => {
    const dir = tmpDir('hp-cache-')
    const cache = createContentCache(dir, 'llm')
    expect(cache.dir).toBe(path.join(dir, 'llm'))
    const key = cache.key({ q: 1 })
    const value = { text: 'ä – ok', n: [1, 2.5], nested: { yes: true } }
    expect(await cache.get(key)).toBeUndefined()
    await cache.put(key, value)
    expect(filesUnder(dir)).toEqual([`llm/${key.slice(0, 2)}/${key}.json`])
    expect(JSON.parse(readFileSync(path.join(dir, 'llm', key.slice(0, 2), `${key}.json`), 'utf8'))).toEqual({ key, value })
    expect(await cache.get(key)).toEqual(value)
    expect(await createContentCache(dir, 'llm').get(key)).toEqual(value)
    // Another namespace is another folder.
    expect(await createContentCache(dir, 'other').get(key)).toBeUndefined()
  })

  it('keeps the first value stored for a key, also when two writers race, and leaves no partial files', async () => {
    const dir = tmpDir('hp-cache-')
    const cache = createContentCache(dir, 'llm')
    const key = cache.key('k')
    await cache.put(key, { v: 'first' })
    await cache.put(key, { v: 'second' })
    expect(await cache.get(key)).toEqual({ v: 'first' })

    const raced = cache.key('raced')
    const big = (tag: string) => ({ tag, pad: tag.repeat(200_000) })
    await Promise.all([cache.put(raced, big('a')), createContentCache(dir, 'llm').put(raced, big('b')), cache.put(raced, big('c'))])
    const got = await cache.get<{ tag: string; pad: string }>(raced)
    expect(['a', 'b', 'c']).toContain(got!.tag)
    expect(got).toEqual(big(got!.tag)) // one writer's bytes, never a mix
    expect(filesUnder(dir)).toEqual([`llm/${key.slice(0, 2)}/${key}.json`, `llm/${raced.slice(0, 2)}/${raced}.json`].sort())
  })

  it.each(['', '.', '..', 'a/b', '../x', 'a b', 'ä', 'x\\y'])('refuses the namespace %j with E_USAGE', (ns) => {
    const dir = tmpDir('hp-cache-')
    const err = thrown(() => createContentCache(dir, ns))
    expect(err.code).toBe('E_USAGE')
    expect(err.context.field).toBe('cache')
  })

  it.each([
    ['short', 'abc'],
    ['upper case', 'A'.repeat(64)],
    ['63 digits', 'a'.repeat(63)],
    ['65 digits', 'a'.repeat(65)],
    ['a path', `../${'a'.repeat(61)}`],
    ['not hex', 'g'.repeat(64)],
  ])('refuses a key that is not a sha256 digest (%s) in get and put with E_USAGE, writing nothing', async (_, key) => {
    const dir = tmpDir('hp-cache-')
    const cache = createContentCache(dir, 'llm')
    expect((await pipelineRejection(cache.get(key))).code).toBe('E_USAGE')
    expect((await pipelineRejection(cache.put(key, 1))).code).toBe('E_USAGE')
    expect(filesUnder(dir)).toEqual([])
  })

  it.each([
    ['not JSON', 'garbage'],
    ['torn', '{"key":"x","value":{"te'],
    ['empty', ''],
  ])('a damaged entry (%s) is E_CHECKPOINT naming its file', async (_, text) => {
    const dir = tmpDir('hp-cache-')
    const cache = createContentCache(dir, 'llm')
    const key = cache.key({ q: 'damaged' })
    const file = path.join(dir, 'llm', key.slice(0, 2), `${key}.json`)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, text)
    const err = (await rejection(cache.get(key))) as PipelineError
    expect(err).toBeInstanceOf(PipelineError)
    expect(err.code).toBe('E_CHECKPOINT')
    expect(err.context.file).toBe(file)
    expect(err.message).toContain(file)
  })
})
