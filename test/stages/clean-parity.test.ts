// Clean parity (issue 3): the stage, fed the golden raw MIT-BIH lead in blocks, against NeuroKit2
// 0.2.9 ecg_clean(method="neurokit") of the same signal (../shared/golden/dsp, README there).
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import clean from '../../src/stages/clean.ts'
import type { Item, SampleBlock } from '../../src/core/items.ts'
import { runStage } from '../helpers/stage-context.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const FS = 360
const readF32 = (rel: string) => {
  const b = readFileSync(sharedPath(rel))
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length))
}
function* blocks(x: Float32Array, size: number): Generator<SampleBlock> {
  for (let s = 0; s < x.length; s += size) yield { kind: 'block', recordId: 'rec', fs: FS, startSample: s, labels: ['MLII'], leads: [x.subarray(s, s + size)] }
}
async function cleanStream(x: Float32Array, size: number): Promise<Float32Array> {
  const { items } = await runStage(clean, blocks(x, size))
  const y = new Float32Array(x.length).fill(NaN)
  let n = 0
  for (const item of items as Item[]) {
    if (item.kind !== 'block') continue
    const b = item as SampleBlock
    y.set(b.leads[0], b.startSample)
    n += b.leads[0].length
  }
  expect(n).toBe(x.length)
  return y
}
// Max and RMS of |a - b| over [from, to).
function diff(a: Float32Array, b: Float32Array, from: number, to: number) {
  let max = 0
  let ss = 0
  for (let i = from; i < to; i++) {
    const d = Math.abs(a[i] - b[i])
    max = Math.max(max, d)
    ss += d * d
  }
  return { max, rms: Math.sqrt(ss / (to - from)) }
}

describeShared('clean parity with NeuroKit2 ecg_clean (golden)', () => {
  it.each(['100', '208'])('record %s in blocks of 3600: max <= 0.005 mV and RMS <= 0.001 mV outside the first and last 10 s', async (rec) => {
    const raw = readF32(`golden/dsp/${rec}_lead0_raw_mV.f32`)
    const ref = readF32(`golden/dsp/${rec}_lead0_nk_clean.f32`)
    expect(raw.length).toBe(650000)
    const y = await cleanStream(raw, 3600)
    const d = diff(y, ref, 10 * FS, raw.length - 10 * FS)
    expect(d.max).toBeLessThanOrEqual(0.005)
    expect(d.rms).toBeLessThanOrEqual(0.001)
    // Measured: float32 rounding only (2.4e-7 mV max), edges included; guard against regressions.
    expect(diff(y, ref, 0, raw.length).max).toBeLessThan(1e-5)
  })

  it('a 90 s excerpt of record 208 in blocks of 1, 997 and 3600: identical output, and parity away from its edges', async () => {
    const raw = readF32('golden/dsp/208_lead0_raw_mV.f32')
    const ref = readF32('golden/dsp/208_lead0_nk_clean.f32')
    const start = 300000
    const n = 90 * FS
    const x = raw.slice(start, start + n)
    const [a, b, c] = await Promise.all([cleanStream(x, 3600), cleanStream(x, 997), cleanStream(x, 1)])
    expect(diff(a, b, 0, n).max).toBeLessThanOrEqual(1e-6)
    expect(diff(a, c, 0, n).max).toBeLessThanOrEqual(1e-6)
    const d = diff(a, ref.subarray(start, start + n), 10 * FS, n - 10 * FS)
    expect(d.max).toBeLessThanOrEqual(0.005)
    expect(d.rms).toBeLessThanOrEqual(0.001)
  })
})
