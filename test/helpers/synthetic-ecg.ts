// Deterministic synthetic ECG for tests that need a signal with known beats at any sampling rate.

/** A seeded standard-normal generator, so noisy signals are the same on every run. */
export function gaussian(seed: number): () => number {
  let s = seed >>> 0
  const uniform = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())
}

/** Narrow 1.2 mV R waves every `beatEverySec` (first at 0.2 s), T waves, 0.3 Hz baseline wander, slight noise. */
export function syntheticEcg(fs: number, seconds: number, seed = 1, beatEverySec = 0.8): Float32Array {
  const g = gaussian(seed)
  const x = new Float32Array(Math.round(fs * seconds))
  for (let i = 0; i < x.length; i++) {
    const t = i / fs
    const phase = t % beatEverySec
    const r = 1.2 * Math.exp(-(((phase - 0.2) / 0.012) ** 2))
    const tw = 0.25 * Math.exp(-(((phase - 0.45) / 0.05) ** 2))
    x[i] = r + tw + 0.1 * Math.sin(2 * Math.PI * 0.3 * t) + 0.005 * g()
  }
  return x
}
