// An excerpt's text at a lower rate, for the infer stage's `downsample` budget policy: the text
// render-text wrote (docs/stages/render-text.md, one line per lead,
// `<label> <hh:mm:ss.mmm> <rate>Hz: <v><sep><v>...`) is read back, each line resampled on its own
// with render-text's resampler (src/render/resample.ts, anti-aliased as its `rate` option) and
// written again by render-text's writer (window-text.ts), so the values, header and token count
// are what render-text would give for those samples at that rate.
// Rates tried: the original divided by an integer factor 2, 3, 4, ... whose rate has at most 3
// decimals (360 Hz: 180, 120, 90, 72, 60, 45, 40, 36, 30, 24, 20, 18, 15, 12, 10; 250 Hz: 125,
// 62.5, 50, 31.25, 25, 12.5, 10). Why not "nice" rates such as 100 or 50 Hz: with an integer
// factor every output value sits on an original sample (value k is sample k * factor), so the
// line's start time and the times a model computes from the header stay exact, and a rate of at
// most 3 decimals is written exactly in the header (render-text writes 3). The candidates are few
// (rate / minRate), each costs about 20 multiply-adds per input value whatever the factor, and
// they are all tried in order, so the highest rate that fits is found without assuming that the
// tokens fall monotonically with the rate. The lowest rate tried is the lowest candidate at or
// above minRate.
import { PipelineError } from '../core/errors.ts'
import { estimateTokens } from '../render/estimate-tokens.ts'
import { createResampler, type Resampler } from '../render/resample.ts'
import { createWindowTextWriter, type WindowTextWriter } from '../render/window-text.ts'

/** One lead's line as render-text writes it. */
export interface EcgTextLine {
  label: string
  /** The span's start as written, hh:mm:ss.mmm. */
  time: string
  rate: number
  values: Float32Array
  decimals: number
  separator: string
}

const HEAD = /^(.+?) (\d{2,}):(\d{2}):(\d{2})\.(\d{3}) (\d+(?:\.\d{1,3})?)Hz: /
const FIRST_VALUE = /^(?:-?\d+(?:\.\d+)?|NaN|-?Infinity)/
const LAYOUT = '"<label> <hh:mm:ss.mmm> <rate>Hz: <v><sep><v>...", as render-text writes it'

/** The lines of render-text's text; E_MODEL_INPUT naming the first line that is not in its layout. */
export function parseEcgText(text: string): { lines: EcgTextLine[] } {
  const rows = text.split('\n')
  if (rows.at(-1) === '') rows.pop()
  return { lines: rows.map((row, i) => parseLine(row, i + 1)) }
}

function parseLine(row: string, n: number): EcgTextLine {
  const bad = (what: string) => {
    const shown = row.length > 60 ? `${row.slice(0, 60)}...` : row
    return new PipelineError('E_MODEL_INPUT', `line ${n} of the ECG text ${what}: found "${shown}"; expected ${LAYOUT} (pass the text unchanged)`, { line: n })
  }
  const head = HEAD.exec(row)
  if (!head) throw bad('has no header')
  const body = row.slice(head[0].length)
  const first = FIRST_VALUE.exec(body)?.[0] ?? ''
  let separator = ','
  let tokens = body === '' ? [] : [body]
  // The separator (1 to 8 characters without digits, '.' or '-'): what lies between the first
  // value and the next thing that reads as a value.
  if (first && body.length > first.length) {
    const rest = body.slice(first.length)
    const k = [1, 2, 3, 4, 5, 6, 7, 8].find((len) => len < rest.length && FIRST_VALUE.test(rest.slice(len)))
    if (k === undefined) throw bad(`has no separator of 1 to 8 characters and a second value after its first value "${first}"`)
    separator = rest.slice(0, k)
    tokens = body.split(separator)
  }
  const finite = tokens.find((t) => t !== 'NaN' && !t.endsWith('Infinity'))
  const decimals = finite?.includes('.') ? finite.length - finite.indexOf('.') - 1 : finite === undefined ? 3 : 0
  const shape = new RegExp(`^(?:-?\\d+${decimals ? `\\.\\d{${decimals}}` : ''}|NaN|-?Infinity)$`)
  const values = new Float32Array(tokens.length)
  for (let i = 0; i < tokens.length; i++) {
    if (!shape.test(tokens[i])) throw bad(`has value ${i + 1} "${tokens[i].slice(0, 24)}", not a number with ${decimals} decimals as the first one`)
    values[i] = Number(tokens[i])
  }
  const [, label, hh, mm, ss, ms, rate] = head
  return { label, time: `${hh}:${mm}:${ss}.${ms}`, rate: Number(rate), values, decimals, separator }
}

/** The result of downsampleEcgText: the text at `rate` (fromRate / factor) and its estimated tokens. */
export interface DownsampledText {
  text: string
  rate: number
  fromRate: number
  tokens: number
  factor: number
}

/**
 * The text at the highest rate (fromRate / an integer factor, see the top) whose estimateTokens
 * fit `maxTokens`; the text itself (factor 1) when it fits already, null when no rate down to
 * `minRate` (default 10 Hz) fits.
 */
export function downsampleEcgText(text: string, opts: { maxTokens: number; minRate?: number }): DownsampledText | null {
  const { maxTokens, minRate = 10 } = opts
  if (!(maxTokens >= 0)) throw new PipelineError('E_CONFIG_VALUE', `maxTokens must be a number >= 0, found ${maxTokens}`, { field: 'maxTokens' })
  if (!(minRate > 0)) throw new PipelineError('E_CONFIG_VALUE', `minRate must be a number of Hz above 0, found ${minRate}`, { field: 'minRate' })
  const { lines } = parseEcgText(text)
  if (lines.length === 0) throw new PipelineError('E_MODEL_INPUT', `the ECG text has no lines; expected ${LAYOUT}`, {})
  const fromRate = lines[0].rate
  const other = lines.findIndex((l) => l.rate !== fromRate)
  if (other >= 0) throw new PipelineError('E_MODEL_INPUT', `line ${other + 1} of the ECG text is at ${lines[other].rate} Hz, line 1 at ${fromRate} Hz; downsample one record's text, written at one rate`, { line: other + 1 })
  const original = estimateTokens(Buffer.from(text, 'utf8'))
  if (original <= maxTokens) return { text, rate: fromRate, fromRate, tokens: original, factor: 1 }
  const writers = new Map<string, WindowTextWriter>()
  for (let factor = 2; fromRate / factor >= minRate; factor++) {
    const rate = fromRate / factor
    if (Number(rate.toFixed(3)) !== rate) continue // not written exactly in the header
    const bytes = writeLines(lines, createResampler(fromRate, rate), writers, text.endsWith('\n'))
    const tokens = estimateTokens(bytes)
    if (tokens <= maxTokens) return { text: bytes.toString('utf8'), rate, fromRate, tokens, factor }
  }
  return null
}

// The lines resampled by `rs`, each written by render-text's writer for its decimals and separator.
function writeLines(lines: EcgTextLine[], rs: Resampler, writers: Map<string, WindowTextWriter>, finalBreak: boolean): Buffer {
  const parts = lines.map((l) => {
    const key = `${l.decimals}\n${l.separator}`
    let writer = writers.get(key)
    if (!writer) writers.set(key, (writer = createWindowTextWriter(l.decimals, Buffer.from(l.separator, 'utf8'))))
    const { bytes } = writer.format({ labels: [l.label], startMs: parseElapsed(l.time), rate: rs.toHz, leads: [rs.apply(l.values)] })
    return Buffer.from(bytes) // the writer reuses its buffer
  })
  const all = Buffer.concat(parts)
  return finalBreak ? all : all.subarray(0, all.length - 1)
}

// Milliseconds of hh:mm:ss.mmm (the inverse of formatElapsed).
function parseElapsed(time: string): number {
  const [h, m, s] = time.split(':').map(Number)
  return Math.round((h * 3600 + m * 60 + s) * 1000)
}
