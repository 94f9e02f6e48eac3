import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatMv, formatMvInto, maxMvBytes } from '../../src/render/format-mv.ts'
import { instantiateTextKernel, TEXT_DATA, type TextKernel } from '../../src/render/format-mv-wasm.ts'
import { TEXT_KERNELS_WASM } from '../../src/render/text-kernels-wasm-bytes.ts'
import { createTokenTally, settleTally, type TokenTally } from '../../src/render/text-tokens.ts'
import { createWindowTextWriter, type WindowText } from '../../src/render/window-text.ts'
import { estimateTokens } from '../../src/render/estimate-tokens.ts'
import { formatElapsed } from '../../src/render/elapsed.ts'
import { windowsOf } from '../helpers/render-input.ts'
import { rng } from '../helpers/seeded-random.ts'
import { float32sAround, toFixedMv } from '../helpers/mv-text.ts'
// @ts-expect-error: a plain .mjs script without types
import { textKernelsSource } from '../../scripts/wasm-text-kernels.mjs'

const SEPARATORS = [',', ';', ' ', 'x', '\t', '|']
// A kernel (its table is made for one separator) and a tally (making one runs its self-check) per separator.
const kernels = new Map(SEPARATORS.map((s) => [s.charCodeAt(0), instantiateTextKernel(s.charCodeAt(0))!]))
const kernel = kernels.get(44)!
const allCalls = () => [...kernels.values()].reduce((n, k) => n + k.calls, 0)
const tallies = new Map<number, TokenTally>()
function tallyFor(sep: Uint8Array): TokenTally {
  if (!tallies.has(sep[0])) tallies.set(sep[0], createTokenTally(3, sep)!)
  const t = tallies.get(sep[0])!
  t.tokens = 0
  t.from = -1
  t.adjust = 0
  return t
}

/** formatMvInto with the kernel (values and text in its memory): the text and its tokens. */
function viaKernel(k: TextKernel, values: Float32Array, sep: Uint8Array): { text: string; tokens: number } {
  const need = maxMvBytes(values.length, sep.length)
  const memory = k.reserve(TEXT_DATA + 4 * values.length + need)
  const input = new Float32Array(memory, TEXT_DATA, values.length)
  input.set(values)
  const out = new Uint8Array(memory, TEXT_DATA + 4 * values.length, need)
  const tally = tallyFor(sep)
  const calls = k.calls
  const end = formatMvInto(input, out, 0, 3, sep, tally, k.run3)
  // The kernel wrote runs (not formatRun3, its fallback); short inputs are counted by their test.
  if (values.length >= 16) expect(k.calls).toBeGreaterThan(calls)
  settleTally(tally, out, end)
  return { text: Buffer.from(out.subarray(0, end)).toString('latin1'), tokens: tally.tokens }
}

/** The same with formatRun3 (JavaScript), the reference the kernel must equal. */
function viaJs(values: Float32Array, sep: Uint8Array): { text: string; tokens: number } {
  const out = new Uint8Array(maxMvBytes(values.length, sep.length))
  const tally = tallyFor(sep)
  const end = formatMvInto(values, out, 0, 3, sep, tally)
  settleTally(tally, out, end)
  return { text: Buffer.from(out.subarray(0, end)).toString('latin1'), tokens: tally.tokens }
}


function expectSame(values: Float32Array, what: string) {
  for (const s of SEPARATORS) {
    const sep = Buffer.from(s, 'latin1')
    const wasm = viaKernel(kernels.get(sep[0])!, values, sep)
    const js = viaJs(values, sep)
    expect(wasm.text === js.text, `${what}, separator ${JSON.stringify(s)}: text`).toBe(true)
    expect(wasm.tokens, `${what}, separator ${JSON.stringify(s)}: tokens`).toBe(js.tokens)
  }
  expect(viaKernel(kernel, values, Buffer.from(',')).text).toBe(Array.from(values, (v) => toFixedMv(v, 3)).join(','))
}

describe('the WebAssembly text kernel (format-mv-wasm)', () => {
  it('the committed module is what scripts/wasm-text-kernels.mjs assembles from its WAT text', async () => {
    const source: string = await textKernelsSource()
    expect(source).toContain(`'${TEXT_KERNELS_WASM}'`)
    expect(readFileSync(new URL('../../src/render/text-kernels-wasm-bytes.ts', import.meta.url), 'utf8')).toBe(source)
  })

  it('runs on this Node, and `wasm: false` or another layout keeps to JavaScript', () => {
    expect(instantiateTextKernel(44, { wasm: false })).toBeNull()
    const sep = Uint8Array.of(44)
    expect(createWindowTextWriter(3, sep).wasm).toBe(true)
    expect(createWindowTextWriter(3, sep, { wasm: false }).wasm).toBe(false)
    expect(createWindowTextWriter(2, sep).wasm).toBe(false) // the kernel writes 3 decimals
    expect(createWindowTextWriter(3, Buffer.from(', ')).wasm).toBe(false) // and 1-byte separators
  })

  it('equals formatRun3 and toFixed on ECG-like values: ADC steps of several gains, every one a near tie', () => {
    for (const gain of [200, 400, 2000, 1000 / 3]) {
      expectSame(Float32Array.from({ length: 20_001 }, (_, i) => (i - 10_000) / gain), `gain ${gain}`)
    }
  })

  it('equals formatRun3 on every float32 around the bounds: 9.9995 and 10 (where a run stops), 0.0005 and -0.0005 (a sign or not), 0', () => {
    const bounds = [...float32sAround(9.9995, 3000), ...float32sAround(-9.9995, 3000), ...float32sAround(10, 300), ...float32sAround(-10, 300), ...float32sAround(0.0005, 3000), ...float32sAround(-0.0005, 3000), ...float32sAround(1e-30, 100), -0, 0]
    expectSame(Float32Array.from(bounds), 'bounds')
    // The same values shuffled among small ones, so each meets every lane of a 4-value step.
    const next = rng(3)
    expectSame(Float32Array.from(bounds.flatMap((v) => [v, (next() - 0.5) * 4, (next() - 0.5) * 4].slice(0, 1 + Math.floor(next() * 3)))), 'bounds among small values')
  })

  it('equals formatRun3 where runs stop: NaN, infinities and values of 10 or more in every lane, at the ends, and lengths 0-9', () => {
    const special = [NaN, Infinity, -Infinity, 10, -10, 12.3456, -999.9995, 2147483.648, 1e21, -3.4e38]
    const next = rng(5)
    const calls = allCalls()
    for (let n = 0; n <= 9; n++) {
      for (let at = 0; at < n; at++) {
        for (const v of special) {
          const values = Float32Array.from({ length: n }, () => (next() - 0.5) * 6)
          values[at] = v
          expectSame(values, `length ${n}, ${v} at ${at}`)
        }
      }
      expectSame(Float32Array.from({ length: n }, () => (next() - 0.5) * 6), `length ${n}`)
    }
    expect(allCalls() - calls).toBeGreaterThan(1000) // most of these runs went through the kernel
  })

  it('equals formatRun3 on 400,000 random values: mostly small, with runs of NaN and large values mixed in', () => {
    const next = rng(9)
    const values = new Float32Array(400_000)
    for (let i = 0; i < values.length; i++) {
      const r = next()
      values[i] = r < 0.01 ? NaN : r < 0.02 ? (next() - 0.5) * 1e4 : r < 0.03 ? (next() - 0.5) * 20 : (next() - 0.5) * 8
      if (r < 0.001) values.fill(NaN, i, Math.min(values.length, i + 50)), (i += 49)
    }
    expectSame(values, 'random')
  })

  it('formats with formatRun3 when the values are not in its memory, or the text has no room for its 8-byte stores', () => {
    const values = Float32Array.of(1.25, -0.0004, 3.5, NaN, 7.125)
    const out = new Uint8Array(maxMvBytes(values.length))
    const calls = kernel.calls
    const end = formatMvInto(values, out, 0, 3, Uint8Array.of(44), null, kernel.run3)
    expect(Buffer.from(out.subarray(0, end)).toString()).toBe(formatMv(values).toString())
    // In its memory, but a view of the text exactly as long as the text: formatRun3 again.
    const memory = kernel.reserve(TEXT_DATA + 4096)
    const input = new Float32Array(memory, TEXT_DATA, 3)
    input.set([1.25, -0.5, 3.5])
    const exact = new Uint8Array(memory, TEXT_DATA + 64, '1.250,-0.500,3.500'.length)
    const n = formatMvInto(input, exact, 0, 3, Uint8Array.of(44), null, kernel.run3)
    expect(Buffer.from(exact.subarray(0, n)).toString()).toBe('1.250,-0.500,3.500')
    expect(kernel.calls).toBe(calls)
  })
})

describe('WindowTextWriter', () => {
  it('writes record 100\'s windows (1 and 2 leads in turn, so the kernel\'s memory grows) with the same bytes with the kernel and without, and tokens equal to estimateTokens', async () => {
    const ws = await windowsOf('100')
    const texts: WindowText[] = ws.map((w, k) => (k % 3 === 0 ? { labels: [w.labels[1]], startMs: w.startMs, rate: w.fs, leads: [w.samples[1]] } : { labels: w.labels, startMs: w.startMs, rate: w.fs, leads: w.samples }))
    const sep = Uint8Array.of(44)
    const [kernelWriter, js] = [createWindowTextWriter(3, sep), createWindowTextWriter(3, sep, { wasm: false })]
    expect(kernelWriter.wasm).toBe(true)
    texts.forEach((t, k) => {
      const a = kernelWriter.format(t)
      const aBytes = Buffer.from(a.bytes)
      const b = js.format(t)
      expect(aBytes.equals(Buffer.from(b.bytes)), `window ${k}`).toBe(true)
      expect(a.tokens, `window ${k}`).toBe(estimateTokens(aBytes))
      expect(b.tokens).toBe(a.tokens)
      expect(aBytes.toString('latin1').split('\n')[0]).toBe(`${t.labels[0]} ${formatElapsed(t.startMs)} 360Hz: ${Array.from(t.leads[0], (v) => toFixedMv(v, 3)).join(',')}`)
    })
  })

  it('writes windows without leads, with empty, 1-value and NaN leads', () => {
    const sep = Uint8Array.of(44)
    const odd: [WindowText, string][] = [
      [{ labels: [], startMs: 0, rate: 360, leads: [] }, ''],
      [{ labels: ['I', 'II'], startMs: 1000, rate: 360, leads: [new Float32Array(0), Float32Array.of(-0.25)] }, 'I 00:00:01.000 360Hz: \nII 00:00:01.000 360Hz: -0.250\n'],
      [{ labels: ['I'], startMs: 3_723_004, rate: 250.5, leads: [Float32Array.of(1.5, NaN, NaN, -2.125, 0, 12.5, -0.0004)] }, 'I 01:02:03.004 250.5Hz: 1.500,NaN,NaN,-2.125,0.000,12.500,0.000\n'],
      [{ labels: ['I'], startMs: 3000, rate: 250, leads: [new Float32Array(3).fill(NaN)] }, 'I 00:00:03.000 250Hz: NaN,NaN,NaN\n'],
    ]
    for (const wasm of [true, false]) {
      const writer = createWindowTextWriter(3, sep, { wasm })
      for (const [w, text] of odd) {
        const { bytes, tokens } = writer.format(w)
        expect(Buffer.from(bytes).toString('latin1'), `wasm ${wasm}`).toBe(text)
        expect(tokens).toBe(estimateTokens(Buffer.from(bytes)))
      }
    }
  })
})
