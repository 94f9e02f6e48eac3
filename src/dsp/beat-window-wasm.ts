// The box smoothing and grid interpolation of beat-window.ts in WebAssembly (kernel "window" of
// scripts/wasm-beat-kernels.mjs), then its baseline removal and beat-features.ts's measureShape
// (kernel "shape"), the same operations in the same order, so the windows and measures are
// bit-identical (test/dsp/beat-window-wasm.test.ts). The running sum is one dependent chain
// either way; the kernel runs it without JavaScript's bounds checks, about twice as fast on this
// loop, and the shape kernel is straight-line code whose independent sums the CPU overlaps (in
// JavaScript, baseline and measures were about a third of the classifier's time on the 24 h
// file). The input, smoothed samples, interpolation points and wave live in the instance's memory.
import { BEAT_KERNELS_LAYOUT as L, beatKernelsModule } from './beat-kernels.ts'
import { instantiateWithMemory } from './wasm-module.ts'

export interface WindowKernel {
  /** The window's input samples (n), filled by the caller before `run`. */
  readonly input: Float32Array
  /** The grid, baseline removed (WINDOW_LEN values), after `run` returned true. */
  readonly wave: Float64Array
  /** After `run` returned true: the baseline's peak-to-peak, then measureShape's spanMs, ptp and noise. */
  readonly measures: Float64Array
  /** Smooths `input` onto `wave`, removes its baseline and measures it; false when the input holds a sample that is not finite. */
  run(): boolean
}

type Window = (...args: number[]) => number

/**
 * The kernel for n input samples, a box of `box` (centred at `half`) and the windower's
 * interpolation points (`direct` >= 0: the grid is the smoothed samples from there on); null
 * where WebAssembly SIMD is unavailable.
 */
export function createWindowKernel(n: number, box: number, half: number, index: Int32Array, near: Float64Array, far: Float64Array, direct: number): WindowKernel | null {
  const module = beatKernelsModule()
  if (!module) return null
  const len = index.length
  if (len !== L.WINDOW_LEN) throw new Error(`beat-window-wasm: the kernel was generated for WINDOW_LEN ${L.WINDOW_LEN}, found ${len}; run scripts/wasm-beat-kernels.mjs with its constants updated`)
  const input = 0
  const smooth = 8 * Math.ceil(n / 2)
  const ix = smooth + 8 * (n + 1)
  const nr = ix + 8 * Math.ceil(len / 2)
  const fr = nr + 8 * len
  const wv = fr + 8 * len
  const res = wv + 8 * len
  const { exports, buffer } = instantiateWithMemory<{ window: Window; shape(wave: number, out: number): void }>(module, res + 8 * L.SHAPE_RESULTS)
  const { window: kernel, shape } = exports
  new Int32Array(buffer, ix, len).set(index)
  new Float64Array(buffer, nr, len).set(near)
  new Float64Array(buffer, fr, len).set(far)
  return {
    input: new Float32Array(buffer, input, n),
    wave: new Float64Array(buffer, wv, len),
    measures: new Float64Array(buffer, res, L.SHAPE_RESULTS),
    run() {
      if (kernel(input, n, box, half, smooth, ix, nr, fr, direct, wv) !== 1) return false
      shape(wv, res)
      return true
    },
  }
}
