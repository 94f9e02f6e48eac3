// The window's smoothing in WebAssembly (beat-window-wasm.ts) against the JavaScript windower:
// bit-identical windows and baseline peak-to-peaks at several rates (direct grid at 250 Hz,
// interpolated elsewhere), the same refusals of non-finite input, and the same windows of real
// beats (MIT-BIH 208 at 360 Hz).
import { describe, expect, it } from 'vitest'
import { createBeatWindower, WINDOW_LEN } from '../../src/dsp/beat-window.ts'
import { annotationsOf, blocksOf, concatLead, readRecord, recordSpec } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

// Windows every `step`-th position of x with both windowers; returns the windows compared.
function compare(x: Float32Array, fs: number, starts: number[]): number {
  const [js, wasm] = [createBeatWindower(fs, false), createBeatWindower(fs)]
  const [a, b] = [new Float64Array(WINDOW_LEN), new Float64Array(WINDOW_LEN)]
  for (const start of starts) {
    const pa = js.extractFrom(x, start, a)
    const pb = wasm.extractFrom(x, start, b)
    expect(Object.is(pa, pb)).toBe(true)
    if (pa !== null && !a.every((v, k) => Object.is(v, b[k]))) expect([...b]).toEqual([...a])
  }
  return starts.length
}

describe('beat-window-wasm', () => {
  it.each([128, 250, 360, 500, 1000])('gives the JavaScript windows bit for bit at %i Hz, and refuses the same non-finite inputs', (fs) => {
    const x = Float32Array.from({ length: 20 * fs }, (_, i) => Math.sin(i / (0.1 * fs)) + 0.3 * Math.sin(i / 7.3) + ((i * 7919) % 101) / 500)
    x[5 * fs] = NaN
    x[9 * fs] = Infinity
    const w = createBeatWindower(fs)
    const starts = Array.from({ length: 300 }, (_, i) => Math.floor((i * (x.length - w.before - w.after - 1)) / 300))
    expect(compare(x, fs, starts)).toBe(300)
    expect(w.extractFrom(x, 5 * fs - w.before, new Float64Array(WINDOW_LEN))).toBeNull()
  })

  it('reads the windower\'s own input in place (extract) as it reads a block', () => {
    const fs = 360
    const w = createBeatWindower(fs)
    const x = Float32Array.from({ length: w.input.length }, (_, i) => Math.cos(i / 11))
    const [a, b] = [new Float64Array(WINDOW_LEN), new Float64Array(WINDOW_LEN)]
    const pa = createBeatWindower(fs, false).extractFrom(x, 0, a)
    w.input.set(x)
    expect(w.extract(b)).toBe(pa)
    expect([...b]).toEqual([...a])
  })
})

describeShared('beat-window-wasm on real beats', () => {
  it('gives the JavaScript windows bit for bit on every beat of MIT-BIH 208', async () => {
    const { items } = await readRecord(recordSpec(sharedPath('data/mitdb/208')))
    const x = concatLead(items, 0)
    const fs = blocksOf(items)[0].fs
    const w = createBeatWindower(fs)
    const starts = annotationsOf(items).map((a) => a.sample - w.before).filter((s) => s >= 0 && s + w.before + w.after < x.length)
    expect(compare(x, fs, starts)).toBeGreaterThan(2900)
  }, 60_000)
})
