// The WebAssembly template matcher (beat-match.ts) against its JavaScript fallback: the committed
// kernels are what scripts/wasm-beat-kernels.mjs assembles, both paths start and blend templates
// into the same bits, and both give bit-identical correlations and shifts, on synthetic waves (flat, random, beat-like, shifted) and on the
// windows of real beats (MIT-BIH 208: normal beats and PVCs) against templates from that record.
import { describe, expect, it } from 'vitest'
import { type CentredTemplate, centreTemplate, type Match, MATCH_FROM, MATCH_LEN, MATCH_TO, SHIFTS } from '../../src/dsp/beat-features.ts'
import { type BeatMatcher, createJsBeatMatcher, createWasmBeatMatcher } from '../../src/dsp/template-match.ts'
import { BEAT_KERNELS_LAYOUT, BEAT_KERNELS_WASM } from '../../src/dsp/beat-kernels-wasm-bytes.ts'
import { CENTER, createBeatWindower, GRID_HZ, WINDOW_LEN } from '../../src/dsp/beat-window.ts'
import { annotationsOf, blocksOf, concatLead, readRecord, recordSpec } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
// @ts-expect-error: a plain .mjs script without types
import { kernelsSource } from '../../scripts/wasm-beat-kernels.mjs'

// Deterministic pseudo-random numbers in [0, 1).
function randoms(seed: number): () => number {
  return () => (seed = (seed * 16807) % 2147483647) / 2147483647
}

// Matches every beat against every template with both matchers; returns the matches compared.
function compareAll(beats: Float64Array[], templates: Float64Array[]): number {
  const js = createJsBeatMatcher()
  const wasm = createWasmBeatMatcher(templates.length)!
  const centred = (m: BeatMatcher) =>
    templates.map((t) => {
      const c: CentredTemplate = m.createCentred()
      centreTemplate(t.subarray(MATCH_FROM, MATCH_TO), c)
      return c
    })
  const [cJs, cWasm] = [centred(js), centred(wasm)]
  const [a, b]: Match[] = [{ corr: 0, shift: 0 }, { corr: 0, shift: 0 }]
  let n = 0
  for (const beat of beats) {
    js.setBeat(beat)
    wasm.setBeat(beat)
    for (let i = 0; i < templates.length; i++, n++) {
      js.match(cJs[i], a)
      wasm.match(cWasm[i], b)
      if (!Object.is(a.corr, b.corr) || a.shift !== b.shift) expect({ beat: beats.indexOf(beat), template: i, wasm: b }).toEqual({ beat: beats.indexOf(beat), template: i, wasm: a })
    }
  }
  return n
}

describe('beat-match WebAssembly kernels', () => {
  it('the committed bytes are what scripts/wasm-beat-kernels.mjs assembles, for beat-features.ts\'s ranges and window', async () => {
    const source: string = await kernelsSource()
    expect(source).toContain(`'${BEAT_KERNELS_WASM}'`)
    expect([BEAT_KERNELS_LAYOUT.MATCH_LEN, BEAT_KERNELS_LAYOUT.SHIFTS, BEAT_KERNELS_LAYOUT.WINDOW_LEN]).toEqual([MATCH_LEN, SHIFTS, WINDOW_LEN])
  })

  it('run on this Node (WebAssembly SIMD), so the classifier takes the WebAssembly path', () => {
    expect(createWasmBeatMatcher(8)).not.toBeNull()
  })

  it('give what the JavaScript gives, bit for bit, on flat, random, beat-like and shifted waves', () => {
    const rand = randoms(7)
    const gauss = (t: number, s: number) => Math.exp(-0.5 * (t / s) ** 2)
    const waves: Float64Array[] = [new Float64Array(WINDOW_LEN), new Float64Array(WINDOW_LEN).fill(0.3)]
    for (let i = 0; i < 30; i++) {
      const lag = (i % 17) - 8
      const width = i % 2 ? 0.01 : 0.04
      waves.push(Float64Array.from({ length: WINDOW_LEN }, (_, g) => gauss((g - CENTER + lag) / GRID_HZ, width) + 0.02 * (rand() - 0.5)))
      waves.push(Float64Array.from({ length: WINDOW_LEN }, () => rand() - 0.5))
    }
    expect(compareAll(waves, waves)).toBe(waves.length ** 2)
  })

  it('start and blend templates as the JavaScript does, bit for bit (running average, centred values, variance)', () => {
    const rand = randoms(3)
    const waves = Array.from({ length: 60 }, (_, i) => Float64Array.from({ length: WINDOW_LEN }, (_, g) => Math.sin((g - CENTER + (i % 7)) / 9) + 0.3 * (rand() - 0.5)))
    const [js, wasm] = [createJsBeatMatcher(), createWasmBeatMatcher(1)!]
    const [a, b] = [js.createCentred(), wasm.createCentred()]
    js.start(a, waves[0])
    wasm.start(b, waves[0])
    const bits = (t: CentredTemplate) => [t.variance, ...t.range, ...t.centred]
    for (let i = 1; i < waves.length; i++) {
      expect(bits(b).every((v, k) => Object.is(v, bits(a)[k]))).toBe(true)
      js.setBeat(waves[i])
      wasm.setBeat(waves[i])
      const [shift, weight] = [(i % SHIFTS) - (SHIFTS >> 1), 1 / Math.min(i + 1, 16)]
      js.blend(a, shift, weight)
      wasm.blend(b, shift, weight)
    }
    expect(bits(b)).toEqual(bits(a))
    expect(bits(b).every((v, k) => Object.is(v, bits(a)[k]))).toBe(true)
  })

  it('refuses a template made by another matcher, and more templates than slots', () => {
    const m = createWasmBeatMatcher(1)!
    m.createCentred()
    expect(() => m.createCentred()).toThrow(/slots/)
    expect(() => m.match(createJsBeatMatcher().createCentred(), { corr: 0, shift: 0 })).toThrow(/createCentred/)
  })
})

describeShared('beat-match on real beats', () => {
  it('gives what the JavaScript gives, bit for bit, on MIT-BIH 208 (every 3rd beat against 48 of its beats)', async () => {
    const { items } = await readRecord(recordSpec(sharedPath('data/mitdb/208')))
    const x = concatLead(items, 0)
    const w = createBeatWindower(blocksOf(items)[0].fs)
    const windows: Float64Array[] = []
    for (const a of annotationsOf(items)) {
      if (!'NLRBAaJSVrFejnE/fQ'.includes(a.symbol) || a.sample < w.before || a.sample + w.after >= x.length) continue
      const wave = new Float64Array(WINDOW_LEN)
      if (w.extractFrom(x, a.sample - w.before, wave) !== null) windows.push(wave)
    }
    expect(windows.length).toBeGreaterThan(2900)
    const beats = windows.filter((_, i) => i % 3 === 0)
    const templates = windows.filter((_, i) => i % 61 === 0).slice(0, 48)
    expect(compareAll(beats, templates)).toBe(beats.length * templates.length)
  }, 60_000)
})
