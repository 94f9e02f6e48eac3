// The QRS front end's kernel in WebAssembly (scripts/wasm-qrs-kernels.mjs): the same operations
// as the JavaScript kernel (qrs-front-end-kernel.ts) in the same order, so bit-identical, without
// its per-operation bounds and type checks, every state value in a register, and the two biquads
// side by side in the lanes of f64x2 registers (one sample apart). The buffers live in the
// instance's own memory, exposed as typed-array views; the input block is copied in.
import { QRS_FRONT_END_WASM } from './qrs-front-end.wasm.ts'
import { STATE_SIZE, type FrontEndBuffers } from './qrs-front-end-kernel.ts'
import { instantiateWithMemory, lazyWasmModule } from './wasm-module.ts'

type Kernel = (c: number, st: number, sq: number, width: number, dScale: number, x: number, raw: number, bp: number, mwi: number, n: number) => void

// Compiled once per thread on first use (wasm-module.ts).
const frontEndModule = lazyWasmModule(QRS_FRONT_END_WASM)

/** Buffers in WebAssembly memory run by the WebAssembly kernel; null where it cannot run. */
export function createWasmFrontEndBuffers(coef: Float64Array, width: number, capacity: number, block: number): FrontEndBuffers | null {
  const module = frontEndModule()
  if (!module) return null
  // f64 arrays first (8-byte aligned), then the f32 ones.
  const c = 0
  const st = c + 8 * coef.length
  const sq = st + 8 * STATE_SIZE
  const bp = sq + 8 * width
  const mwi = bp + 8 * capacity
  const raw = mwi + 8 * block
  const x = raw + 4 * capacity
  const { exports, buffer } = instantiateWithMemory<{ frontEnd: Kernel }>(module, x + 4 * block)
  const run = exports.frontEnd
  new Float64Array(buffer, c, coef.length).set(coef)
  const xs = new Float32Array(buffer, x, block)
  return {
    st: new Float64Array(buffer, st, STATE_SIZE),
    sq: new Float64Array(buffer, sq, width),
    raw: new Float32Array(buffer, raw, capacity),
    bp: new Float64Array(buffer, bp, capacity),
    mwi: new Float64Array(buffer, mwi, block),
    run(input, off, dScale) {
      xs.set(input)
      run(c, st, sq, width, dScale, x, raw + 4 * off, bp + 8 * off, mwi, input.length)
    },
  }
}
