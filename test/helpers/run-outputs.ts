// What a run directory holds that two runs of the same dataset must share byte for byte: its
// NDJSON outputs and the order of their lines (order.bin), and optionally the files under media/.
// progress.ndjson, checkpoints.ndjson and manifest.json hold times: they are compared apart.
import { readFileSync, readdirSync } from 'node:fs'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { filesUnder } from './tmp.ts'

const TIMED = new Set(['progress.ndjson', 'checkpoints.ndjson'])

/** File name -> content (order.bin in base64), and with `media`: `media/...` path -> sha256 of each media file. */
export function runOutputs(dir: string, opts: { media?: boolean } = {}): Record<string, string> {
  const files = readdirSync(dir).filter((f) => (f.endsWith('.ndjson') && !TIMED.has(f)) || f === 'order.bin').sort()
  const out: Record<string, string> = Object.fromEntries(files.map((f) => [f, readFileSync(path.join(dir, f), f === 'order.bin' ? 'base64' : 'utf8')]))
  if (opts.media) {
    for (const f of filesUnder(path.join(dir, 'media'))) out[`media/${f}`] = createHash('sha256').update(readFileSync(path.join(dir, 'media', f))).digest('hex')
  }
  return out
}
