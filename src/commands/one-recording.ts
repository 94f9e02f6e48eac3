// What the commands that work on one recording without a dataset file (`pipeline beats`,
// `pipeline render`) share: reading --lead, the context their stages get, and refusing an output
// whose folder does not exist before any work is done.
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { SharedContext } from '../run/run-record.ts'

/** A --lead value: an index when it is all digits, else a label. */
export const leadArg = <T>(lead: T): T | number => (typeof lead === 'string' && /^\d+$/.test(lead) ? Number(lead) : lead)

/** The stages' context: warnings to `err`, the working folder for media, no item journals. */
export function commandContext(signal: AbortSignal, err: { write(s: string): unknown }, command: string): SharedContext {
  return {
    signal, runDir: process.cwd(), mediaDir: process.cwd(),
    warn: (code, message) => err.write(`warning: ${code}: ${message}\n`),
    journal: () => Promise.reject(new PipelineError('E_USAGE', `item journals exist only inside \`pipeline run\`, not in \`pipeline ${command}\``)),
  }
}

/** Refuses `file` (given as `flag value`) when the folder it would go in does not exist. */
export async function checkParentFolder(file: string, flag: string): Promise<void> {
  const dir = path.dirname(path.resolve(file))
  const st = await stat(dir).catch(() => null)
  if (!st?.isDirectory()) throw new PipelineError('E_USAGE', `${flag} ${file}: the folder ${dir} does not exist; create it first`, { file })
}
