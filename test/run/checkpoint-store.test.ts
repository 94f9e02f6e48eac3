import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { doneTotals, foldCheckpoints, openCheckpointStore, type CheckpointLine } from '../../src/run/checkpoint-store.ts'
import { tmpDir } from '../helpers/tmp.ts'

function parts(runDir: string, recordId: string, files: Record<string, string>): string {
  const dir = path.join(runDir, '.parts', recordId)
  mkdirSync(dir, { recursive: true })
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  return dir
}

describe('checkpoint store', () => {
  it('appends part files to the outputs and records their sizes', async () => {
    const run = tmpDir()
    const store = await openCheckpointStore(run)
    await store.commit({ recordId: 'a', index: 0, partsDir: parts(run, 'a', { 'window.ndjson': '{"w":1}\n', 'recording.ndjson': '{"r":"a"}\n' }), counts: { window: 1, recording: 1 }, seconds: 10 })
    const line = await store.commit({ recordId: 'b', index: 1, partsDir: parts(run, 'b', { 'window.ndjson': '{"w":2}\n' }), counts: { window: 1 }, seconds: 5 })
    expect(readFileSync(path.join(run, 'window.ndjson'), 'utf8')).toBe('{"w":1}\n{"w":2}\n')
    expect(line.sizes).toEqual({ 'window.ndjson': 16, 'recording.ndjson': 10 })
    expect(existsSync(path.join(run, '.parts', 'a'))).toBe(false)
    expect([...store.done.keys()]).toEqual(['a', 'b'])
  })

  it('on reopen cuts outputs back to the last checkpoint and forgets unfinished records', async () => {
    const run = tmpDir()
    const store = await openCheckpointStore(run)
    await store.commit({ recordId: 'a', index: 0, partsDir: parts(run, 'a', { 'window.ndjson': '{"w":1}\n' }), counts: { window: 1 }, seconds: 1 })
    // A crash during the next commit: half a line appended, a new output file, a torn checkpoint line, leftover parts.
    appendFileSync(path.join(run, 'window.ndjson'), '{"w":2}\n{"w":')
    writeFileSync(path.join(run, 'beat.ndjson'), '{"b":1}\n')
    appendFileSync(path.join(run, 'checkpoints.ndjson'), '{"v":1,"recordId":"b","ind')
    parts(run, 'b', { 'window.ndjson': '{"w":2}\n' })
    const again = await openCheckpointStore(run)
    expect([...again.done.keys()]).toEqual(['a'])
    expect(readFileSync(path.join(run, 'window.ndjson'), 'utf8')).toBe('{"w":1}\n')
    expect(existsSync(path.join(run, 'beat.ndjson'))).toBe(false)
    expect(existsSync(path.join(run, '.parts'))).toBe(false)
    expect(readFileSync(path.join(run, 'checkpoints.ndjson'), 'utf8').endsWith('\n')).toBe(true)
  })

  it('refuses an output shorter than its checkpoint says (changed by hand)', async () => {
    const run = tmpDir()
    const store = await openCheckpointStore(run)
    await store.commit({ recordId: 'a', index: 0, partsDir: parts(run, 'a', { 'window.ndjson': '{"w":1}\n' }), counts: { window: 1 }, seconds: 1 })
    writeFileSync(path.join(run, 'window.ndjson'), '')
    await expect(openCheckpointStore(run)).rejects.toMatchObject({ code: 'E_CHECKPOINT' })
  })

  it('a failed record is recorded but not done, and a later success counts', async () => {
    const run = tmpDir()
    const store = await openCheckpointStore(run)
    await store.fail({ recordId: 'a', index: 0, error: { code: 'E_FILE_MISSING', message: 'gone' } })
    expect(store.done.has('a')).toBe(false)
    await store.commit({ recordId: 'a', index: 0, partsDir: parts(run, 'a', { 'x.ndjson': '{}\n' }), counts: { x: 1 }, seconds: 1 })
    expect((await openCheckpointStore(run)).done.has('a')).toBe(true)
  })

  it('its done records, their byte ranges and totals are what the store, an input run and tail all read', async () => {
    const run = tmpDir()
    const store = await openCheckpointStore(run)
    await store.commit({ recordId: 'a', index: 0, partsDir: parts(run, 'a', { 'w.ndjson': '{"w":1}\n' }), counts: { w: 1 }, seconds: 2 })
    await store.commit({ recordId: 'b', index: 1, partsDir: parts(run, 'b', { 'w.ndjson': '{"w":2}\n', 'x.ndjson': '{}\n' }), counts: { w: 1, x: 1 }, seconds: 3 })
    expect(store.done.get('b')!.ranges).toEqual({ 'w.ndjson': [8, 16], 'x.ndjson': [0, 3] })
    expect(doneTotals(store.done)).toEqual({ records: 2, seconds: 5, items: { w: 2, x: 1 } })
    expect([...(await openCheckpointStore(run)).done.entries()]).toEqual([...store.done.entries()])
  })
})

describe('foldCheckpoints', () => {
  const at = '2024-01-01T00:00:00.000Z'
  const done = (recordId: string, sizes: Record<string, number>, counts: Record<string, number>, seconds: number): CheckpointLine => ({ v: 1, recordId, index: 0, status: 'done', sizes, counts, seconds, at })
  const failed = (recordId: string, sizes: Record<string, number>): CheckpointLine => ({ v: 1, recordId, index: 0, status: 'failed', sizes, counts: {}, seconds: 0, at })

  it('keeps the last state of each record; a failed line undoes an earlier done one; ranges are the bytes each commit added', () => {
    const lines = [
      done('a', { 'w.ndjson': 10 }, { w: 1 }, 1),
      failed('b', { 'w.ndjson': 10 }),
      done('c', { 'w.ndjson': 25, 'x.ndjson': 5 }, { w: 2, x: 1 }, 4),
      failed('a', { 'w.ndjson': 25, 'x.ndjson': 5 }),
      done('b', { 'w.ndjson': 30, 'x.ndjson': 5 }, { w: 1 }, 2),
    ]
    const folded = foldCheckpoints(lines)
    expect([...folded.keys()]).toEqual(['c', 'b'])
    expect(folded.get('c')).toEqual({ line: lines[2], ranges: { 'w.ndjson': [10, 25], 'x.ndjson': [0, 5] } })
    expect(folded.get('b')!.ranges).toEqual({ 'w.ndjson': [25, 30] })
    expect(doneTotals(folded)).toEqual({ records: 2, seconds: 6, items: { w: 3, x: 1 } })
    expect(doneTotals(foldCheckpoints([]))).toEqual({ records: 0, seconds: 0, items: {} })
  })
})
