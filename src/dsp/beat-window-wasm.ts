// The box smoothing and grid interpolation of beat-window.ts in WebAssembly (kernel "window" of
// scripts/wasm-beat-kernels.mjs), the same operations in the same order, so the windows are
// bit-identical (test/dsp/beat-window-wasm.test.ts). The running sum is one dependent chain
// either way; the kernel runs it without JavaScript's bounds checks, about twice as fast on this
// loop. The input, smoothed samples, interpolation points and wave live in the instance's memory.
import { BEAT_MATCH_LAYOUT as L, BEAT_MATCH_WASM } from './beat-match.wasm.ts'
import { instantiateWithMemory, lazyWasmModule } from './wasm-module.ts'

export interface WindowKernel {
  /** The window's input samples (n), filled by the caller before `run`. */
  readonly input: Float32Array
  /** The grid, before baseline removal (WINDOW_LEN values), after `run`. */
  readonly wave: Float64Array
  /** Smooths `input` onto `wave`; false when the input holds a sample that is not finite. */
  run(): boolean
}

type Window = (...args: number[]) => number

// Compiled once per thread on first use (wasm-module.ts).
const windowModule = lazyWasmModule(BEAT_MATCH_WASM)

/**
 * The kernel for n input samples, a box of `box` (centred at `half`) and the windower's
 * interpolation points (`direct` >= 0: the grid is the smoothed samples from there on); null
 * where WebAssembly SIMD is unavailable.
 */
export function createWindowKernel(n: number, box: number, half: number, index: Int32Array, near: Float64Array, far: Float64Array, direct: number): WindowKernel | null {
  const module = windowModule()
  if (!module) return null
  const len = index.length
  if (len !== L.WINDOW_LEN) throw new Error(`beat-window-wasm: the kernel was generated for WINDOW_LEN ${L.WINDOW_LEN}, found ${len}; run scripts/wasm-beat-kernels.mjs with its constants updated`)
  const input = 0
  const smooth = 8 * Math.ceil(n / 2)
  const ix = smooth + 8 * (n + 1)
  const nr = ix + 8 * Math.ceil(len / 2)
  const fr = nr + 8 * len
  const wv = fr + 8 * len
  const { exports, buffer } = instantiateWithMemory<{ window: Window }>(module, wv + 8 * len)
  const kernel = exports.window
  new Int32Array(buffer, ix, len).set(index)
  new Float64Array(buffer, nr, len).set(near)
  new Float64Array(buffer, fr, len).set(far)
  return {
    input: new Float32Array(buffer, input, n),
    wave: new Float64Array(buffer, wv, len),
    run: () => kernel(input, n, box, half, smooth, ix, nr, fr, direct, wv) === 1,
  }
}
