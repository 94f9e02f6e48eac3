// The WebAssembly kernel of render-text's common case (scripts/wasm-text-kernels.mjs, assembled
// into text-kernels.wasm.ts): values below 10 mV at 3 decimals with a 1-byte separator, the same
// bytes and token counts as formatRun3 (format-mv.ts), whose contract it meets, so formatMvInto
// takes either. It reads and writes its own memory: a caller puts the values and the text there
// (`reserve`, then views from TEXT_DATA on); with views of any other memory it runs formatRun3.
// Formatting is most of render-text's own work (bench/results/profile-render-text.md). Without
// WebAssembly SIMD, or `wasm: false`, there is no kernel and callers keep formatRun3.
import { instantiateGrowable, lazyWasmModule } from '../dsp/wasm-module.ts'
import { formatRun3, HEAD3, LAST3, type Run3 } from './format-mv.ts'
import { TEXT_KERNELS_WASM, TEXT_TABLES } from './text-kernels-wasm-bytes.ts'
import { shapeIndex } from './text-tokens.ts'

/** The first byte of the kernel's memory free for values and text (below: its results and table). */
export const TEXT_DATA = 1 << 18
/** Rounded values the table holds: -LIMIT to LIMIT (below 10 at 3 decimals). */
const LIMIT = 9999

export interface TextKernel {
  /** The memory, at least `bytes` long (grown when needed: take views after each call). */
  reserve(bytes: number): ArrayBuffer
  /** formatRun3 in WebAssembly, for values and text in `reserve`'s memory. */
  run3: Run3
  /** Runs the kernel wrote (not its fallback), so tests can tell which one did. */
  readonly calls: number
}

const textModule = lazyWasmModule(TEXT_KERNELS_WASM)

/** Fills the table: for each m, the separator then the text of m / 1000 (a '-' only below zero). */
function fillTable(memory: ArrayBuffer, sep: number): void {
  const table = new Uint8Array(memory, TEXT_TABLES, 8 * (2 * LIMIT + 1))
  for (let m = -LIMIT; m <= LIMIT; m++) {
    const n = Math.abs(m)
    let at = 8 * (m + LIMIT)
    table[at++] = sep
    if (m < 0) table[at++] = 45 // '-'
    for (let k = 0; k < 4; k++) table[at++] = (HEAD3[n] >>> (8 * k)) & 255
    table[at] = LAST3[n]
  }
}

/**
 * A kernel for 1-byte separator `sep`, with a memory of its own (one per stage run, never
 * shared); null without WebAssembly SIMD or with `wasm: false`. Asked for another separator, its
 * run3 runs formatRun3.
 */
export function instantiateTextKernel(sep: number, options: { wasm?: boolean } = {}): TextKernel | null {
  const module = options.wasm === false ? null : textModule()
  if (!module) return null
  const { exports, reserve } = instantiateGrowable<{ run3(p: number, end: number, at: number): number }>(module)
  let memory = reserve(TEXT_DATA)
  // Addresses and the write end as unsigned (>>> 0): a memory past 2 GiB would read negative.
  let results = new Uint32Array(memory, 0, 2)
  fillTable(memory, sep)
  let calls = 0
  return {
    get calls() {
      return calls
    },
    reserve(bytes) {
      memory = reserve(bytes)
      if (results.buffer !== memory) results = new Uint32Array(memory, 0, 2)
      return memory
    },
    run3(values, from, out, at, runSep, inc, run) {
      // Its own memory only, the values apart from the text, and room for what it may store: at
      // most 7 bytes a value and the last 8-byte store's 1 more (formatMvInto leaves 29 a value).
      const valuesEnd = values.byteOffset + values.byteLength
      const outEnd = out.byteOffset + out.byteLength
      if (runSep !== sep || values.buffer !== memory || out.buffer !== memory || values.byteOffset < TEXT_DATA || out.byteOffset < TEXT_DATA ||
        !(valuesEnd <= out.byteOffset + at || outEnd <= values.byteOffset) || out.byteLength - at < 8 * (values.length - from)) {
        return formatRun3(values, from, out, at, runSep, inc, run)
      }
      calls++
      const end = (exports.run3(values.byteOffset + 4 * from, valuesEnd, out.byteOffset + at) >>> 0) - out.byteOffset
      run.i = (results[0] - values.byteOffset) >> 2
      const negatives = results[1]
      run.tokens = negatives * inc[shapeIndex(true, 1)] + (run.i - from - negatives) * inc[shapeIndex(false, 1)]
      return end
    },
  }
}
