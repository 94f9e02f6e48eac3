// Scores of text pairs kept across scoring runs (F1-Bio with a local BERT: minutes to hours on a
// CPU for a big run), so scoring again, or after adding a model, computes only the pairs it has
// not scored with the same settings. One NDJSON file per settings signature under the folder,
// <dir>/<sha256(signature) 16 hex>.ndjson, its first line the signature, then one line per pair:
// {"k": <sha256 of the pair's key>, "v": <score, or null for "undefined">}. Lines are appended a
// batch at a time, so an interrupted scoring keeps the batches it finished; a torn last line is
// skipped when the file is read again. Another signature (model file, layer, idf, rescaling)
// never reads this file.
import { createHash } from 'node:crypto'
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { hashConfig } from './config-hash.ts'

export interface PairScoreCache {
  /** The folder's file for this signature. */
  file: string
  /** The score kept for `key` (null: kept as undefined), or undefined when none is. */
  get(key: string): number | null | undefined
  put(key: string, value: number | null): void
  /** Appends what was put since the last flush. */
  flush(): Promise<void>
  /** Scores found and scores stored since the cache was opened. */
  counts: { hits: number; stored: number }
}

/** The sha256 hex of a pair's key parts (settings that vary per call, the two texts). */
export function pairKey(...parts: string[]): string {
  return hashConfig(parts)
}

/** Opens (reading what it holds) the cache of `signature` under `dir`. */
export async function openPairScoreCache(dir: string, signature: string): Promise<PairScoreCache> {
  const file = path.join(dir, `${createHash('sha256').update(signature).digest('hex').slice(0, 16)}.ndjson`)
  const kept = new Map<string, number | null>()
  let text: string | undefined
  try {
    text = await readFile(file, 'utf8')
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw new PipelineError('E_IO', `cannot read the score cache ${file}: ${(cause as Error).message}`, { file }, { cause })
  }
  let pending: string[] = []
  if (text === undefined) {
    pending.push(JSON.stringify({ signature }))
  } else {
    const [head, ...lines] = text.split('\n')
    const declared = (() => {
      try {
        return (JSON.parse(head) as { signature?: unknown }).signature
      } catch {
        return undefined
      }
    })()
    if (declared !== signature) throw new PipelineError('E_CHECKPOINT', `the score cache ${file} was written for other settings (${String(declared).slice(0, 120)}); delete it or name another cache folder`, { file })
    for (const line of lines) {
      try {
        const o = JSON.parse(line) as { k?: unknown; v?: unknown }
        if (typeof o.k === 'string' && (typeof o.v === 'number' || o.v === null)) kept.set(o.k, o.v)
      } catch {
        // A torn line from an interrupted append: that pair is scored again.
      }
    }
    // A torn last line ends without a newline: start the next append on a line of its own.
    if (!text.endsWith('\n')) pending.push('')
  }
  const counts = { hits: 0, stored: 0 }
  return {
    file,
    counts,
    get(key) {
      const v = kept.get(key)
      if (v !== undefined) counts.hits++
      return v
    },
    put(key, value) {
      if (kept.has(key)) return
      kept.set(key, value)
      pending.push(JSON.stringify({ k: key, v: value }))
      counts.stored++
    },
    async flush() {
      if (!pending.length) return
      const lines = pending
      pending = []
      try {
        await mkdir(dir, { recursive: true })
        await appendFile(file, lines.join('\n') + '\n')
      } catch (cause) {
        throw new PipelineError('E_IO', `cannot write the score cache ${file}: ${(cause as Error).message}`, { file }, { cause })
      }
    },
  }
}
