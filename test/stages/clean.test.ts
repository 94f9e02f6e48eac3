import { describe, expect, it } from 'vitest'
import clean from '../../src/stages/clean.ts'
import { createLeadCleaner, finiteRunEnd, type CleanOptions } from '../../src/dsp/ecg-clean.ts'
import type { Item, SampleBlock } from '../../src/core/items.ts'
import { PipelineError } from '../../src/core/errors.ts'
import { runStage } from '../helpers/stage-context.ts'

const ecgLike = (n: number, fs: number, from = 0) =>
  Float32Array.from({ length: n }, (_, k) => { const i = k + from; const t = i / fs; return (t % 0.8 < 0.03 ? 1.2 : 0) + 0.5 * Math.sin(t) + 0.05 * Math.sin(2 * Math.PI * 50 * t) - 0.8 })

function blocks(signal: Float32Array[], fs: number, size: number, start = 0): SampleBlock[] {
  const out: SampleBlock[] = []
  for (let s = 0; s < signal[0].length; s += size) {
    out.push({ kind: 'block', recordId: 'rec', fs, startSample: start + s, labels: signal.map((_, i) => `L${i}`), leads: signal.map((x) => x.slice(s, s + size)) })
  }
  return out
}
const sampleBlocks = (items: Item[]) => items.filter((i): i is SampleBlock => i.kind === 'block')
function joined(items: Item[], lead = 0): Float32Array {
  const bs = sampleBlocks(items)
  const out = new Float32Array(bs.reduce((n, b) => n + b.leads[lead].length, 0))
  let o = 0
  for (const b of bs) {
    expect(b.startSample).toBe(bs[0].startSample + o) // contiguous numbering
    out.set(b.leads[lead], o)
    o += b.leads[lead].length
  }
  return out
}
const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0)

describe('clean stage', () => {
  const FS = 360
  const sig = [ecgLike(60 * FS, FS), ecgLike(60 * FS, FS, 1234)]

  it('filters every lead, keeps numbering and total length, and passes other items through in order', async () => {
    const bs = blocks(sig, FS, 3600)
    const rec = { kind: 'recording', recordId: 'rec' } as Item
    const ann = { kind: 'annotation', recordId: 'rec', sample: 7300, symbol: 'N' } as Item
    const input: Item[] = [rec, bs[0], bs[1], ann, ...bs.slice(2)]
    const { items } = await runStage(clean, input)
    expect(items[0]).toBe(rec)
    const out = sampleBlocks(items)
    expect(out[0].startSample).toBe(0)
    expect(out.every((b) => b.leads.length === 2 && b.labels.join() === 'L0,L1' && b.fs === FS)).toBe(true)
    expect(joined(items, 0).length).toBe(sig[0].length)
    expect(joined(items, 1).length).toBe(sig[1].length)
    // The annotation (which arrived before input sample 7200) comes just before the output
    // block holding sample 7200, not at a block boundary cut for it.
    const at = items.indexOf(ann)
    const next = items[at + 1] as SampleBlock
    expect(next.kind).toBe('block')
    expect(next.startSample).toBeLessThanOrEqual(7200)
    expect(next.startSample + next.leads[0].length).toBeGreaterThan(7200)
    expect(sampleBlocks(items).some((b) => b.startSample === 7200)).toBe(false)
    // The high-pass removed the offset and slow baseline; output is finite.
    const y = joined(items)
    expect(y.every(Number.isFinite)).toBe(true)
    expect(Math.abs(y.reduce((s, v) => s + v, 0) / y.length)).toBeLessThan(0.05)
  })

  it('cuts its output at a gap, and puts the gap item exactly between the samples before and after it', async () => {
    const bs = blocks(sig, FS, 3600)
    const gap = { kind: 'gap', recordId: 'rec', startMs: 20_000, endMs: 25_000, atSample: 7200 } as Item
    const marks = [3000, 5000, 9000].map((sample) => ({ kind: 'beat', recordId: 'rec', source: 'reference', sample, label: 'N' }) as Item)
    const input: Item[] = [marks[0], bs[0], marks[1], bs[1], gap, bs[2], marks[2], ...bs.slice(3)]
    const { items } = await runStage(clean, input)
    const g = items.indexOf(gap)
    const before = items.slice(0, g).filter((i) => i.kind === 'block') as SampleBlock[]
    expect(before.reduce((n, b) => n + b.leads[0].length, 0)).toBe(7200)
    expect(items.slice(g).find((i): i is SampleBlock => i.kind === 'block')!.startSample).toBe(7200)
    // Marks keep their order and each precedes the block that holds its position.
    expect(items.filter((i) => i.kind === 'beat')).toEqual(marks)
    for (const m of marks) {
      const next = items.slice(items.indexOf(m)).find((i): i is SampleBlock => i.kind === 'block')!
      expect(next.startSample + next.leads[0].length).toBeGreaterThan((m as { sample: number }).sample - 3600)
    }
    expect(sampleBlocks(items).length).toBeLessThanOrEqual(4)
  })

  it('gives bit-identical output for block sizes 1, 997 and 3600', async () => {
    const x = [sig[0].slice(0, 30 * FS)]
    const a = joined((await runStage(clean, blocks(x, FS, 3600))).items)
    const b = joined((await runStage(clean, blocks(x, FS, 997))).items)
    const c = joined((await runStage(clean, blocks(x, FS, 1))).items)
    expect(maxDiff(a, b)).toBe(0)
    expect(maxDiff(a, c)).toBe(0)
  })

  it('createLeadCleaner: bit-identical output for blocks of 1, 997, 3600, 50,000 and 100,000 over 5 min (several backward windows, up to three ending in one push)', () => {
    const options: CleanOptions = { method: 'neurokit', highpassHz: 0.5, order: 5, powerlineHz: 50, zeroPhase: true }
    const x = Float64Array.from(ecgLike(5 * 60 * FS, FS))
    const run = (size: number, output?: 'float32') => {
      const lead = createLeadCleaner(options, FS, output)
      const parts: number[] = []
      for (let s = 0; s < x.length; s += size) for (const v of lead.push(x.subarray(s, s + size))) parts.push(v)
      for (const v of lead.finish()) parts.push(v)
      return parts
    }
    const a = run(3600)
    expect(a.length).toBe(x.length)
    for (const size of [1, 997, 50000, 100000]) expect(run(size)).toEqual(a)
    // Float32 output (the stage's): the same doubles, rounded once.
    const a32 = a.map(Math.fround)
    for (const size of [997, 3600, 100000]) expect(run(size, 'float32')).toEqual(a32)
  })

  it('causal mode (zeroPhase: false) emits at once and differs from zero phase', async () => {
    const bs = blocks([sig[0]], FS, 3600)
    const zp = await runStage(clean, bs)
    const causal = await runStage(clean, bs, { options: { zeroPhase: false } })
    // No look-ahead: one output block per input block, same boundaries.
    expect(sampleBlocks(causal.items).map((b) => b.leads[0].length)).toEqual(bs.map((b) => b.leads[0].length))
    const d = maxDiff(joined(zp.items), joined(causal.items))
    expect(d).toBeGreaterThan(0.05)
    expect(joined(causal.items).every(Number.isFinite)).toBe(true)
  })

  it('flushes at a gap: samples before the gap come out before it, filters restart after it', async () => {
    const bs = blocks([sig[0]], FS, 3600)
    const gap = { kind: 'gap', recordId: 'rec', startMs: 20000, endMs: 25000, atSample: 7200 } as Item
    const { items } = await runStage(clean, [bs[0], bs[1], gap, ...bs.slice(2)])
    const before = items.slice(0, items.indexOf(gap)) as SampleBlock[]
    expect(before.reduce((n, b) => n + b.leads[0].length, 0)).toBe(7200)
    // After the gap the output equals cleaning the rest alone (restarted at startSample 7200).
    const alone = await runStage(clean, blocks([sig[0].slice(7200)], FS, 3600, 7200))
    expect(maxDiff(joined(items.slice(items.indexOf(gap) + 1)), joined(alone.items))).toBe(0)
  })

  it.each([128, 250, 360, 500])('gives finite output of the right length at %i Hz', async (fs) => {
    const x = ecgLike(45 * fs + 17, fs)
    const { items } = await runStage(clean, blocks([x], fs, 1000))
    const y = joined(items)
    expect(y.length).toBe(x.length)
    expect(y.every(Number.isFinite)).toBe(true)
  })

  it.each([0, 1, 5, 100, 2000])('a record of %i samples (shorter than the margin) gives finite output of the same length', async (n) => {
    const x = ecgLike(n, FS)
    const { items } = await runStage(clean, n ? blocks([x], FS, 64) : [])
    const y = joined(items)
    expect(y.length).toBe(n)
    expect(y.every(Number.isFinite)).toBe(true)
  })

  it('NaN samples come out as NaN and do not poison the rest of the record', async () => {
    const x = sig[0].slice()
    x.fill(NaN, 10000, 10010)
    x[15000] = Infinity
    const y = joined((await runStage(clean, blocks([x], FS, 3600))).items)
    expect(y.length).toBe(x.length)
    for (let i = 0; i < y.length; i++) expect(Number.isNaN(y[i])).toBe((i >= 10000 && i < 10010) || i === 15000)
    // After the last bad sample the filter restarted: same as cleaning that stretch alone.
    const tail = joined((await runStage(clean, blocks([x.slice(15001)], FS, 3600))).items)
    expect(maxDiff(y.slice(15001), tail)).toBe(0)
  })

  it('holds a bounded number of samples per lead, independent of record length', () => {
    const options: CleanOptions = { method: 'neurokit', highpassHz: 0.5, order: 5, powerlineHz: 50, zeroPhase: true }
    const lead = createLeadCleaner(options, FS)
    // High-pass: margin + 2 chunks of 4 margins (9 * 7685) + padlen 18 + 1; moving average: padlen 21 + 1.
    expect(lead.maxHeld).toBe(9 * 7685 + 19 + 22)
    let maxHeld = 0
    let out = 0
    const x = Float64Array.from(ecgLike(10 * 60 * FS, FS))
    for (let s = 0; s < x.length; s += 3600) {
      out += lead.push(x.subarray(s, s + 3600)).length
      maxHeld = Math.max(maxHeld, lead.held())
      expect(s + 3600 - out).toBeLessThanOrEqual(lead.maxHeld) // what went in and has not come out
    }
    expect(maxHeld).toBeLessThanOrEqual(lead.maxHeld)
    expect(out + lead.finish().length).toBe(x.length)
  })

  it('rejects bad options and a cutoff the sampling rate cannot carry with a PipelineError', async () => {
    expect(() => clean.parseOptions!({ method: 'pantompkins' }, { file: 'd.yaml', yamlPath: 'stages[1].options' })).toThrow(PipelineError)
    expect(() => clean.parseOptions!({ highpass: 1 }, { file: 'd.yaml', yamlPath: 'stages[1].options' })).toThrow(/unknown option "highpass"/)
    const err = await runStage(clean, blocks([ecgLike(1000, 100)], 100, 500), { options: { highpassHz: 60 } }).catch((e) => e)
    expect(err).toBeInstanceOf(PipelineError)
    expect(err.code).toBe('E_CONFIG_VALUE')
    expect(err.cause).toBeInstanceOf(RangeError)
  })
})

describe('finiteRunEnd', () => {
  it('ends each run of finite samples exactly where a sample-by-sample scan does, eight at a time or not', () => {
    const naive = (x: Float32Array, i: number) => {
      while (i < x.length && Number.isFinite(x[i])) i++
      return i
    }
    const F32_MAX = 3.4028234663852886e38
    for (const bad of [NaN, Infinity, -Infinity]) {
      for (const n of [0, 1, 7, 8, 9, 16, 17, 100]) {
        for (let at = -1; at < n; at++) {
          // Largest finite float32 values: their sum of eight stays finite in double.
          const x = Float32Array.from({ length: n }, (_, i) => (i % 3 === 0 ? F32_MAX : i % 3 === 1 ? -F32_MAX : i / 7))
          if (at >= 0) x[at] = bad
          for (const from of [0, 1, 5].filter((f) => f <= n)) expect(finiteRunEnd(x, from), `n ${n}, ${bad} at ${at}, from ${from}`).toBe(naive(x, from))
        }
      }
    }
  })
})
