// The pair score cache (F1-Bio's scores kept across scoring runs): one file per settings
// signature, appended a batch at a time; a torn last line (an interrupted append) loses only
// that pair; a file of other settings is refused, never read as these.
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { openPairScoreCache, pairKey } from '../../src/run/pair-score-cache.ts'
import { tmpDir } from '../helpers/tmp.ts'

describe('openPairScoreCache', () => {
  it('keeps scores (and undefined ones as null) across opens, per signature, skipping a torn last line', async () => {
    const dir = tmpDir('hp-pair-cache-')
    const a = await openPairScoreCache(dir, 'sig-a')
    expect(a.get(pairKey('x', 'y'))).toBeUndefined()
    a.put(pairKey('x', 'y'), 0.75)
    a.put(pairKey('', 'z'), null)
    a.put(pairKey('x', 'y'), 0.1)
    await a.flush()
    expect(a.counts).toEqual({ hits: 0, stored: 2 })
    appendFileSync(a.file, '{"k": "torn')
    const again = await openPairScoreCache(dir, 'sig-a')
    expect(again.get(pairKey('x', 'y'))).toBe(0.75)
    expect(again.get(pairKey('', 'z'))).toBeNull()
    again.put(pairKey('w', 'v'), 0.5)
    await again.flush()
    const third = await openPairScoreCache(dir, 'sig-a')
    expect(third.get(pairKey('w', 'v'))).toBe(0.5)
    expect(third.counts.hits).toBe(1)
    const b = await openPairScoreCache(dir, 'sig-b')
    expect(b.get(pairKey('x', 'y'))).toBeUndefined()
    await b.flush()
    expect(readdirSync(dir)).toHaveLength(2)
    expect(readFileSync(a.file, 'utf8').split('\n')[0]).toBe('{"signature":"sig-a"}')
  })

  it('refuses a file written for other settings, naming it', async () => {
    const dir = tmpDir('hp-pair-cache-')
    const a = await openPairScoreCache(dir, 'sig-a')
    a.put(pairKey('x'), 1)
    await a.flush()
    const file = a.file
    writeFileSync(file, readFileSync(file, 'utf8').replace('sig-a', 'sig-other'))
    await expect(openPairScoreCache(dir, 'sig-a')).rejects.toMatchObject({ code: 'E_CHECKPOINT', context: { file } })
  })
})
