// The beat classifier's WebAssembly kernels (scripts/wasm-beat-kernels.mjs, assembled into
// beat-kernels.wasm.ts): template matching and updates (beat-match.ts) and the beat window with
// its shape measures (beat-window-wasm.ts) share one module, compiled here once per thread and
// instantiated by each of them with a memory of its own (wasm-module.ts).
import { lazyWasmModule } from './wasm-module.ts'
import { BEAT_KERNELS_WASM } from './beat-kernels-wasm-bytes.ts'

export { BEAT_KERNELS_LAYOUT } from './beat-kernels-wasm-bytes.ts'

/** The module, compiled on first use; null without WebAssembly SIMD. */
export const beatKernelsModule = lazyWasmModule(BEAT_KERNELS_WASM)
