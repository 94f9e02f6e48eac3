// A content-addressed cache (design.md "Run directory and resume": model calls cached by a hash of
// model and request): values are stored under the sha256 of their key's canonical JSON, one file
// each (<dir>/<namespace>/<2 hex>/<hash>.json), written under a partial name and renamed when
// complete (linked, so the first value stored for a key stays), so a crash never leaves a torn
// entry and two writers of one key never mix their bytes. It
// lives outside what --restart clears (the run directory's cache/ folder by default, or any
// folder the dataset names, shared by several runs).
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { ContentCache } from '../core/services.ts'
import { hashConfig } from './config-hash.ts'

/** The cache of `namespace` under `dir`. */
export function createContentCache(dir: string, namespace: string): ContentCache {
  // "." and ".." pass the character check but name the cache folder itself or the one above it.
  if (!/^[A-Za-z0-9._-]+$/.test(namespace) || namespace === '.' || namespace === '..') {
    throw new PipelineError('E_USAGE', `cache namespace "${namespace}" must use letters, digits, ".", "_" or "-" (and be neither "." nor "..")`, { field: 'cache' })
  }
  const root = path.join(dir, namespace)
  const fileOf = (key: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new PipelineError('E_USAGE', `cache key "${key}" is not a sha256 hex digest; make keys with cache.key(value)`, { field: 'key' })
    return path.join(root, key.slice(0, 2), `${key}.json`)
  }
  return {
    dir: root,
    key: hashConfig,
    async get<T>(key: string): Promise<T | undefined> {
      const file = fileOf(key)
      let text: string
      try {
        text = await readFile(file, 'utf8')
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw new PipelineError('E_IO', `cannot read cache entry ${file}: ${(err as Error).message}`, { file }, { cause: err })
      }
      try {
        return (JSON.parse(text) as { value: T }).value
      } catch (cause) {
        throw new PipelineError('E_CHECKPOINT', `cache entry ${file} is not valid JSON; delete it (the entry is made again)`, { file }, { cause })
      }
    },
    async put(key, value) {
      const file = fileOf(key)
      const tmp = `${file}.partial-${process.pid}-${Math.random().toString(36).slice(2)}`
      try {
        await mkdir(path.dirname(file), { recursive: true })
        await writeFile(tmp, JSON.stringify({ key, value }) + '\n', { flag: 'wx' })
        await link(tmp, file).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err
        })
        await rm(tmp, { force: true })
      } catch (err) {
        await rm(tmp, { force: true }).catch(() => undefined)
        throw new PipelineError('E_IO', `cannot write cache entry ${file}: ${(err as Error).message}`, { file }, { cause: err })
      }
    },
  }
}
