// Pure parts of convert: the physical range of cleaned signals (||h||_1 of the clean chain, and
// why +-span would not be enough), rounding of that range for the header, the quantiser, and the
// placement of TALs in data records shared by the sizing pass and the writing pass.
import { describe, expect, it } from 'vitest'
import { cleanGainBound, createQuantiser, roundUpRange } from '../../src/commands/convert-scale.ts'
import { placeTals, sizeAnnotationSignal, type ConvertPlan, type SourcedTal } from '../../src/commands/convert-plan.ts'
import { createLeadCleaner, type CleanOptions } from '../../src/dsp/ecg-clean.ts'
import { formatEdfNumber } from '../../src/formats/edf-ascii.ts'
import { encodeTalBlock, talBytes } from '../../src/formats/tal.ts'

const OPTIONS: CleanOptions = { method: 'neurokit', highpassHz: 0.5, order: 5, powerlineHz: 50, zeroPhase: true }

function cleanAll(x: Float64Array, fs: number): Float64Array {
  const f = createLeadCleaner(OPTIONS, fs)
  const [a, b] = [f.push(x), f.finish()]
  const y = new Float64Array(a.length + b.length)
  y.set(a)
  y.set(b, a.length)
  return y
}

describe('cleanGainBound: ||h||_1 of the clean chain', () => {
  it.each([[200, 2.3955], [250, 2.3934], [360, 2.3932], [500, 2.3893], [1000, 2.3873]])('%d Hz: %f', (fs, l1) => {
    expect(cleanGainBound(OPTIONS, fs)).toBeCloseTo(l1, 3)
  })

  it('is reached by the worst input of span 2 (signs of h reversed), which +-span would clip', () => {
    const fs = 360
    const n = 100 * fs
    const impulse = new Float64Array(n)
    impulse[n >> 1] = 1
    const h = cleanAll(impulse, fs)
    // h[j] is the response at lag j - n/2; x[i] = sign(h[n - 1 - i]) makes y[n/2 - 1] = sum |h|.
    const x = new Float64Array(n).map((_, i) => (h[n - 1 - i] >= 0 ? 1 : -1))
    const y = cleanAll(x, fs)
    const bound = cleanGainBound(OPTIONS, fs)
    const peak = Math.abs(y[(n >> 1) - 1])
    expect(peak).toBeCloseTo(bound, 2)
    expect(peak).toBeGreaterThan(2) // beyond +-span: the range must be +-||h||_1 * span / 2
    let worst = 0
    for (let i = 20 * fs; i < n - 20 * fs; i++) worst = Math.max(worst, Math.abs(y[i]))
    expect(worst).toBeLessThanOrEqual(bound + 1e-9)
  })
})

describe('roundUpRange', () => {
  it.each([[8.53712, 8.538], [0.0943712, 0.09438], [1234567, 1235000], [1, 1], [9.99951, 10], [0, 1], [-3, 1]])('%f -> %f', (x, r) => {
    const got = roundUpRange(x)
    expect(got).toBe(r)
    expect(Number(formatEdfNumber(got, 8))).toBe(got)
    if (x > 0) expect(got).toBeGreaterThanOrEqual(x)
  })
})

describe('createQuantiser', () => {
  it('rounds to the nearest step of range/32767, clips beyond the range and writes NaN as 0, counting both', () => {
    const q = createQuantiser(32.767)
    expect(q.step).toBeCloseTo(0.001, 15)
    const out = new Int32Array(7)
    q.quantise(Float32Array.from([0, 0.0014, -0.0016, 32.767, 32.7676, -40, NaN]), out)
    expect(Array.from(out)).toEqual([0, 1, -2, 32767, 32767, -32767, 0])
    expect([q.clipped, q.invalid]).toEqual([2, 1])
  })
})

const tal = (onsetSec: number, text: string) => ({ onsetSec, durationSec: null, texts: [text] })
async function* from(list: SourcedTal[]): AsyncGenerator<SourcedTal> {
  yield* list
}

describe('placeTals and sizeAnnotationSignal', () => {
  it('places by onset record, never before an earlier TAL\'s record, never past the last record', async () => {
    const list = [0, 2, 1, 5, 9, 3].map((r) => ({ onsetRecord: r, tal: tal(r, `r${r}`) }))
    const placed: number[] = []
    for await (const p of placeTals(from(list), 6)) placed.push(p.record)
    expect(placed).toEqual([0, 2, 2, 5, 6, 6])
  })

  it('sizes the annotation signal for the fullest record, so every record encodes', async () => {
    const list = [{ onsetRecord: 1, tal: tal(1.5, 'N') }, { onsetRecord: 1, tal: tal(1.75, 'a long annotation text') }, { onsetRecord: 3, tal: tal(3.1, 'V') }]
    const plan = { layout: { recordDurationSec: 1, recordCount: 4, onset0Sec: 0 }, annotations: () => from(list) } as unknown as ConvertPlan
    const bytes = await sizeAnnotationSignal(plan, { signal: new AbortController().signal, warn: () => undefined })
    const need = talBytes(tal(1, '')) + talBytes(list[0].tal) + talBytes(list[1].tal)
    expect(bytes).toBe(2 * Math.ceil((need + 1) / 2))
    expect(() => encodeTalBlock(1, [list[0].tal, list[1].tal], bytes)).not.toThrow()
  })
})
