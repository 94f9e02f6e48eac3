// Appends progress events to `progress.ndjson` as they happen, so `pipeline tail` in another
// terminal sees them within moments. Lines are small and few (record-progress is throttled by
// the runner), so an append-mode stream is enough; `close` waits for every line to land.
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import path from 'node:path'
import type { ProgressEvent } from './progress-events.ts'
import { cutTornTail } from './ndjson-file.ts'

export const PROGRESS_FILE = 'progress.ndjson'

export interface ProgressLog {
  write(event: ProgressEvent): void
  close(): Promise<void>
}

/** Opens the run's progress log for appending (a torn last line from a crash is cut first); `listener` sees every event too. */
export async function openProgressLog(runDir: string, listener?: (e: ProgressEvent) => void): Promise<ProgressLog> {
  // Progress is a log, not data: only its end is looked at (a damaged line before it is skipped
  // by tail and must not stop a run), and it is never read whole.
  await cutTornTail(path.join(runDir, PROGRESS_FILE))
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
