// The QRS front end's kernel in WebAssembly (scripts/wasm-qrs-kernels.mjs): the same operations
// as the JavaScript kernel (qrs-front-end-kernel.ts) and peak picker (qrs-peaks.ts) in the same
// order, so bit-identical, without their per-operation bounds and type checks, and the two
// biquads side by side in the lanes of f64x2 registers (one sample apart). The picker runs in
// the same loop, so JavaScript sees only the samples where a peak ends or a deadline of the
// detector falls, not every sample. The buffers live in the instance's own memory, exposed as
// typed-array views; the input block is copied into raw, where the kernel holds invalid samples.
import { QRS_FRONT_END_WASM } from './qrs-front-end-wasm-bytes.ts'
import { PICK, STATE_SIZE, type FrontEndBuffers } from './qrs-front-end-js.ts'
import { PICK_SIZE } from './qrs-peaks.ts'
import { instantiateWithMemory, lazyWasmModule } from './wasm-module.ts'

type Kernel = (sq: number, end: number, raw: number, bp: number, n: number, first: number) => number

// Compiled once per thread on first use (wasm-module.ts).
const frontEndModule = lazyWasmModule(QRS_FRONT_END_WASM)

// The kernel's fixed addresses: constants (5 coefficient pairs, dScale, width), then the state.
const K = 0, ST = 96, DSCALE = 10
// Each coefficient's index in a section of [b0 b1 b2 1 a1 a2] (qrs-front-end.ts), in the kernel's order.
const COEF = [0, 1, 2, 4, 5]

/** Buffers in WebAssembly memory run by the WebAssembly kernel; null where it cannot run. */
export function createWasmFrontEndBuffers(coef: Float64Array, width: number, capacity: number, block: number): FrontEndBuffers | null {
  const module = frontEndModule()
  if (!module) return null
  // f64 arrays first (8-byte aligned), then the f32 one.
  const sq = ST + 8 * STATE_SIZE
  const bp = sq + 8 * width
  const raw = bp + 8 * capacity
  const { exports, buffer } = instantiateWithMemory<{ frontEnd: Kernel }>(module, raw + 4 * capacity)
  const run = exports.frontEnd
  const k = new Float64Array(buffer, K, 12)
  COEF.forEach((c, i) => {
    k[2 * i] = coef[c] // high-pass
    k[2 * i + 1] = coef[6 + c] // low-pass
  })
  k[DSCALE + 1] = width
  const rawView = new Float32Array(buffer, raw, capacity)
  let off = 0
  return {
    st: new Float64Array(buffer, ST, STATE_SIZE),
    pick: new Float64Array(buffer, ST + 8 * PICK, PICK_SIZE),
    sq: new Float64Array(buffer, sq, width),
    raw: rawView,
    bp: new Float64Array(buffer, bp, capacity),
    block,
    load(input, at, dScale) {
      if (input.length > block) throw new RangeError(`QRS front end: a block of ${input.length} samples in buffers for ${block}`)
      rawView.set(input, at)
      off = at
      k[DSCALE] = dScale
    },
    scan(k0, k1, first) {
      // The kernel's second argument ($end) is the end of the squared-sample ring, which is where bp
      // starts: the two buffers are laid out back to back above.
      return k0 + run(sq, bp, raw + 4 * (off + k0), bp + 8 * (off + k0), k1 - k0, first + k0)
    },
  }
}
