import { describe, expect, it } from 'vitest'
import { getEncoding } from 'js-tiktoken'
import { estimateTokens } from '../../src/render/estimate-tokens.ts'
import { createWindowTextWriter } from '../../src/render/window-text.ts'
import { createResampler } from '../../src/render/resample.ts'
import { windowsOf } from '../helpers/render-input.ts'

const enc = (s: string) => new TextEncoder().encode(s)
const cl100k = getEncoding('cl100k_base')
const o200k = getEncoding('o200k_base')

describe('estimateTokens', () => {
  it('counts the pre-tokens of cl100k_base on small texts', () => {
    for (const text of ['-0.145,0.150,-1.234,12.345,0.000', 'MLII 00:00:10.000 360Hz: -0.145,-0.150\n', '1234567 ,- ;; x\n\n  y', '  \n\t 3', 'a  b', '', '1.000;-2.000 NaN,NaN\n']) {
      expect(estimateTokens(enc(text)), JSON.stringify(text)).toBe(cl100k.encode(text).length)
    }
  })

  it('counts within a range of bytes', () => {
    const b = enc('xx 1.000,2.000 yy')
    expect(estimateTokens(b, 3, 14)).toBe(estimateTokens(enc('1.000,2.000')))
  })

  it('is exact on record 100 as render-text writes it (both leads, 3 decimals; and at 100 Hz), for cl100k_base and o200k_base', async () => {
    const ws = await windowsOf('100')
    expect(ws).toHaveLength(180)
    const to100 = createResampler(360, 100)
    const sep = enc(',')
    let total = 0
    const writer = createWindowTextWriter(3, sep)
    // Every 9th window at 360 Hz (js-tiktoken takes about 20 ms a window), every 6th at 100 Hz.
    for (const [step, resample] of [[9, false], [6, true]] as const) {
      for (let k = 0; k < ws.length; k += step) {
        const w = ws[k]
        const leads = resample ? w.samples.map((x) => to100.apply(x)) : w.samples
        const { bytes } = writer.format({ labels: w.labels, startMs: w.startMs, rate: resample ? 100 : w.fs, leads })
        const text = Buffer.from(bytes).toString('latin1')
        const estimate = estimateTokens(bytes)
        expect(estimate, `window ${k}`).toBe(cl100k.encode(text).length)
        expect(estimate, `window ${k}`).toBe(o200k.encode(text).length)
        total += estimate
      }
    }
    expect(total).toBeGreaterThan(50_000)
  })

  it('stays within 10 % on clinical prose (letters are estimated, not merged)', () => {
    for (const text of [
      "The patient's Holter ECG shows sinus rhythm at 72 bpm with 3 premature ventricular beats (PVCs); no pauses > 2.0 s. Lead MLII: QRS width 0.09 s, QT 0.41 s.\n",
      'Atrial fibrillation episodes were detected between 02:14 and 03:40, with a mean ventricular rate of 118 beats per minute.',
      'Question: Which rhythm is present in this 10 s segment? Options: (A) normal sinus rhythm (B) atrial flutter (C) ventricular tachycardia. Answer with the letter only.',
    ]) {
      for (const encoding of [cl100k, o200k]) {
        const real = encoding.encode(text).length
        expect(Math.abs(estimateTokens(enc(text)) - real) / real, text).toBeLessThan(0.1)
      }
    }
  })
})
