// `pipeline info <recording>`: what a recording holds, like WFDB's wfdbdesc or an EDF header
// viewer: format, start, duration, signals (label, rate, units, physical and digital ranges),
// annotation count, and warnings when the data on disk does not match the header.
import { guessFormat } from '../formats/recording-name.ts'
import { describeEdf } from './info-edf.ts'
import { describeWfdb } from './info-wfdb.ts'
import { renderInfo } from './info-render.ts'

export interface InfoSignal {
  index: number
  label: string
  fs: number
  units: string
  physicalMin: number | null
  physicalMax: number | null
  digitalMin: number
  digitalMax: number
  [extra: string]: unknown
}

/** Everything `info` reports, also printed as JSON with --json. */
export interface RecordingInfo {
  file: string
  format: string
  startTime: string | null
  durationSec: number
  samples: number
  patient?: Record<string, unknown>
  signals: InfoSignal[]
  annotations: { file: string | null; count: number; beats?: number; byType?: Record<string, number> }
  details: Record<string, unknown>
  comments?: string[]
  warnings: string[]
}

/** Prints a recording's description, warnings included; resolves with the exit code (0). */
export async function infoCommand(file: string, opts: { format?: 'edf' | 'wfdb'; json?: boolean; out: NodeJS.WritableStream }): Promise<number> {
  const format = opts.format ?? guessFormat(file)
  const info = format === 'edf' ? await describeEdf(file) : await describeWfdb(file)
  opts.out.write(opts.json ? JSON.stringify(info, null, 2) + '\n' : renderInfo(info))
  return 0
}
