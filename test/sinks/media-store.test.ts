// One record's media store (src/sinks/media-store.ts), unit layer on a real run folder:
// <runDir>/media/rec1 is the store's folder, item paths are relative to <runDir>.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { createMediaStore } from '../../src/sinks/media-store.ts'
import { pipelineRejection, rejection } from '../helpers/thrown.ts'
import { filesUnder, tmpDir } from '../helpers/tmp.ts'

function setup(signal: AbortSignal = new AbortController().signal) {
  const runDir = tmpDir('hp-media-')
  const dir = path.join(runDir, 'media', 'rec1')
  return { runDir, dir, store: createMediaStore({ runDir, dir, signal }) }
}

const bytes = (s: string) => new Uint8Array(Buffer.from(s))

describe('media store', () => {
  it('write() makes the folders, and the file is whole under its name when it resolves, with no partial name left', async () => {
    const { runDir, dir, store } = setup()
    expect(store.dir).toBe(dir)
    const png = new Uint8Array(70_000).map((_, i) => i % 251)
    expect(await store.write('strips/0001.png', png)).toEqual({ path: 'media/rec1/strips/0001.png', bytes: 70_000 })
    expect(new Uint8Array(readFileSync(path.join(dir, 'strips', '0001.png')))).toEqual(png)
    expect(await store.write('b.txt', bytes('two'))).toEqual({ path: 'media/rec1/b.txt', bytes: 3 })
    expect(filesUnder(runDir)).toEqual(['media/rec1/b.txt', 'media/rec1/strips/0001.png'])
  })

  it('a write that fails (the record was aborted) leaves neither the name nor the partial name', async () => {
    const ac = new AbortController()
    const { runDir, store } = setup(ac.signal)
    ac.abort()
    const err = await rejection(store.write('x/clip.png', bytes('data')))
    expect(err.name).toBe('AbortError')
    expect(filesUnder(runDir)).toEqual([])

    // Aborted half way, once the partial file holds some of the bytes (writeFile looks at the
    // signal before each 512 KiB chunk): the partial file is removed too.
    let reads = 0
    const midway = { get aborted() { return ++reads > 1 }, reason: new DOMException('aborted', 'AbortError'), throwIfAborted() {}, addEventListener() {}, removeEventListener() {} } as unknown as AbortSignal
    const late = setup(midway)
    const half = await rejection(late.store.write('clip.png', new Uint8Array(4 << 20)))
    expect(half.name).toBe('AbortError')
    expect(filesUnder(late.runDir)).toEqual([])
  })

  it('append(): bytes are in the file as soon as write() resolves; offset counts them; close() ends it', async () => {
    const { dir, store } = setup()
    const file = path.join(dir, 'text', 'rec1.txt')
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, 'left by an interrupted attempt\n')
    const out = await store.append('text/rec1.txt')
    expect(out.path).toBe('media/rec1/text/rec1.txt')
    expect(out.offset).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe('') // what an interrupted attempt left is cut off
    const reused = bytes('first\n')
    await out.write(reused)
    reused.fill(0x21) // the caller may reuse its buffer at once
    expect(readFileSync(file, 'utf8')).toBe('first\n')
    expect(out.offset).toBe(6)
    await out.write(bytes('second\n'))
    expect((await store.read(out.path, { offset: 6, bytes: 7 })).toString()).toBe('second\n')
    await out.close()
    expect(out.offset).toBe(13)
    expect(readFileSync(file, 'utf8')).toBe('first\nsecond\n')
    // A second append would truncate what the first one's items name.
    expect((await pipelineRejection(store.append('text/rec1.txt'))).code).toBe('E_STAGE_OUTPUT')
    expect(readFileSync(file, 'utf8')).toBe('first\nsecond\n')
  })

  it('reserve(): gives another program a partial name in a made folder; adopt() gives the size, discard() removes the partial file', async () => {
    const { runDir, dir, store } = setup()
    const r = await store.reserve('video/clip.mp4')
    expect(r.file).toBe(path.join(dir, 'video', 'clip.mp4'))
    expect(r.partial).toBe(`${r.file}.partial`)
    expect(r.path).toBe('media/rec1/video/clip.mp4')
    expect(statSync(path.dirname(r.file)).isDirectory()).toBe(true)
    writeFileSync(r.partial, 'x'.repeat(1234)) // what ffmpeg does
    renameSync(r.partial, r.file)
    expect(await r.adopt()).toBe(1234)

    const failed = await store.reserve('video/other.mp4')
    writeFileSync(failed.partial, 'half')
    await failed.discard()
    expect(filesUnder(runDir)).toEqual(['media/rec1/video/clip.mp4'])
  })

  it('remove() deletes a file by its item path', async () => {
    const { runDir, store } = setup()
    const { path: p } = await store.write('a.png', bytes('a'))
    await store.write('b.png', bytes('b'))
    await store.remove(p)
    expect(filesUnder(runDir)).toEqual(['media/rec1/b.png'])
    // A file it did not write (another record's, an input run's) is refused and left alone.
    mkdirSync(path.join(runDir, 'media', 'rec2'), { recursive: true })
    writeFileSync(path.join(runDir, 'media', 'rec2', 'c.png'), 'c')
    expect((await pipelineRejection(store.remove('media/rec2/c.png'))).code).toBe('E_STAGE_OUTPUT')
    expect((await pipelineRejection(store.remove(p))).code).toBe('E_STAGE_OUTPUT') // already removed: no longer its own
    expect(filesUnder(runDir)).toEqual(['media/rec1/b.png', 'media/rec2/c.png'])
  })

  it("read() reads this run's files and an input run's (a path starting ../), whole or a byte range", async () => {
    const { runDir, store } = setup()
    const { path: p } = await store.write('a.bin', bytes('0123456789'))
    expect((await store.read(p)).toString()).toBe('0123456789')
    expect((await store.read(p, { offset: 3, bytes: 4 })).toString()).toBe('3456')
    expect((await store.read(p, { offset: 6, bytes: 4 })).toString()).toBe('6789')
    const other = path.join(path.dirname(runDir), `${path.basename(runDir)}-input`, 'media', 'r9', 'x.txt')
    mkdirSync(path.dirname(other), { recursive: true })
    writeFileSync(other, 'from the input run')
    const rel = store.relative(other)
    expect(rel).toBe(`../${path.basename(runDir)}-input/media/r9/x.txt`)
    expect(store.resolve(rel)).toBe(other)
    expect((await store.read(rel)).toString()).toBe('from the input run')
  })

  it.each([
    ['a missing file', 'media/rec1/none.bin', undefined, 'E_FILE_MISSING'],
    ['a range past the end', 'media/rec1/a.bin', { offset: 8, bytes: 3 }, 'E_IO'],
    ['a range starting past the end', 'media/rec1/a.bin', { offset: 20, bytes: 1 }, 'E_IO'],
  ])('read() of %s is %s', async (_, p, range, code) => {
    const { store } = setup()
    await store.write('a.bin', bytes('0123456789'))
    const err = (await rejection(store.read(p, range))) as PipelineError
    expect(err).toBeInstanceOf(PipelineError)
    expect(err.code).toBe(code)
    expect(err.message).toContain(p)
  })

  it('relative() and resolve() turn files into item paths (relative to the run, with "/") and back', () => {
    const { runDir, dir, store } = setup()
    const file = path.join(dir, 'a b', 'ü.png')
    expect(store.relative(file)).toBe('media/rec1/a b/ü.png')
    expect(store.resolve('media/rec1/a b/ü.png')).toBe(file)
    expect(store.resolve('../in/media/r/x.png')).toBe(path.resolve(runDir, '../in/media/r/x.png'))
  })

  it.each(['../x.png', '../../x.png', 'a/../../x.png', '../rec2/x.png', '/tmp/x.png', '', '.', 'a/..'])(
    'refuses %j, which is not a file inside the folder, with E_STAGE_OUTPUT in write, append and reserve, making nothing',
    async (rel) => {
      const { runDir, store } = setup()
      expect((await pipelineRejection(store.write(rel, bytes('x')))).code).toBe('E_STAGE_OUTPUT')
      expect((await pipelineRejection(store.append(rel))).code).toBe('E_STAGE_OUTPUT')
      expect((await pipelineRejection(store.reserve(rel))).code).toBe('E_STAGE_OUTPUT')
      expect(filesUnder(runDir)).toEqual([])
      expect(existsSync(path.join(runDir, 'media'))).toBe(false)
    },
  )

  it.each([
    ['..notes.txt', 'media/rec1/..notes.txt'],
    ['a/../b.txt', 'media/rec1/b.txt'],
    ['./c.txt', 'media/rec1/c.txt'],
  ])('accepts %j, which stays inside the folder', async (rel, item) => {
    const { runDir, store } = setup()
    expect((await store.write(rel, bytes('x'))).path).toBe(item)
    expect(filesUnder(runDir)).toEqual([item])
  })

  it('discardAll() removes every file the store made (closing open appenders first) and nothing else', async () => {
    const { runDir, dir, store } = setup()
    mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, 'not-ours.txt'), 'someone else put this here')
    await store.write('strips/1.png', bytes('png'))
    const open = await store.append('text/open.txt')
    await open.write(bytes('still open'))
    const closed = await store.append('text/closed.txt')
    await closed.write(bytes('done'))
    await closed.close()
    const r = await store.reserve('video/clip.mp4')
    writeFileSync(r.partial, 'mp4')
    renameSync(r.partial, r.file)
    await r.adopt()
    expect(filesUnder(runDir)).toHaveLength(5)

    await store.discardAll()
    expect(filesUnder(runDir)).toEqual(['media/rec1/not-ours.txt'])
    expect((await pipelineRejection(open.write(bytes('more')))).code).toBe('E_INTERNAL') // it was closed
    expect(filesUnder(runDir)).toEqual(['media/rec1/not-ours.txt'])
  })
})
