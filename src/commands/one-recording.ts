// What the commands that work on one recording without a dataset file (`pipeline beats`,
// `pipeline render`) share: reading --lead and the context their stages get.
import type { SharedContext } from '../run/run-record.ts'
import { localShared } from '../run/local-context.ts'

/** A --lead value: an index when it is all digits, else a label. */
export const leadArg = <T>(lead: T): T | number => (typeof lead === 'string' && /^\d+$/.test(lead) ? Number(lead) : lead)

/** The stages' context: warnings to `err`, the working folder for media, no item journals. */
export function commandContext(signal: AbortSignal, err: { write(s: string): unknown }, command: string): SharedContext & { mediaDir: string } {
  return localShared({ signal, warn: (code, message) => err.write(`warning: ${code}: ${message}\n`), what: `\`pipeline ${command}\`` })
}
