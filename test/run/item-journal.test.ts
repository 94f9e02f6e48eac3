import { appendFileSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { openItemJournal } from '../../src/run/item-journal.ts'
import { tmpDir } from '../helpers/tmp.ts'

describe('item journal (item-level checkpoints)', () => {
  it('stores values durably and finds them again after reopening', async () => {
    const dir = tmpDir()
    const j = await openItemJournal(dir, 'answers')
    await j.put('q1', { text: 'ä – 1' })
    await j.put('q2', { text: 'two' })
    await j.close()
    const again = await openItemJournal(dir, 'answers')
    expect(again.size).toBe(2)
    expect(again.has('q1')).toBe(true)
    expect(await again.get('q1')).toEqual({ text: 'ä – 1' })
    expect(await again.get('q2')).toEqual({ text: 'two' })
    expect(await again.get('nope')).toBeUndefined()
    await again.close()
  })

  it('keeps the first value of a key and never interleaves concurrent puts', async () => {
    const dir = tmpDir()
    const j = await openItemJournal(dir, 'calls')
    await Promise.all(Array.from({ length: 200 }, (_, i) => j.put(`k${i % 150}`, { i, pad: 'x'.repeat(i * 10) })))
    await j.close()
    const lines = readFileSync(j.file, 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(150)
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow()
    const again = await openItemJournal(dir, 'calls')
    expect(await again.get('k3')).toEqual({ i: 3, pad: 'x'.repeat(30) })
    await again.close()
  })

  it('drops a torn last entry left by a crash, and appends after it cleanly', async () => {
    const dir = tmpDir()
    const j = await openItemJournal(dir, 'calls')
    await j.put('a', 1)
    await j.close()
    appendFileSync(j.file, '{"key":"b","val')
    const again = await openItemJournal(dir, 'calls')
    expect(again.has('b')).toBe(false)
    await again.put('c', 3)
    await again.close()
    expect(readFileSync(j.file, 'utf8')).toBe('{"key":"a","value":1}\n{"key":"c","value":3}\n')
  })

  it('rejects names that are not safe file names', async () => {
    await expect(openItemJournal(tmpDir(), '../x')).rejects.toThrow(/journal name/)
  })
})
