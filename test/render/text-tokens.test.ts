import { describe, expect, it } from 'vitest'
import { estimateTokens } from '../../src/render/estimate-tokens.ts'
import { formatMv, formatMvInto, maxMvBytes } from '../../src/render/format-mv.ts'
import { createTokenTally, settleTally } from '../../src/render/text-tokens.ts'
import { createResampler } from '../../src/render/resample.ts'
import { createWindowTextWriter, type WindowText, type WindowTextWriter } from '../../src/render/window-text.ts'
import { windowsOf } from '../helpers/render-input.ts'
import { rng } from '../helpers/seeded-random.ts'

const enc = (s: string) => Buffer.from(s, 'utf8')

// Writers by layout, with the WebAssembly kernel where it applies and without (making one runs
// the tally's self-check), reused across windows.
const writers = new Map<string, WindowTextWriter[]>()
function writersFor(decimals: number, separator: string): WindowTextWriter[] {
  const key = `${decimals}:${separator}`
  if (!writers.has(key)) {
    const sep = enc(separator)
    expect(createTokenTally(decimals, sep), `self-check for ${JSON.stringify(separator)}`).not.toBeNull()
    writers.set(key, [createWindowTextWriter(decimals, sep), createWindowTextWriter(decimals, sep, { wasm: false })])
  }
  return writers.get(key)!
}

/** The tokens counted while formatting equal estimateTokens of the bytes, with the kernel and without, and the bytes are the same. */
function expectSameAsScan(w: WindowText, decimals: number, separator: string, what: string) {
  const [kernel, js] = writersFor(decimals, separator).map((writer) => {
    const { bytes, tokens } = writer.format(w)
    return { bytes: Buffer.from(bytes), tokens }
  })
  expect(kernel.bytes.equals(js.bytes), what).toBe(true)
  expect(js.tokens, what).toBe(estimateTokens(js.bytes))
  expect(kernel.tokens, what).toBe(js.tokens)
  return js.tokens
}

// Separators the stage accepts: punctuation, with spaces, spaces alone, letters, a tab, non-ASCII.
const CONFIGS: [number, string][] = [[3, ','], [2, ', '], [4, ' '], [0, ';'], [6, '  '], [1, ' ; '], [3, 'x'], [5, '\t'], [3, 'µ'], [2, ' a ']]

describe('counting tokens while formatting (text-tokens)', () => {
  it('equals estimateTokens on every window of record 100 (both leads) for several decimals and separators, at 360 Hz and resampled to 100 Hz', async () => {
    const ws = await windowsOf('100')
    expect(ws).toHaveLength(180)
    const to100 = createResampler(360, 100)
    let total = 0
    for (const [decimals, separator] of CONFIGS) {
      for (const resample of [false, true]) {
        for (const w of ws) {
          const leads = resample ? w.samples.map((x) => to100.apply(x)) : w.samples
          const text = { labels: w.labels, startMs: w.startMs, rate: resample ? 100 : w.fs, leads }
          total += expectSameAsScan(text, decimals, separator, `window ${w.index} d=${decimals} sep=${JSON.stringify(separator)} ${resample ? '100 Hz' : ''}`)
        }
      }
    }
    expect(total).toBeGreaterThan(10_000_000)
  })

  it('equals estimateTokens on random values with NaN, Infinity, huge values, negative zeros and empty leads mixed in', () => {
    const next = rng(7)
    const special = [NaN, Infinity, -Infinity, -0, 0, 1e21, -3.4028234663852886e38, 2147483.648, -2147.4836, 1e7, -1e-7, 0.0005, -0.0005, 99999.9995]
    const pick = () => {
      const r = next()
      if (r < 0.15) return special[Math.floor(next() * special.length)]
      if (r < 0.2) return (next() - 0.5) * 10 ** Math.floor(next() * 12) // any number of integer digits
      return (next() - 0.5) * 10
    }
    for (const [decimals, separator] of CONFIGS) {
      for (let k = 0; k < 60; k++) {
        // 0-3 leads of 0-40 values; runs of NaN at the start, the end and across lines come up often.
        const count = Math.floor(next() * 4)
        const leads = Array.from({ length: count }, () => Float32Array.from({ length: Math.floor(next() * 41) }, pick))
        const labels = leads.map((_, l) => ['MLII', 'V5', 'ECG lead 2', 'Ä'][l % 4])
        expectSameAsScan({ labels, startMs: Math.floor(next() * 1e8), rate: 360, leads }, decimals, separator, `case ${k} d=${decimals} sep=${JSON.stringify(separator)}`)
      }
      // A lead that is all NaN (a lead off for the whole window), and NaN between the leads.
      expectSameAsScan({ labels: ['I', 'II'], startMs: 0, rate: 250, leads: [new Float32Array(50).fill(NaN), Float32Array.of(NaN, 1.5, NaN)] }, decimals, separator, 'NaN leads')
    }
  })

  it('counts values alone (no header) the same as estimateTokens of formatMv', () => {
    const values = Float32Array.of(-0, 1.25, NaN, -12.5, Infinity, 3e9, 0.001, -7)
    for (const [decimals, separator] of CONFIGS) {
      const sep = enc(separator)
      const tally = createTokenTally(decimals, sep)!
      const out = new Uint8Array(maxMvBytes(values.length, sep.length))
      const end = formatMvInto(values, out, 0, decimals, sep, tally)
      settleTally(tally, out, end)
      expect(tally.tokens).toBe(estimateTokens(formatMv(values, decimals, separator)))
    }
  })
})
