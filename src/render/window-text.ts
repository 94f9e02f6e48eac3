// One window's text for render-text, one line per chosen lead:
//   <label> <hh:mm:ss.mmm> <rate>Hz: <v><sep><v><sep>...<v>\n
// with the values in mV as formatMvInto writes them (format-mv.ts) and the text's tokens counted
// while formatting (text-tokens.ts). A WindowTextWriter formats each window in the memory of the
// WebAssembly kernel (format-mv-wasm.ts) when the layout is its case (3 decimals, a 1-byte
// separator), else in a buffer of its own with formatRun3; the bytes and tokens are the same.
import { formatElapsed } from './elapsed.ts'
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

/** The rate as written in the header: an integer, or up to 3 decimals. */
const formatRate = (hz: number): string => String(Number(hz.toFixed(3)))

/**
 * Writes the lines of `heads` and `values` into `out` from byte 0 (it has room for the most they
 * take); returns the end and the tokens (counted by `tally`, or by a scan without one).
 */
function formatLines(heads: string[], values: Float32Array[], decimals: number, separator: Uint8Array, out: Buffer, tally: TokenTally | null, runner: Run3): { end: number; tokens: number } {
  let at = 0
  if (tally) {
    // The first header is pending: counted with the first value that ends in a digit.
    tally.tokens = 0
    tally.from = 0
    tally.adjust = 0
  }
  for (let l = 0; l < values.length; l++) {
    at += out.write(heads[l], at, 'utf8')
    at = formatMvInto(values[l], out, at, decimals, separator, tally, runner)
    if (tally && tally.from < 0) {
      // After a last value ending in a digit, the line break and the next header count from that digit.
      tally.from = at - 1
      tally.adjust = 1
    }
    out[at++] = 10 // '\n'
  }
  if (!tally) return { end: at, tokens: estimateTokens(out, 0, at) }
  settleTally(tally, out, at)
  return { end: at, tokens: tally.tokens }
}

export interface WindowTextWriter {
  /** Whether windows are formatted by the WebAssembly kernel. */
  readonly wasm: boolean
  /** A window's text (a view of the writer's buffer, valid until the next call: copy what is kept) and its tokens. */
  format(w: WindowText): { bytes: Uint8Array; tokens: number }
}

/** A writer for one stage run (its buffer is reused from window to window); `wasm: false` keeps to JavaScript. */
export function createWindowTextWriter(decimals: number, separator: Uint8Array, options: { wasm?: boolean } = {}): WindowTextWriter {
  // Tokens counted while formatting (null: the counting rule failed its self-check, scan instead).
  const tally = createTokenTally(decimals, separator)
  const kernel = decimals === 3 && separator.length === 1 ? instantiateTextKernel(separator[0], options) : null
  let scratch: Buffer = Buffer.allocUnsafe(0)
  return {
    wasm: kernel !== null,
    format(w) {
      const clock = formatElapsed(w.startMs)
      const rate = formatRate(w.rate)
      const heads = w.labels.map((label) => `${label} ${clock} ${rate}Hz: `)
      const need = w.leads.reduce((n, x, l) => n + Buffer.byteLength(heads[l]) + maxMvBytes(x.length, separator.length) + 1, 0)
      let values = w.leads
      let out: Buffer
      if (kernel) {
        // The kernel's memory from TEXT_DATA on: the values, then the text (with the 2 bytes
        // past its end the kernel's 8-byte stores may touch, within maxMvBytes' margin).
        const valueBytes = 4 * w.leads.reduce((n, x) => n + x.length, 0)
        const memory = kernel.reserve(TEXT_DATA + valueBytes + need)
        let at = TEXT_DATA
        values = w.leads.map((x) => {
          const copy = new Float32Array(memory, at, x.length)
          copy.set(x)
          at += 4 * x.length
          return copy
        })
        out = Buffer.from(memory, at, need)
      } else {
        if (scratch.length < need) scratch = Buffer.allocUnsafe(Math.max(need, 2 * scratch.length))
        out = scratch
      }
      const { end, tokens } = formatLines(heads, values, decimals, separator, out, tally, kernel ? kernel.run3 : formatRun3)
      return { bytes: out.subarray(0, end), tokens }
    },
  }
}
