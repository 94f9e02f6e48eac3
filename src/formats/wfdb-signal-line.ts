// One signal line of a WFDB header (header(5)):
//   filename format[xsamplesperframe][:skew][+byteoffset] [gain[(baseline)][/units] [adcres
//   [adczero [initval [checksum [blocksize [description]]]]]]]
// Defaults follow the WFDB library: gain 0 or missing -> 200, baseline -> adczero, units -> mV,
// adcres 0 -> the format's width, initval -> adczero. The description is the rest of the line.

import { PipelineError } from '../core/errors.ts'
import { isSupportedWfdbFormat, SUPPORTED_WFDB_FORMATS, WFDB_DEFAULT_ADC_RESOLUTION } from './wfdb-formats.ts'
import type { WfdbFormat } from './wfdb-formats.ts'
import { toMvFactor } from './units.ts'

/** ADC units per physical unit that WFDB assumes for an uncalibrated signal. */
export const WFDB_DEFAULT_GAIN = 200

/** One signal of a WFDB record, as its header line describes it. */
export interface WfdbSignal {
  /** Position among the record's signals, from 0. */
  index: number
  /** 1-based line of the header that describes it. */
  line: number
  /** The .dat file holding its samples, relative to the header's directory. */
  fileName: string
  /** Storage format (signal(5)); only supported ones get this far. */
  format: WfdbFormat
  /** Samples per frame; always 1 (higher values are refused for now). */
  samplesPerFrame: number
  /** Skew in frames (`:skew`); the decoder reads frames, src/readers/wfdb-skew.ts re-aligns samples. */
  skew: number
  /** Bytes to skip at the start of the .dat (`+byteoffset`, the first signal of a file rules). */
  byteOffset: number
  /** ADC units per physical unit; 200 when the header gives 0 or nothing. */
  gain: number
  /** False when the header gave no gain or 0 (WFDB: uncalibrated, default gain used). */
  gainGiven: boolean
  /** Digital value of physical zero; adcZero when not given. */
  baseline: number
  /** Physical units as written; 'mV' when not given. */
  units: string
  /** Whether `units` is a voltage this project converts to mV. */
  unitsKnown: boolean
  /** Factor from `units` to mV (1 when the units are unknown: values are kept as they are). */
  toMv: number
  /** ADC resolution in bits (the format's width when the header gives 0 or nothing). */
  adcResolution: number
  /** Digital value at the middle of the ADC range. */
  adcZero: number
  /** Value of the first sample (needed by difference formats; kept for checks). */
  initialValue: number
  /** 16-bit checksum of all samples of the signal, when given. */
  checksum?: number
  /** Block size in bytes (0: none). */
  blockSize: number
  /** Description as written ('' when none). */
  description: string
  /** The description, or `signal N` when there is none. */
  label: string
}

/** The E_WFDB_HEADER error for a malformed field: where, what was expected, what was found, what to do. */
export function headerError(file: string, line: number, field: string, expected: string, found: string, todo: string): PipelineError {
  return new PipelineError(
    'E_WFDB_HEADER',
    `${file}:${line}: ${field}: expected ${expected}, found ${found}; ${todo}`,
    { file, line, field },
  )
}

/** Parses one signal line (already trimmed); `index` is the signal's position, `line` its line number. */
export function parseWfdbSignalLine(text: string, line: number, index: number, file: string): WfdbSignal {
  const tokens: { value: string; at: number }[] = []
  for (const m of text.matchAll(/\S+/g)) {
    if (tokens.length === 8) break
    tokens.push({ value: m[0], at: m.index })
  }
  const description = tokens.length === 8 ? text.slice(tokens[7].at + tokens[7].value.length).trim() : ''
  const tok = (i: number) => tokens[i]?.value
  const fail = (field: string, expected: string, found: string | undefined) =>
    headerError(file, line, `signal ${index} ${field}`, expected, found === undefined ? 'nothing' : `"${found}"`, `fix the signal line "${text}"`)
  const int = (i: number, field: string): number | undefined => {
    const v = tok(i)
    if (v === undefined) return undefined
    if (!/^[-+]?\d+$/.test(v)) throw fail(field, 'an integer', v)
    return Number(v)
  }

  const fm = /^(\d+)(?:x(\d+))?(?::(\d+))?(?:\+(\d+))?$/.exec(tok(1) ?? '')
  if (!fm) throw fail('format', 'format[xsamplesperframe][:skew][+byteoffset], e.g. 212 or 16+24', tok(1))
  const format = Number(fm[1])
  const label = description || `signal ${index}`
  if (!isSupportedWfdbFormat(format)) {
    throw new PipelineError(
      'E_WFDB_FORMAT',
      `${file}:${line}: signal ${index} (${label}): format ${format} is not supported; supported formats: ${SUPPORTED_WFDB_FORMATS.join(', ')}; convert the record (e.g. to format 16 with WFDB's xform or wfdb-python's wrsamp)`,
      { file, line, field: 'format', signal: index },
    )
  }
  const samplesPerFrame = fm[2] === undefined ? 1 : Number(fm[2])
  if (samplesPerFrame !== 1) {
    throw new PipelineError(
      'E_WFDB_FORMAT',
      `${file}:${line}: signal ${index} (${label}): ${samplesPerFrame} samples per frame (format ${tok(1)}) is not supported yet; expected 1; resample the record to one sample per frame`,
      { file, line, field: 'samplesPerFrame', signal: index },
    )
  }

  let gain = WFDB_DEFAULT_GAIN
  let gainGiven = false
  let baseline: number | undefined
  let units = 'mV'
  const g = tok(2)
  if (g !== undefined) {
    const gm = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?:\(([-+]?\d+)\))?(?:\/(\S+))?$/.exec(g)
    if (!gm) throw fail('gain', 'gain[(baseline)][/units], e.g. 200 or 74.36(0)/mV', g)
    if (Number(gm[1]) !== 0) {
      gain = Number(gm[1])
      gainGiven = true
    }
    if (gm[2] !== undefined) baseline = Number(gm[2])
    if (gm[3] !== undefined) units = gm[3]
  }
  const adcResolution = int(3, 'adcres') || WFDB_DEFAULT_ADC_RESOLUTION[format]
  const adcZero = int(4, 'adczero') ?? 0
  const factor = toMvFactor(units)
  return {
    index,
    line,
    fileName: tok(0),
    format,
    samplesPerFrame,
    skew: fm[3] === undefined ? 0 : Number(fm[3]),
    byteOffset: fm[4] === undefined ? 0 : Number(fm[4]),
    gain,
    gainGiven,
    baseline: baseline ?? adcZero,
    units,
    unitsKnown: factor !== null,
    toMv: factor ?? 1,
    adcResolution,
    adcZero,
    initialValue: int(5, 'initval') ?? adcZero,
    checksum: int(6, 'checksum'),
    blockSize: int(7, 'blocksize') ?? 0,
    description,
    label,
  }
}
