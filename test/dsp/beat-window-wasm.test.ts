// The window's smoothing, baseline removal and measures in WebAssembly (beat-window-wasm.ts)
// against the JavaScript windower and beat-features.ts's measureShape: bit-identical windows,
// baseline peak-to-peaks and measures at several rates (direct grid at 250 Hz, interpolated
// elsewhere), the same refusals of non-finite input, and the same windows of real beats
// (MIT-BIH 208 at 360 Hz).
import { describe, expect, it } from 'vitest'
import { type BeatShape, measureShape, SHAPE_RANGES } from '../../src/dsp/beat-features.ts'
import { BEAT_KERNELS_LAYOUT } from '../../src/dsp/beat-kernels-wasm-bytes.ts'
import { at, createBeatWindower, GRID_HZ, PRE_MS, WINDOW_LEN } from '../../src/dsp/beat-window.ts'
import { annotationsOf, blocksOf, concatLead, readRecord, recordSpec } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const newShape = (): BeatShape => ({ wave: new Float64Array(WINDOW_LEN), spanMs: 0, ptp: 0, baselinePtp: 0, noise: 0 })

// Windows x at each start with both windowers, and measures them (JavaScript: measureShape;
// WebAssembly: extractShape's own measures); returns the windows compared.
function compare(x: Float32Array, fs: number, starts: number[]): number {
  const [js, wasm] = [createBeatWindower(fs, false), createBeatWindower(fs)]
  expect([js.measures, wasm.measures]).toEqual([false, true])
  const [a, b] = [new Float64Array(WINDOW_LEN), new Float64Array(WINDOW_LEN)]
  const [sa, sb] = [newShape(), newShape()]
  let compared = 0 // windows both gave (neither refused), whose values were compared
  for (const start of starts) {
    const pa = js.extractFrom(x, start, a)
    const pb = wasm.extractFrom(x, start, b)
    expect(Object.is(pa, pb)).toBe(true)
    if (pa !== null && !a.every((v, k) => Object.is(v, b[k]))) expect([...b]).toEqual([...a])
    expect(js.extractShape(x, start, sa)).toBe(pa !== null)
    expect(wasm.extractShape(x, start, sb)).toBe(pa !== null)
    if (pa === null) continue
    compared++
    measureShape(sa)
    const fields = (s: BeatShape) => [s.baselinePtp, s.spanMs, s.ptp, s.noise, ...s.wave]
    if (!fields(sa).every((v, k) => Object.is(v, fields(sb)[k]))) expect(fields(sb)).toEqual(fields(sa))
  }
  return compared
}

describe('beat-window-wasm', () => {
  it.each([128, 250, 360, 500, 1000])('gives the JavaScript windows bit for bit at %i Hz, and refuses the same non-finite inputs', (fs) => {
    const x = Float32Array.from({ length: 20 * fs }, (_, i) => Math.sin(i / (0.1 * fs)) + 0.3 * Math.sin(i / 7.3) + ((i * 7919) % 101) / 500)
    x[5 * fs] = NaN
    x[9 * fs] = Infinity
    const w = createBeatWindower(fs)
    const starts = Array.from({ length: 300 }, (_, i) => Math.floor((i * (x.length - w.before - w.after - 1)) / 300))
    // The two non-finite samples make both refuse the windows over them, and only those.
    const compared = compare(x, fs, starts)
    expect(compared).toBeGreaterThan(250)
    expect(compared).toBeLessThan(300)
    expect(w.extractFrom(x, 5 * fs - w.before, new Float64Array(WINDOW_LEN))).toBeNull()
  })

  it('the kernels were generated for this grid\'s baseline stretches and measureShape\'s ranges', () => {
    const { BASE_LEN, BASE_FROM, BASE_TO, SPAN_FROM, SPAN_TO, PTP_FROM, PTP_TO, PRE_NOISE, POST_NOISE } = BEAT_KERNELS_LAYOUT
    expect([BASE_LEN, BASE_FROM, BASE_TO]).toEqual([Math.round((40 * GRID_HZ) / 1000), at(-PRE_MS), at(-40)])
    // Against measureShape's own constants, not copies of them typed here.
    const r = SHAPE_RANGES
    expect([SPAN_FROM, SPAN_TO, PTP_FROM, PTP_TO, ...PRE_NOISE, ...POST_NOISE]).toEqual([r.SPAN_FROM, r.SPAN_TO, r.PTP_FROM, r.PTP_TO, ...r.PRE_NOISE, ...r.POST_NOISE])
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
