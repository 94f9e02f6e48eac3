// Appends progress events to `progress.ndjson` as they happen, so `pipeline tail` in another
// terminal sees them within moments. Lines are small and few (record-progress is throttled by
// the runner), so an append-mode stream is enough; `close` waits for every line to land.
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import path from 'node:path'
import type { ProgressEvent } from '../core/progress-events.ts'

export const PROGRESS_FILE = 'progress.ndjson'

export interface ProgressLog {
  write(event: ProgressEvent): void
  close(): Promise<void>
}

/** Opens the run's progress log for appending; `listener` sees every event too (live display). */
export function openProgressLog(runDir: string, listener?: (e: ProgressEvent) => void): ProgressLog {
  const ws = createWriteStream(path.join(runDir, PROGRESS_FILE), { flags: 'a' })
  let failed: Error | null = null
  ws.on('error', (err) => {
    failed = err
  })
  return {
    write(event) {
      listener?.(event)
      if (!failed) ws.write(JSON.stringify(event) + '\n')
    },
    async close() {
      if (failed) throw failed
      ws.end()
      await once(ws, 'close')
    },
  }
}
