// Loading the generated WebAssembly kernels (scripts/wasm-*.mjs write their bytes as base64 into
// src/dsp/*.wasm.ts): each module is compiled once per thread on first use (a few KB,
// synchronously) and instantiated per filter or classifier with a memory of its own, which holds
// that user's buffers as typed-array views. Where WebAssembly SIMD is missing there is no module
// and the callers run their JavaScript loops, which give the same bits.

/** A getter for the module of `base64` bytes, compiled on its first call; null where the bytes do not validate (no SIMD). */
export function lazyWasmModule(base64: string): () => WebAssembly.Module | null {
  let compiled: WebAssembly.Module | null | undefined
  return () => {
    if (compiled === undefined) {
      const bytes = Buffer.from(base64, 'base64')
      compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null
    }
    return compiled
  }
}

/** An instance of `module` importing a memory of at least `bytes` bytes as env.memory (never grown, so views stay valid). */
export function instantiateWithMemory<T>(module: WebAssembly.Module, bytes: number): { exports: T; buffer: ArrayBuffer } {
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) })
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as T
  return { exports, buffer: memory.buffer }
}

/**
 * An instance of `module` whose env.memory grows on demand, for users whose largest buffer is
 * not known up front (the readers' blocks): `reserve(bytes)` returns the memory's buffer, at
 * least that long; growing replaces the buffer, so views are taken after each call.
 */
export function instantiateGrowable<T>(module: WebAssembly.Module): { exports: T; reserve(bytes: number): ArrayBuffer } {
  const memory = new WebAssembly.Memory({ initial: 1 })
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as T
  return {
    exports,
    reserve(bytes) {
      if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536))
      return memory.buffer
    },
  }
}
