// Header facts for WFDB -> EDF+ conversion: data record length and start date/time.
import { PipelineError } from '../core/errors.ts'
import type { WfdbHeader } from '../formats/wfdb-header.ts'
import type { EdfTimeParts } from '../formats/edf-writer.ts'

/** The shortest data record duration (s) holding a whole number of samples. */
export function recordDurationFor(fs: number, file: string): number {
  for (const d of [1, 2, 4, 5, 10]) if (Math.abs(fs * d - Math.round(fs * d)) < 1e-9) return d
  throw new PipelineError('E_USAGE', `sampling rate ${fs} Hz gives no whole number of samples in a data record of 1, 2, 4, 5 or 10 s; resample the record first`, { file, field: 'fs' })
}

/** The record's start (WFDB base date and time), or 01.01.1985 00:00:00, EDF+'s "unknown" date. */
export function edfStartOf(h: WfdbHeader): EdfTimeParts {
  const [day, month, year] = (h.baseDate ?? '01/01/1985').split('/').map(Number)
  const [hour, minute, second] = (h.baseTime ?? '0:0:0').split('.')[0].split(':').map(Number)
  const pad = [hour, minute, second].filter((x) => !Number.isNaN(x))
  while (pad.length < 3) pad.unshift(0)
  return { year, month, day, hour: pad[0], minute: pad[1], second: pad[2] }
}
