// The signal stages together (quality -> clean -> detect -> summarize) on synthetic recordings
// with known beats, and on the bad inputs issue 3 lists: a record shorter than the filter
// margin, a flat line, a saturated lead, rates from 100 to 1000 Hz, invalid (NaN) runs and
// digital-extreme spikes. Each must give sane output, never a crash or a hang.
import { describe, expect, it } from 'vitest'
import type { BeatItem, Item, QualityItem, SampleBlock } from '../../src/core/items.ts'
import type { Stage } from '../../src/core/stage.ts'
import clean from '../../src/stages/clean.ts'
import detect from '../../src/stages/detect.ts'
import quality from '../../src/stages/quality.ts'
import summarize from '../../src/stages/summarize.ts'
import { runStage } from '../helpers/stage-context.ts'
import { syntheticEcg } from '../helpers/synthetic-ecg.ts'

/** Cuts one lead into 1 s blocks. */
function blocks(x: Float32Array, fs: number, second?: Float32Array): SampleBlock[] {
  const out: SampleBlock[] = []
  for (let at = 0; at < x.length; at += fs) {
    const leads = [x.slice(at, at + fs), ...(second ? [second.slice(at, at + fs)] : [])]
    out.push({ kind: 'block', recordId: 'rec', fs, startSample: at, labels: leads.map((_, i) => `L${i}`), leads })
  }
  return out
}

async function chain(items: Item[], stages: Stage<any>[] = [quality, clean, detect, summarize]): Promise<Item[]> {
  let cur = items
  for (const s of stages) cur = (await runStage(s, cur)).items
  return cur
}

const beatsOf = (items: Item[]) => items.filter((i): i is BeatItem => i.kind === 'beat')
const qualityOf = (items: Item[]) => items.filter((i): i is QualityItem => i.kind === 'quality')
const summaryOf = (items: Item[]) => items.find((i) => i.kind === 'summary') as Record<string, any>
const samplesOut = (items: Item[]) => items.filter((i): i is SampleBlock => i.kind === 'block').reduce((n, b) => n + b.leads[0].length, 0)

describe('signal stages together', () => {
  it.each([100, 128, 250, 360, 500, 1000])('find every beat of a 75 bpm synthetic ECG at %i Hz, on the R peak', async (fs) => {
    const x = syntheticEcg(fs, 60)
    const out = await chain(blocks(x, fs))
    expect(samplesOut(out)).toBe(x.length)
    const beats = beatsOf(out)
    // R peaks at 0.2 s + k * 0.8 s: 75 of them in 60 s.
    expect(beats.length).toBe(75)
    beats.forEach((b, k) => expect(Math.abs(b.sample / fs - (0.2 + 0.8 * k))).toBeLessThanOrEqual(0.012))
    expect(qualityOf(out).every((q) => q.leads[0].flags.length === 0)).toBe(true)
    const s = summaryOf(out)
    expect(s.totalBeats).toBe(75)
    expect(s.hr.meanHrBpm).toBeCloseTo(75, 0)
  }, 30_000)

  it.each([[0.01, 'a few samples'], [2, 'shorter than the 21 s filter margin'], [30, 'about one margin']])('keep a record of %s s (%s): every sample out, no error', async (seconds) => {
    const fs = 250
    const x = syntheticEcg(fs, seconds)
    const out = await chain(blocks(x, fs))
    expect(samplesOut(out)).toBe(x.length)
    const beats = beatsOf(out)
    // Beats every 0.8 s from 0.2 s; the detector's 2 s learning phase still places the early ones.
    expect(beats.length).toBeLessThanOrEqual(Math.floor((seconds - 0.2) / 0.8) + 1)
    if (seconds >= 30) expect(beats.length).toBeGreaterThanOrEqual(36)
    expect(summaryOf(out).durationSec).toBeCloseTo(x.length / fs, 3)
  }, 30_000)

  it('an empty record gives a summary with no beats and no NaN', async () => {
    const out = await chain([{ kind: 'block', recordId: 'rec', fs: 360, startSample: 0, labels: ['L0'], leads: [new Float32Array(0)] }])
    const s = summaryOf(out)
    expect(s.totalBeats).toBe(0)
    expect(s.hr.meanHrBpm).toBeNull()
    expect(JSON.stringify(s)).not.toMatch(/NaN|Infinity/)
  })

  it('a flat line: flagged flat in every window, no beats invented, an empty report', async () => {
    const fs = 360
    const out = await chain(blocks(new Float32Array(60 * fs).fill(0.3), fs))
    expect(qualityOf(out).map((q) => q.leads[0].flags)).toEqual(Array(6).fill(['flat']))
    expect(beatsOf(out).length).toBe(0)
    expect(summaryOf(out)).toMatchObject({ totalBeats: 0, hr: { meanHrBpm: null, pauses: { count: 0 } } })
  })

  it('a lead that goes flat for 20 s in the middle: those windows flagged, and no 20 s pause in the report', async () => {
    const fs = 250
    const x = syntheticEcg(fs, 60)
    x.fill(0.1, 20 * fs, 40 * fs)
    const out = await chain(blocks(x, fs))
    expect(qualityOf(out).map((q) => q.leads[0].flags.length > 0)).toEqual([false, false, true, true, false, false])
    const s = summaryOf(out)
    expect(s.hr.pauses.count).toBe(0)
    expect(s.quality.leads.L0.flaggedMs).toBe(20_000)
  })

  it('a saturated lead (a swing clipped at the rail for 1.5 s): flagged, beats around it still found', async () => {
    const fs = 360
    const x = syntheticEcg(fs, 60)
    for (let i = 30 * fs; i < 33 * fs; i++) x[i] += 6 * Math.sin((Math.PI * (i - 30 * fs)) / (3 * fs))
    for (let i = 0; i < x.length; i++) x[i] = Math.min(x[i], 5.115) // MIT-BIH 212 format's physical max
    const out = await chain(blocks(x, fs))
    expect(qualityOf(out)[3].leads[0].flags).toContain('saturated')
    const beats = beatsOf(out)
    expect(beats.filter((b) => b.sample < 29 * fs).length).toBeGreaterThanOrEqual(36)
    expect(beats.filter((b) => b.sample > 45 * fs).length).toBeGreaterThanOrEqual(18)
  }, 30_000)

  it('invalid (NaN) runs and a lead that is all invalid: NaN where invalid, beats elsewhere, no NaN in the report', async () => {
    const fs = 360
    const x = syntheticEcg(fs, 60)
    x.fill(NaN, 25 * fs, 27 * fs)
    for (let i = 50 * fs; i < 51 * fs; i += 7) x[i] = NaN // scattered invalid samples
    const dead = new Float32Array(60 * fs).fill(NaN)
    const out = await chain(blocks(x, fs, dead))
    const cleaned = out.filter((i): i is SampleBlock => i.kind === 'block')
    const lead0 = new Float32Array(60 * fs)
    for (const b of cleaned) lead0.set(b.leads[0], b.startSample)
    expect(Number.isNaN(lead0[26 * fs])).toBe(true)
    expect(Number.isFinite(lead0[10 * fs])).toBe(true)
    expect(qualityOf(out)[2].leads.map((l) => l.flags)).toEqual([['invalid'], ['invalid']])
    expect(qualityOf(out)[0].leads.map((l) => l.flags)).toEqual([[], ['invalid']])
    const beats = beatsOf(out)
    expect(beats.filter((b) => b.sample < 24 * fs).length).toBeGreaterThanOrEqual(29)
    expect(beats.filter((b) => b.sample > 52 * fs).length).toBeGreaterThanOrEqual(9)
    expect(JSON.stringify(summaryOf(out))).not.toMatch(/NaN|Infinity/)
    // Detecting on the dead lead finds nothing and fails nothing.
    const onDead = await chain(blocks(dead, fs))
    expect(beatsOf(onDead).length).toBe(0)
  }, 30_000)

  it('digital-extreme spikes (a lead jumping to its rails for single samples) do not silence the detector', async () => {
    const fs = 360
    const x = syntheticEcg(fs, 120)
    for (let s = 5; s < 120; s += 10) x[s * fs + 100] = s % 20 === 5 ? 5.115 : -5.12
    const beats = beatsOf(await chain(blocks(x, fs)))
    // 150 true beats; a spike may add a detection but must not stop the rest.
    const late = beats.filter((b) => b.sample > 100 * fs).length
    expect(late).toBeGreaterThanOrEqual(24)
    expect(beats.length).toBeGreaterThanOrEqual(148)
    expect(beats.length).toBeLessThanOrEqual(162)
  }, 30_000)
})
