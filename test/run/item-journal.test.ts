import { appendFileSync, readFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openItemJournal } from '../../src/run/item-journal.ts'
import { rejection } from '../helpers/thrown.ts'
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

  it('after a failed write refuses every later put, naming the journal and the first error, claims no unwritten key, and still closes its file', async () => {
    const dir = tmpDir()
    const j = await openItemJournal(dir, 'calls')
    await j.put('a', 1)
    // Every FileHandle shares one prototype: a full disk for the next write, which also shows the journal's handle.
    const probe = await open(path.join(dir, 'probe'), 'w')
    const proto = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => Promise<unknown> }
    await probe.close()
    const { write } = proto
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    let handle: { fd: number } | undefined
    try {
      proto.write = function (this: { fd: number }) {
        handle = this
        return Promise.reject(full)
      }
      const first = await rejection(j.put('b', 2))
      expect(first).toMatchObject({ code: 'E_IO', context: { file: j.file } })
      expect(first.cause).toBe(full)
    } finally {
      proto.write = write // the disk has room again: the journal still refuses, it may end in a torn line
    }
    const later = await rejection(j.put('c', 3))
    expect(later).toMatchObject({ code: 'E_IO', message: expect.stringContaining(j.file) })
    expect(later.message).toContain('ENOSPC')
    expect(later.cause).toBe(full)
    expect([j.has('a'), j.has('b'), j.has('c'), j.size]).toEqual([true, false, false, 1])
    expect(await j.get('a')).toBe(1)
    expect(await j.get('b')).toBeUndefined()
    expect(handle!.fd).toBeGreaterThan(0)
    await j.close()
    expect(handle!.fd).toBe(-1) // closed
    expect(readFileSync(j.file, 'utf8')).toBe('{"key":"a","value":1}\n')
  })

  it('a key is claimed only once it is on disk; concurrent puts of one key write it once', async () => {
    const j = await openItemJournal(tmpDir(), 'calls')
    const p = j.put('k', 1)
    const q = j.put('k', 2)
    await Promise.all([p, q])
    expect(j.has('k')).toBe(true)
    expect(await j.get('k')).toBe(1)
    await j.close()
    expect(readFileSync(j.file, 'utf8')).toBe('{"key":"k","value":1}\n')
  })

  it('rejects names that are not safe file names', async () => {
    await expect(openItemJournal(tmpDir(), '../x')).rejects.toThrow(/journal name/)
  })
})
