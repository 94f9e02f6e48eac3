import { describe, expect, it } from 'vitest'
import { designButterworth } from '../../src/dsp/butterworth.ts'
import { createSosFilter } from '../../src/dsp/sos-filter.ts'
import { createSosPairKernel } from '../../src/dsp/sos-pair.ts'
import { FILTER_KERNELS_WASM } from '../../src/dsp/filter-kernels-wasm-bytes.ts'
import { createZeroPhaseMovingAverage } from '../../src/dsp/moving-average.ts'
import { runZeroPhase } from '../helpers/zero-phase-stream.ts'
// @ts-expect-error: a plain .mjs script without types
import { kernelsSource } from '../../scripts/wasm-kernels.mjs'

const signal = Float64Array.from({ length: 6000 }, (_, i) => Math.sin(i / 9) + 0.4 * Math.sin(i / 2.3) + ((i * 7919) % 101) / 400)

describe('WebAssembly filter kernels', () => {
  it('the committed bytes are what scripts/wasm-kernels.mjs assembles from its WAT text', async () => {
    const source: string = await kernelsSource()
    expect(source).toContain(`'${FILTER_KERNELS_WASM}'`)
  })

  it('run on this Node (WebAssembly SIMD), so zero-phase filtering takes the paired path', () => {
    expect(createSosPairKernel(designButterworth({ order: 5, cutoffHz: 0.5, fs: 360, type: 'highpass' }), 100)).not.toBeNull()
  })

  it.each([1, 2, 3, 4, 5, 6, 7])('%i sections: each stream gets exactly what run() gives it alone, states included', (n) => {
    const sos = designButterworth({ order: 2 * n, cutoffHz: 20, fs: 360, type: 'lowpass' })
    const f = createSosFilter(sos)
    const k = createSosPairKernel(sos, signal.length)!
    const [fromF, fromB, count] = [100, signal.length - 7, 2500]
    const [fRef, bRef] = [new Float64Array(f.stateSize), new Float64Array(f.stateSize)]
    f.steady(fRef, 0.7)
    f.steady(bRef, -0.3)
    k.forwardState.set(fRef)
    k.backwardState.set(bRef)
    const [yF, yB] = [signal.slice(), signal.slice()]
    f.run(fRef, yF, yF, fromF, fromF + count, 1)
    f.run(bRef, yB, yB, fromB, fromB - count, -1)
    k.forward.set(signal)
    k.backward.set(signal)
    k.pair(fromF, fromB, count)
    expect([...k.forward]).toEqual([...yF])
    expect([...k.backward]).toEqual([...yB])
    expect([...k.forwardState]).toEqual([...fRef])
    expect([...k.backwardState]).toEqual([...bRef])
  })

  it('the moving average\'s one-pass filtfilt gives the same bits with its kernel as with its JavaScript loop, NaNs, re-sums and edges included', () => {
    for (const w of [1, 2, 7, 20]) {
      for (const n of [0, 3, 100, 20000]) {
        const x = signal.slice(0, Math.min(n, signal.length))
        const long = n > signal.length ? Float64Array.from({ length: n }, (_, i) => signal[i % signal.length] + i / 1000) : x
        if (n === 20000) long[9000] = NaN
        for (const block of [1, 997, 5000]) {
          const wasm = runZeroPhase(createZeroPhaseMovingAverage(w), long, block).y
          const js = runZeroPhase(createZeroPhaseMovingAverage(w, { wasm: false }), long, block).y
          expect(wasm.length).toBe(long.length)
          expect(Object.is(wasm.length, js.length) && wasm.every((v, i) => Object.is(v, js[i]))).toBe(true)
        }
      }
    }
  })
})
