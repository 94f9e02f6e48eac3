import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatMv, formatMvInto, maxMvBytes } from '../../src/render/format-mv.ts'
import { instantiateTextKernel, TEXT_DATA, type TextKernel } from '../../src/render/format-mv-wasm.ts'
import { TEXT_KERNELS_WASM } from '../../src/render/text-kernels.wasm.ts'
import { createTokenTally, settleTally, type TokenTally } from '../../src/render/text-tokens.ts'
import { createWindowTextWriter, writeWindowText, type WindowText } from '../../src/render/window-text.ts'
import { windowsOf } from '../helpers/render-input.ts'
import { rng } from '../helpers/seeded-random.ts'
// @ts-expect-error: a plain .mjs script without types
import { textKernelsSource } from '../../scripts/wasm-text-kernels.mjs'

const kernel = instantiateTextKernel()!
// A tally per separator (making one runs its self-check), reset before each use.
const tallies = new Map<string, TokenTally>()
function tallyFor(sep: Uint8Array): TokenTally {
  const key = Buffer.from(sep).toString('latin1')
  if (!tallies.has(key)) tallies.set(key, createTokenTally(3, sep)!)
  return Object.assign(tallies.get(key)!, { tokens: 0, from: -1, adjust: 0 })
}
const SEPARATORS = [',', ';', ' ', 'x', '\t', '|']

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

// toFixed(3), with formatMv's one difference: no sign on a result that rounds to zero.
const toFixed3 = (v: number) => Number(v).toFixed(3).replace(/^-(0\.000)$/, '$1')

function expectSame(values: Float32Array, what: string) {
  for (const s of SEPARATORS) {
    const sep = Buffer.from(s, 'latin1')
    const wasm = viaKernel(kernel, values, sep)
    const js = viaJs(values, sep)
    expect(wasm.text === js.text, `${what}, separator ${JSON.stringify(s)}: text`).toBe(true)
    expect(wasm.tokens, `${what}, separator ${JSON.stringify(s)}: tokens`).toBe(js.tokens)
  }
  expect(viaKernel(kernel, values, Buffer.from(',')).text).toBe(Array.from(values, toFixed3).join(','))
}

/** Every float32 from `count` steps below x to `count` above. */
function around(x: number, count: number): number[] {
  const f = Float32Array.of(x)
  const u = new Uint32Array(f.buffer)
  const base = u[0]
  return Array.from({ length: 2 * count + 1 }, (_, k) => ((u[0] = base - count + k), f[0]))
}

describe('the WebAssembly text kernel (format-mv-wasm)', () => {
  it('the committed module is what scripts/wasm-text-kernels.mjs assembles from its WAT text', async () => {
    const source: string = await textKernelsSource()
    expect(source).toContain(`'${TEXT_KERNELS_WASM}'`)
    expect(readFileSync(new URL('../../src/render/text-kernels.wasm.ts', import.meta.url), 'utf8')).toBe(source)
  })

  it('runs on this Node, and `wasm: false` or another layout keeps to JavaScript', () => {
    expect(instantiateTextKernel({ wasm: false })).toBeNull()
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
    const bounds = [...around(9.9995, 3000), ...around(-9.9995, 3000), ...around(10, 300), ...around(-10, 300), ...around(0.0005, 3000), ...around(-0.0005, 3000), ...around(1e-30, 100), -0, 0]
    expectSame(Float32Array.from(bounds), 'bounds')
    // The same values shuffled among small ones, so each meets every lane of a 4-value step.
    const next = rng(3)
    expectSame(Float32Array.from(bounds.flatMap((v) => [v, (next() - 0.5) * 4, (next() - 0.5) * 4].slice(0, 1 + Math.floor(next() * 3)))), 'bounds among small values')
  })

  it('equals formatRun3 where runs stop: NaN, infinities and values of 10 or more in every lane, at the ends, and lengths 0-9', () => {
    const special = [NaN, Infinity, -Infinity, 10, -10, 12.3456, -999.9995, 2147483.648, 1e21, -3.4e38]
    const next = rng(5)
    const calls = kernel.calls
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
    expect(kernel.calls - calls).toBeGreaterThan(1000) // most of these runs went through the kernel
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
  it('gives, for any grouping of record 100\'s windows, the bytes and tokens of writeWindowText window by window, with the kernel and without', async () => {
    const ws = await windowsOf('100')
    const texts: WindowText[] = ws.map((w, k) => ({ labels: w.labels, startMs: w.startMs, rate: w.fs, leads: k % 3 === 0 ? [w.samples[1]] : w.samples }))
    const sep = Uint8Array.of(44)
    const tally = createTokenTally(3, sep)
    const expected = texts.map((t) => {
      const r = writeWindowText(t, 3, sep, Buffer.alloc(0), tally)
      return { bytes: Buffer.from(r.out.subarray(0, r.end)), tokens: r.tokens }
    })
    for (const wasm of [true, false]) {
      const writer = createWindowTextWriter(3, sep, { wasm })
      // Groups of 1, 7 and all 180 (the kernel's memory grows), then 1 again (it stays grown).
      for (const size of [1, 7, texts.length, 1]) {
        for (let k = 0; k < texts.length; k += size) {
          const group = texts.slice(k, k + size)
          const { bytes, ends, tokens } = writer.format(group)
          group.forEach((_, j) => {
            const from = j === 0 ? 0 : ends[j - 1]
            expect(Buffer.from(bytes.subarray(from, ends[j])).equals(expected[k + j].bytes), `window ${k + j}, groups of ${size}, wasm ${wasm}`).toBe(true)
            expect(tokens[j]).toBe(expected[k + j].tokens)
          })
          expect(bytes.length).toBe(ends[group.length - 1])
        }
      }
    }
  })

  it('handles windows without leads, empty and 1-value leads, NaN leads, and no windows, as writeWindowText does', () => {
    const sep = Uint8Array.of(44)
    const odd: WindowText[] = [
      { labels: [], startMs: 0, rate: 360, leads: [] },
      { labels: ['I', 'II'], startMs: 1000, rate: 360, leads: [new Float32Array(0), Float32Array.of(-0.25)] },
      { labels: ['I'], startMs: 2000, rate: 250, leads: [Float32Array.of(1.5, NaN, NaN, -2.125, 0, 12.5, -0.0004)] },
      { labels: ['I'], startMs: 3000, rate: 250, leads: [new Float32Array(9).fill(NaN)] },
    ]
    const tally = createTokenTally(3, sep)
    for (const wasm of [true, false]) {
      const writer = createWindowTextWriter(3, sep, { wasm })
      expect(writer.format([]).bytes.length).toBe(0)
      const { bytes, ends, tokens } = writer.format(odd)
      odd.forEach((w, j) => {
        const r = writeWindowText(w, 3, sep, Buffer.alloc(0), tally)
        expect(Buffer.from(bytes.subarray(j === 0 ? 0 : ends[j - 1], ends[j])).toString(), `window ${j}, wasm ${wasm}`).toBe(r.out.subarray(0, r.end).toString())
        expect(tokens[j]).toBe(r.tokens)
      })
    }
  })
})
