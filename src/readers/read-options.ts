// Options of the `read` stage (the record itself, its leads and annotator, come from `records:`).
import { parseOptionsWith, z } from '../core/stage-options.ts'
import type { OptionsSource } from '../core/stage.ts'

const schema = z.strictObject({
  /** Signal seconds per emitted block (rounded to whole EDF data records). */
  blockSeconds: z.number().positive().max(600).default(10),
  /** A file cut short inside its data: 'warn' reads the complete part and warns; 'fail' fails the record. */
  onTruncated: z.enum(['warn', 'fail']).default('warn'),
  /** Emit reference annotations (WFDB annotator file, EDF+ TALs). */
  annotations: z.boolean().default(true),
})

export type ReadOptions = z.infer<typeof schema>

/** Validates the read stage's options. */
export function parseReadOptions(raw: unknown, where: OptionsSource): ReadOptions {
  return parseOptionsWith(schema, raw, where)
}

export const DEFAULT_READ_OPTIONS: ReadOptions = schema.parse({})
