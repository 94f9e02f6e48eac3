// Reading render-text's text back and writing it at a lower rate, on text made by render-text's
// own writer from record 100 (samples/mitdb/100) and on a known sine.
import { beforeAll, describe, expect, it } from 'vitest'
import type { WindowItem } from '../../src/core/items.ts'
import { downsampleEcgText, parseEcgText } from '../../src/models/text-downsample.ts'
import { estimateTokens } from '../../src/render/estimate-tokens.ts'
import { createResampler } from '../../src/render/resample.ts'
import { createWindowTextWriter } from '../../src/render/window-text.ts'
import { renderInput } from '../helpers/render-input.ts'
import { thrown } from '../helpers/thrown.ts'

const tokensOf = (text: string) => estimateTokens(Buffer.from(text, 'utf8'))

/** The text render-text writes for these windows (both leads), at `rate` when given. */
function textOf(ws: { labels: string[]; startMs: number; fs: number; samples: Float32Array[] }[], decimals = 3, separator = ',', rate?: number): string {
  const writer = createWindowTextWriter(decimals, Buffer.from(separator))
  const rs = createResampler(ws[0].fs, rate ?? ws[0].fs)
  return ws.map((w) => Buffer.from(writer.format({ labels: w.labels, startMs: w.startMs, rate: rs.toHz, leads: w.samples.map((x) => rs.apply(x)) }).bytes).toString('utf8')).join('')
}

/** Tokens of the parsed text at fromRate / factor, built from the resampler and writer directly (the oracle for "highest rate"). */
function tokensAtFactor(text: string, factor: number): number {
  const { lines } = parseEcgText(text)
  return tokensOf(textOf(lines.map((l) => ({ labels: [l.label], startMs: msOf(l.time), fs: l.rate, samples: [l.values] })), lines[0].decimals, lines[0].separator, lines[0].rate / factor))
}

const msOf = (t: string) => t.split(':').reduce((s, p) => s * 60 + Number(p), 0) * 1000
const sine = (n: number, fs: number, hz: number) => Float32Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * hz * i) / fs + 0.3))

let windows: WindowItem[]
let text: string
beforeAll(async () => {
  windows = (await renderInput('100', 20)).filter((i): i is WindowItem => i.kind === 'window')
  text = textOf(windows)
})

describe('parseEcgText', () => {
  it('reads back render-text\'s lines of record 100, and writing them again gives the same text', () => {
    expect(windows).toHaveLength(2)
    const { lines } = parseEcgText(text)
    expect(lines.map((l) => [l.label, l.time, l.rate, l.decimals, l.separator, l.values.length])).toEqual([
      ['MLII', '00:00:00.000', 360, 3, ',', 3600],
      ['V5', '00:00:00.000', 360, 3, ',', 3600],
      ['MLII', '00:00:10.000', 360, 3, ',', 3600],
      ['V5', '00:00:10.000', 360, 3, ',', 3600],
    ])
    const samples = windows.flatMap((w) => w.samples)
    lines.forEach((l, k) => l.values.forEach((v, i) => expect(Math.abs(v - samples[k][i])).toBeLessThanOrEqual(0.0005 + 1e-6)))
    const again = textOf(lines.map((l) => ({ labels: [l.label], startMs: msOf(l.time), fs: l.rate, samples: [l.values] })))
    expect(again).toBe(text)
  })

  it('finds the decimals and separator of each layout render-text allows, and NaN values', () => {
    const w = { labels: ['ECG 1'], startMs: 3_725_042, fs: 250, samples: [Float32Array.of(-0.5, 1.25, NaN, 12.125, 0)] }
    for (const [decimals, separator] of [[2, ', '], [4, ' '], [0, ';'], [6, ' | ']] as const) {
      const [line] = parseEcgText(textOf([w], decimals, separator)).lines
      expect(line).toMatchObject({ label: 'ECG 1', time: '01:02:05.042', rate: 250, decimals, separator })
      expect(Array.from(line.values)).toEqual(Array.from(w.samples[0], (v) => Math.fround(Number(v.toFixed(decimals)))))
    }
    expect(parseEcgText('II 00:00:00.000 128.5Hz: 7\n').lines[0]).toMatchObject({ rate: 128.5, separator: ',', decimals: 0 })
    expect(parseEcgText('II 00:00:00.000 100Hz: NaN,NaN').lines[0].values).toEqual(Float32Array.of(NaN, NaN))
  })

  it('names the line that is not in render-text\'s layout', () => {
    const lines = text.split('\n')
    const cases = [
      [`${lines[0]}\n${lines[1].slice(0, 40)}x,0.100\n`, 2, /line 2 .*value \d+ "[-\d.]*x", not a number with 3 decimals/],
      [`${lines[0]}\nII 00:00:00.000 360Hz: 0.100,,\n`, 2, /line 2 .*no separator/],
      [`${lines[0]}\nMLII 0.125,0.250\n`, 2, /line 2 .*no header/],
      [`${lines[0]}\n${lines[1]}\nV5 00:00:20.000 360Hz: 0.125,0.25\n`, 3, /line 3 .*value 2 "0.25", not a number with 3 decimals/],
      [`\n${lines[0]}\n`, 1, /line 1 .*no header/],
    ] as const
    for (const [bad, line, message] of cases) {
      const err = thrown(() => parseEcgText(bad))
      expect(err.code).toBe('E_MODEL_INPUT')
      expect(err.context.line).toBe(line)
      expect(err.message).toMatch(message)
    }
  })
})

describe('downsampleEcgText', () => {
  it('writes the text at the highest rate whose tokens fit, as estimateTokens counts them', () => {
    const original = tokensOf(text)
    // Candidates of 360 Hz (rates of at most 3 decimals): factors 2, 3, 4, 5, 6, 8, 9, 10, 12, ...
    for (const share of [0.6, 0.3, 0.12, 0.05]) {
      const maxTokens = Math.floor(share * original)
      const r = downsampleEcgText(text, { maxTokens })!
      expect(r, `${share}`).not.toBeNull()
      expect(r.tokens).toBe(tokensOf(r.text))
      expect(r.tokens).toBeLessThanOrEqual(maxTokens)
      expect(r).toMatchObject({ fromRate: 360, rate: 360 / r.factor })
      // Every higher candidate rate is over the budget.
      for (let k = 2; k < r.factor; k++) if (Number((360 / k).toFixed(3)) === 360 / k) expect(tokensAtFactor(text, k), `factor ${k}`).toBeGreaterThan(maxTokens)
      const { lines } = parseEcgText(r.text)
      expect(lines.map((l) => l.rate)).toEqual([r.rate, r.rate, r.rate, r.rate])
      expect(lines.map((l) => l.values.length)).toEqual(Array(4).fill(Math.round(3600 / r.factor)))
      expect(lines.map((l) => `${l.label} ${l.time}`)).toEqual(['MLII 00:00:00.000', 'V5 00:00:00.000', 'MLII 00:00:10.000', 'V5 00:00:10.000'])
      expect(r.text.split('\n', 1)[0]).toMatch(new RegExp(`^MLII 00:00:00\\.000 ${r.rate}Hz: -?\\d\\.\\d{3},`))
    }
  })

  it('keeps the text as it is when it fits, and gives null when even the lowest rate does not', () => {
    expect(downsampleEcgText(text, { maxTokens: tokensOf(text) })).toEqual({ text, rate: 360, fromRate: 360, tokens: tokensOf(text), factor: 1 })
    expect(downsampleEcgText(text, { maxTokens: 100 })).toBeNull()
    // At 10 Hz the text fits in this budget, but 200 Hz and up are the only rates allowed.
    const at10 = tokensAtFactor(text, 36)
    expect(downsampleEcgText(text, { maxTokens: at10 })!.rate).toBe(10)
    expect(downsampleEcgText(text, { maxTokens: at10, minRate: 200 })).toBeNull()
  })

  // Within about 10 values of a line's ends the resampler's kernel is cut off (resample.ts): the
  // error there is up to 0.2 mV at factor 24, so those are left out.
  it('keeps a slow sine (2 Hz) within 0.001 mV away from the line\'s ends, with round(n / factor) values, on odd lengths too', () => {
    const x = sine(1001, 360, 2)
    const one = textOf([{ labels: ['II'], startMs: 0, fs: 360, samples: [x] }]).slice(0, -1) // no final line break
    for (const factor of [2, 3, 8, 20]) {
      const r = downsampleEcgText(one, { maxTokens: tokensAtFactor(one, factor) })!
      expect(r.factor).toBe(factor)
      expect(r.text.endsWith('\n')).toBe(false)
      const [line] = parseEcgText(r.text).lines
      expect(line.values.length).toBe(Math.round(1001 / factor))
      let worst = 0
      for (let k = 10; k < line.values.length - 10; k++) worst = Math.max(worst, Math.abs(line.values[k] - Math.sin((2 * Math.PI * 2 * k * factor) / 360 + 0.3)))
      expect(worst, `factor ${factor}`).toBeLessThan(0.001)
    }
  })

  it('refuses lines at different rates and a bad budget', () => {
    const mixed = 'II 00:00:00.000 360Hz: 0.100,0.200\nII 00:00:10.000 250Hz: 0.100,0.200\n'
    expect(thrown(() => downsampleEcgText(mixed, { maxTokens: 1 })).context.line).toBe(2)
    expect(thrown(() => downsampleEcgText(text, { maxTokens: Number.NaN })).code).toBe('E_CONFIG_VALUE')
    expect(thrown(() => downsampleEcgText(text, { maxTokens: 10, minRate: 0 })).code).toBe('E_CONFIG_VALUE')
  })
})
