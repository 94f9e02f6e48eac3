// The context of stages streaming one recording outside a run directory (`pipeline beats`,
// `render`, `convert --clean`, benchmarks and tests): warnings go where the caller says, media
// under a folder it names, run services without a cache (a command has no run directory to keep
// one in), no item journal, counters dropped.
import { PipelineError } from '../core/errors.ts'
import type { RecordSpec } from '../core/record.ts'
import type { StageContext } from '../core/stage.ts'
import { createMediaStore } from '../sinks/media-store.ts'
import { createRunServices } from './run-services.ts'
import type { SharedContext } from './run-record.ts'

export interface LocalContextOptions {
  signal: AbortSignal
  warn(code: string, message: string): void
  /** Named in the error a journal call gets (e.g. "pipeline render"). */
  what: string
  /** Item paths are relative to this folder (default: the working folder). */
  runDir?: string
  /** Where media go (default: runDir). */
  mediaDir?: string
}

/** What stages share when one recording is streamed outside a run (see streamRecord). */
export function localShared(o: LocalContextOptions): SharedContext & { mediaDir: string } {
  const runDir = o.runDir ?? process.cwd()
  return {
    signal: o.signal,
    runDir,
    mediaDir: o.mediaDir ?? runDir,
    warn: (code, message) => o.warn(code, message),
    journal: () => Promise.reject(new PipelineError('E_USAGE', `item journals exist only inside \`pipeline run\`, not in ${o.what}`)),
    count: () => undefined,
    run: createRunServices({ cacheDir: null }),
  }
}

/** A whole stage context for calling one stage's transform directly. */
export function localStageContext<O>(record: RecordSpec, options: O, o: LocalContextOptions): StageContext<O> {
  const shared = localShared(o)
  const media = createMediaStore({ runDir: shared.runDir, dir: shared.mediaDir, signal: o.signal })
  const { mediaDir: _dir, ...rest } = shared
  return { recordId: record.id, recordIndex: 0, record, records: [record], options, ...rest, media, mediaDir: media.dir }
}
