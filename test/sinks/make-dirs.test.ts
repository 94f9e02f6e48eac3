// makeDirs (src/sinks/make-dirs.ts), unit layer on real folders: `mkdir -p` that fails at once.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { makeDirs } from '../../src/sinks/make-dirs.ts'
import { rejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

async function ioError(p: Promise<unknown>): Promise<PipelineError> {
  const err = await rejection(p)
  expect(err).toBeInstanceOf(PipelineError)
  expect((err as PipelineError).code).toBe('E_IO')
  return err as PipelineError
}

describe('makeDirs', () => {
  it('makes a folder and its missing parents, and does nothing to one that exists', async () => {
    const root = tmpDir('hp-dirs-')
    const deep = path.join(root, 'a', 'b', 'c')
    await makeDirs(deep)
    expect(statSync(deep).isDirectory()).toBe(true)
    writeFileSync(path.join(deep, 'kept.txt'), 'x')
    await makeDirs(deep)
    await makeDirs(path.join(root, 'a'))
    expect(existsSync(path.join(deep, 'kept.txt'))).toBe(true)
  })

  it('lets several callers make the same folders at once', async () => {
    const root = tmpDir('hp-dirs-')
    const deep = path.join(root, 'x', 'y', 'z')
    await Promise.all([makeDirs(deep), makeDirs(deep), makeDirs(path.join(deep, 'w')), makeDirs(path.join(root, 'x', 'y'))])
    expect(statSync(path.join(deep, 'w')).isDirectory()).toBe(true)
  })

  it.each([
    ['the folder itself', (file: string) => file],
    ['a parent', (file: string) => path.join(file, 'sub', 'deeper')],
  ])('is E_IO saying so when %s is a file, and makes nothing', async (_, target) => {
    const root = tmpDir('hp-dirs-')
    const file = path.join(root, 'plain.txt')
    writeFileSync(file, 'not a folder')
    const dir = target(file)
    const err = await ioError(makeDirs(dir, 'the run directory'))
    expect(err.message).toContain(`cannot create the run directory ${dir}`)
    expect(err.message).toContain(`${file} is a file, not a folder`)
    expect(err.context.file).toBe(dir)
    expect(statSync(file).isFile()).toBe(true)
  })

  it('a refused mkdir is E_IO naming the folder it was at, with the cause', async () => {
    const root = tmpDir('hp-dirs-')
    mkdirSync(path.join(root, 'ok'))
    // A name longer than any file system allows: refused by mkdir (ENAMETOOLONG), not by stat.
    const dir = path.join(root, 'ok', 'n'.repeat(300), 'inner')
    const err = await ioError(makeDirs(dir, 'the media folder'))
    expect(err.message).toContain(`cannot create the media folder ${dir}`)
    expect((err.cause as NodeJS.ErrnoException).code).toBe('ENAMETOOLONG')
    expect(existsSync(path.join(root, 'ok'))).toBe(true)
  })

  // Node's recursive mkdir spins for ever here; the race is a hang guard, not a timing check.
  it.skipIf(!existsSync('/proc'))('rejects /proc/nope at once with E_IO instead of looping', { timeout: 10_000 }, async () => {
    let guard: NodeJS.Timeout | undefined
    const hang = new Promise<never>((_, reject) => {
      guard = setTimeout(() => reject(new Error('makeDirs("/proc/nope") was still running after 3 s')), 3_000)
    })
    try {
      const err = await ioError(Promise.race([makeDirs('/proc/nope', 'the output folder'), hang]))
      expect(err.message).toContain('cannot create the output folder /proc/nope')
      expect(err.context.file).toBe('/proc/nope')
    } finally {
      clearTimeout(guard)
    }
  })
})
