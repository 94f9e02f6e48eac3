// One window's text for render-text (issue 4), one line per chosen lead:
//   <label> <hh:mm:ss.mmm> <rate>Hz: <v><sep><v><sep>...<v>\n
// with the values in mV as formatMvInto writes them (format-mv.ts) and the text's tokens counted
// while formatting (text-tokens.ts). writeWindowText formats into a Buffer it grows; a
// WindowTextWriter formats each window in the memory of the WebAssembly kernel
// (format-mv-wasm.ts) when the layout is its case (3 decimals, a 1-byte separator), with the
// same bytes and tokens, and otherwise like writeWindowText.
import { estimateTokens } from './estimate-tokens.ts'
import { formatMvInto, formatRun3, maxMvBytes, type Run3 } from './format-mv.ts'
import { instantiateTextKernel, TEXT_DATA } from './format-mv-wasm.ts'
import { createTokenTally, settleTally, type TokenTally } from './text-tokens.ts'

/** One window's text: a line per lead. */
export interface WindowText {
  labels: string[]
  startMs: number
  rate: number
  leads: Float32Array[]
}

/** hh:mm:ss.mmm from milliseconds (hours keep counting past 99). */
export function formatClock(ms: number): string {
  const t = Math.max(0, Math.round(ms))
  const pad = (n: number, w: number) => String(n).padStart(w, '0')
  return `${pad(Math.floor(t / 3_600_000), 2)}:${pad(Math.floor(t / 60_000) % 60, 2)}:${pad(Math.floor(t / 1000) % 60, 2)}.${pad(t % 1000, 3)}`
}

/** The rate as written in the header: an integer, or up to 3 decimals. */
export const formatRate = (hz: number): string => String(Number(hz.toFixed(3)))

const lineHeads = (w: WindowText): string[] => w.labels.map((label) => `${label} ${formatClock(w.startMs)} ${formatRate(w.rate)}Hz: `)

/** The most bytes a window's text takes, given its line heads. */
const mostBytes = (w: WindowText, heads: string[], separator: Uint8Array): number =>
  w.leads.reduce((n, x, l) => n + Buffer.byteLength(heads[l]) + maxMvBytes(x.length, separator.length) + 1, 0)

/**
 * Writes the lines of `heads` and `values` (a window's leads, or copies of them) into `out` from
 * byte 0, which has mostBytes free; returns the end and the tokens (by `tally`, or a scan).
 */
function formatLines(heads: string[], values: Float32Array[], decimals: number, separator: Uint8Array, out: Buffer, tally: TokenTally | null, runner: Run3): { end: number; tokens: number } {
  let at = 0
  if (tally) Object.assign(tally, { tokens: 0, from: 0, adjust: 0 }) // the first header is pending
  for (let l = 0; l < values.length; l++) {
    at += out.write(heads[l], at, 'utf8')
    at = formatMvInto(values[l], out, at, decimals, separator, tally, runner)
    // After a last value ending in a digit, the line break and the next header count from that digit.
    if (tally && tally.from < 0) Object.assign(tally, { from: at - 1, adjust: 1 })
    out[at++] = 10 // '\n'
  }
  if (!tally) return { end: at, tokens: estimateTokens(out, 0, at) }
  settleTally(tally, out, at)
  return { end: at, tokens: tally.tokens }
}

/**
 * Writes one window's text into `out` (grown when too small); returns the buffer, the end and the
 * text's estimateTokens count, counted while formatting with `tally` (made for the same decimals
 * and separator, src/render/text-tokens.ts) or else by a scan of the bytes.
 */
export function writeWindowText(w: WindowText, decimals: number, separator: Uint8Array, out: Buffer, tally?: TokenTally | null): { out: Buffer; end: number; tokens: number } {
  const heads = lineHeads(w)
  const need = mostBytes(w, heads, separator)
  if (out.length < need) out = Buffer.allocUnsafe(Math.max(need, 2 * out.length))
  return { out, ...formatLines(heads, w.leads, decimals, separator, out, tally ?? null, formatRun3) }
}

/** The text of consecutive windows: their bytes one after another, where each ends, and each one's tokens. */
export interface WindowsText {
  bytes: Uint8Array
  ends: Int32Array
  tokens: Int32Array
}

export interface WindowTextWriter {
  /** Whether windows are formatted by the WebAssembly kernel. */
  readonly wasm: boolean
  /** The windows' text; `bytes` is a view of the writer's buffer, valid until the next call (copy what is kept). */
  format(windows: readonly WindowText[]): WindowsText
}

/** A writer for one stage run or worker (its buffer is reused from call to call); `wasm: false` keeps to JavaScript. */
export function createWindowTextWriter(decimals: number, separator: Uint8Array, options: { wasm?: boolean } = {}): WindowTextWriter {
  // Tokens counted while formatting (null: the counting rule failed its self-check, scan instead).
  const tally = createTokenTally(decimals, separator)
  const kernel = decimals === 3 && separator.length === 1 ? instantiateTextKernel(options) : null
  let scratch: Buffer = Buffer.allocUnsafe(0)
  return {
    wasm: kernel !== null,
    format(windows) {
      const heads = windows.map(lineHeads)
      const needs = windows.map((w, k) => mostBytes(w, heads[k], separator))
      const total = needs.reduce((a, b) => a + b, 0)
      const ends = new Int32Array(windows.length)
      const tokens = new Int32Array(windows.length)
      // With the kernel, its memory from TEXT_DATA on: room for the largest window's values (each
      // window's are copied there in turn), then the text (with the 2 bytes past its end the
      // kernel's 8-byte stores may touch, within mostBytes' margin).
      const valueRoom = kernel ? 4 * windows.reduce((most, w) => Math.max(most, w.leads.reduce((n, x) => n + x.length, 0)), 0) : 0
      let out: Buffer
      if (kernel) {
        out = Buffer.from(kernel.reserve(TEXT_DATA + valueRoom + total), TEXT_DATA + valueRoom, total)
      } else {
        if (scratch.length < total) scratch = Buffer.allocUnsafe(Math.max(total, 2 * scratch.length))
        out = scratch
      }
      let at = 0
      windows.forEach((w, k) => {
        let values = w.leads
        if (kernel) {
          let v = TEXT_DATA
          values = w.leads.map((x) => {
            const copy = new Float32Array(out.buffer, v, x.length)
            copy.set(x)
            v += 4 * x.length
            return copy
          })
        }
        const r = formatLines(heads[k], values, decimals, separator, out.subarray(at, at + needs[k]), tally, kernel ? kernel.run3 : formatRun3)
        at += r.end
        ends[k] = at
        tokens[k] = r.tokens
      })
      return { bytes: out.subarray(0, at), ends, tokens }
    },
  }
}
