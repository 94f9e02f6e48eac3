import { describe, expect, it } from 'vitest'
import summarize from '../../src/stages/summarize.ts'
import { createArtifactGate } from '../../src/dsp/artifact-gate.ts'
import type { BeatItem, Item, QualityItem, SampleBlock } from '../../src/core/items.ts'
import { runStage } from '../helpers/stage-context.ts'

const fs = 100
const beat = (sample: number, source: BeatItem['source'] = 'detector', label: BeatItem['label'] = 'N'): BeatItem =>
  ({ kind: 'beat', recordId: 'rec', source, sample, timeMs: sample * 10, label, ...(source === 'detector' ? { lead: 'MLII' } : {}) })
const window = (index: number, flags: [string[], string[]]): QualityItem => ({
  kind: 'quality', id: `rec:q${index}`, recordId: 'rec', index, startSample: index * 1000, endSample: (index + 1) * 1000, startMs: index * 10_000, endMs: (index + 1) * 10_000,
  leads: (['MLII', 'V5'] as const).map((label, l) => ({ label, index: l, flags: flags[l] as QualityItem['leads'][0]['flags'], invalidPct: 0, flatPct: 0, saturatedPct: 0, slopeKurtosis: 20 })),
})
const block = (startSample: number, n = 1000): SampleBlock => ({ kind: 'block', recordId: 'rec', fs, startSample, labels: ['MLII', 'V5'], leads: [new Float32Array(n), new Float32Array(n)] })
const summaryOf = (items: Item[]) => items.find((i) => i.kind === 'summary') as Record<string, any>

describe('artifact gate', () => {
  it('holds beats until a window covers them; a detector beat follows its own lead, a reference beat needs every lead flagged', () => {
    const gate = createArtifactGate()
    expect(gate.beat(beat(100))).toEqual([])
    expect(gate.beat(beat(150, 'reference'))).toEqual([])
    const out = gate.quality(window(0, [['noisy'], []]))
    expect(out.map((g) => [g.beat.source, g.artifact])).toEqual([['detector', true], ['reference', false]])
    // A later window is already known when its beats arrive: they pass at once.
    gate.quality(window(1, [['flat'], ['flat']]))
    expect(gate.beat(beat(1500, 'reference')).map((g) => g.artifact)).toEqual([true])
  })

  it('finds a detector beat\'s lead by its index when two leads share a label', () => {
    const gate = createArtifactGate()
    const twin = (index: number, flags: [string[], string[]]): QualityItem => {
      const w = window(index, flags)
      return { ...w, leads: w.leads.map((l) => ({ ...l, label: 'ECG' })) }
    }
    gate.quality(twin(0, [['flat'], []])) // the first "ECG" is off, the second is fine
    gate.quality(twin(1, [[], ['noisy']]))
    const onSecond = (sample: number): BeatItem => ({ ...beat(sample), lead: 'ECG', leadIndex: 1 })
    expect(gate.beat(onSecond(500)).map((g) => g.artifact)).toEqual([false])
    expect(gate.beat(onSecond(1500)).map((g) => g.artifact)).toEqual([true])
    // Without an index the label picks the first lead of that name.
    expect(gate.beat({ ...beat(1600), lead: 'ECG' }).map((g) => g.artifact)).toEqual([false])
  })

  it('marks the first clean beat after a flagged window without beats, so no interval spans it', () => {
    const gate = createArtifactGate()
    gate.quality(window(0, [[], []]))
    gate.quality(window(1, [['flat'], []]))
    gate.quality(window(2, [[], []]))
    const out = [...gate.beat(beat(900)), ...gate.beat(beat(2100)), ...gate.beat(beat(2200)), ...gate.beat(beat(2300, 'reference'))]
    expect(out.map((g) => [g.beat.sample, g.artifact, g.afterArtifact])).toEqual([[900, false, false], [2100, false, true], [2200, false, false], [2300, false, false]])
  })

  it('fails with E_WATERMARK when it would hold more than 100,000 beats (no quality window and no watermark came), not for a long gap between two held beats', () => {
    const gate = createArtifactGate()
    let err: unknown = null
    let n = 0
    try {
      for (let s = 0; n < 200_000; s += fs, n++) gate.beat(beat(s)) // a beat a second, never released
    } catch (e) {
      err = e
    }
    expect(n).toBe(100_000)
    expect(err).toMatchObject({ code: 'E_WATERMARK', message: expect.stringMatching(/^summarize: holds 100001 beats \(from sample 0 to 10000000\) waiting for the watermark/) })

    // A 7 h EDF+D gap between the last beat before it and the first after: both held, no failure.
    const gapped = createArtifactGate()
    gapped.gap(1000)
    expect(gapped.beat(beat(900))).toEqual([])
    expect(gapped.beat({ ...beat(1100), timeMs: 900 * 10 + 7 * 3600 * 1000 })).toEqual([])
    expect(gapped.watermark(2000).map((g) => [g.beat.sample, g.afterGap])).toEqual([[900, false], [1100, true]])
  })

  it('marks the first beat after a gap, placed by sample even when the gap item comes before earlier beats', () => {
    const gate = createArtifactGate()
    gate.gap(1000)
    const out = [...gate.beat(beat(900)), ...gate.beat(beat(1100)), ...gate.beat(beat(1200)), ...gate.finish()]
    expect(out.map((g) => [g.beat.sample, g.afterGap])).toEqual([[900, false], [1100, true], [1200, false]])
  })

  it('lets beats through as clean once the watermark has passed them with no window covering them, or when they fall between windows', () => {
    const gate = createArtifactGate()
    expect(gate.beat(beat(100))).toEqual([])
    // However late: a window covering the beat may still come until the watermark passes it.
    expect(gate.watermark(100)).toEqual([])
    expect(gate.watermark(101).map((g) => [g.beat.sample, g.artifact])).toEqual([[100, false]])
    const late = createArtifactGate()
    late.beat(beat(100))
    late.watermark(60)
    expect(late.quality({ ...window(0, [['noisy'], []]), startSample: 90 }).map((g) => g.artifact)).toEqual([true])
    // A beat before the first window that was assessed (a tail under 1 s, or a gap) is clean.
    const g2 = createArtifactGate()
    g2.beat(beat(50))
    expect(g2.quality({ ...window(0, [['noisy'], ['noisy']]), startSample: 60 }).map((g) => g.artifact)).toEqual([false])
    expect(g2.beat(beat(70)).map((g) => g.artifact)).toEqual([true])
    const g3 = createArtifactGate()
    g3.beat(beat(5))
    expect(g3.finish().map((g) => g.artifact)).toEqual([false])
  })
})

describe('summarize stage', () => {
  // 60 s at 60 bpm, one beat missed at 25 s (inside a noisy window of lead MLII, 20-30 s).
  const input = (): Item[] => {
    const items: Item[] = []
    for (let w = 0; w < 6; w++) {
      items.push(window(w, [w === 2 ? ['noisy'] : [], []]), block(w * 1000))
      for (let s = w * 1000 + 50; s < (w + 1) * 1000; s += 100) if (s !== 2550) items.push(beat(s))
    }
    return items
  }

  it('leaves beats of flagged windows out: no pause across the artifact, excluded beats counted, flagged time per lead', async () => {
    const s = summaryOf((await runStage(summarize, input())).items)
    expect(s.totalBeats).toBe(50)
    expect(s.excludedBeats).toBe(9)
    expect(s.hr.pauses.count).toBe(0)
    expect(s.hr.meanHrBpm).toBe(60)
    expect(s.hr.rrIntervals).toBe(48) // 19 before the artifact and 29 after it
    expect(s.hr.windows).toBe(12 + 22) // the 8-interval windows of each run
    expect(s.quality).toEqual({ windows: 6, leads: { MLII: { flaggedMs: 10_000, invalid: 0, flat: 0, saturated: 0, noisy: 1 }, V5: { flaggedMs: 0, invalid: 0, flat: 0, saturated: 0, noisy: 0 } } })
  })

  it('counts everything with excludeArtifacts: false (the missed beat becomes a 2 s pause)', async () => {
    const s = summaryOf((await runStage(summarize, input(), { options: { excludeArtifacts: false, pauseSec: 1.5 } })).items)
    expect(s.totalBeats).toBe(59)
    expect(s.excludedBeats).toBe(0)
    expect(s.hr.pauses).toMatchObject({ count: 1, longestMs: 2000, events: [{ startMs: 24_500, durationMs: 2000 }] })
  })

  it('reports the reference rhythm episodes when it summarizes the detector\'s beats', async () => {
    const rhythm = { kind: 'rhythm', recordId: 'rec', source: 'reference', rhythm: 'AFIB', startSample: 0, startMs: 0, endSample: 3000, endMs: 30_000 } as Item
    const s = summaryOf((await runStage(summarize, [rhythm, ...input()])).items)
    expect(s.source).toBe('detector')
    expect(s.rhythms).toEqual([{ rhythm: 'AFIB', episodes: 1, totalMs: 30_000, firstStartsMs: [0] }])
  })

  it('measures no interval across an EDF+D gap (a 30 s gap is not a pause), with or without artifact exclusion', async () => {
    // 60 bpm for 30 s, a 30 s gap, 60 bpm for 30 s; sample numbers run on, times jump.
    const items: Item[] = [block(0, 3000)]
    for (let s = 50; s < 3000; s += 100) items.push(beat(s))
    items.push({ kind: 'gap', recordId: 'rec', startMs: 30_000, endMs: 60_000, atSample: 3000 } as Item, block(3000, 3000))
    for (let s = 3050; s < 6000; s += 100) items.push({ ...beat(s), timeMs: s * 10 + 30_000 })
    for (const excludeArtifacts of [true, false]) {
      const s = summaryOf((await runStage(summarize, items, { options: { excludeArtifacts } })).items)
      expect(s.totalBeats).toBe(60)
      expect(s.hr.pauses.count).toBe(0)
      expect(s.hr.rrIntervals).toBe(58)
      expect(s.hr.windows).toBe(22 + 22)
      expect(s.hr.minHr.bpm).toBe(60)
      expect(s.hr.slowestBeat.rrMs).toBe(1000)
    }
  })

  it('keeps two leads of one label apart in the flagged time, keyed label#index (unique labels stay bare)', async () => {
    const twin = input().map((i) => (i.kind === 'quality' ? { ...i, leads: (i as QualityItem).leads.map((l) => ({ ...l, label: 'ECG' })) } : i))
    const s = summaryOf((await runStage(summarize, twin)).items)
    expect(s.quality.leads).toEqual({ 'ECG#0': { flaggedMs: 10_000, invalid: 0, flat: 0, saturated: 0, noisy: 1 }, 'ECG#1': { flaggedMs: 0, invalid: 0, flat: 0, saturated: 0, noisy: 0 } })
  })

  it('source auto prefers the reference beats when the record has any, else the detector\'s; source says which', async () => {
    // The detector misses every other beat (a 2 s "pause" each time); the reference has them all.
    const both: Item[] = [block(0, 3000)]
    for (let s = 50; s < 3000; s += 100) both.push(beat(s, 'reference', s === 1050 ? 'V' : 'N'), ...(s % 200 === 50 ? [beat(s)] : []))
    const auto = summaryOf((await runStage(summarize, both)).items)
    expect([auto.source, auto.totalBeats, auto.beatsByClass, auto.hr.pauses.count]).toEqual(['reference', 30, { N: 29, V: 1 }, 0])
    const detector = summaryOf((await runStage(summarize, both, { options: { source: 'detector' } })).items)
    expect([detector.source, detector.totalBeats, detector.hr.pauses.count]).toEqual(['detector', 15, 0])
    expect(detector.hr.slowestBeat.rrMs).toBe(2000)
    const only = summaryOf((await runStage(summarize, both.filter((i) => (i as BeatItem).source !== 'reference'))).items)
    expect([only.source, only.totalBeats]).toEqual(['detector', 15])
  })

  it('has no quality section without a quality stage, and passes every item through in order', async () => {
    const items = input().filter((i) => i.kind !== 'quality')
    const out = (await runStage(summarize, items)).items
    expect(out.slice(0, -1)).toEqual(items)
    const s = summaryOf(out)
    expect(s.quality).toBeUndefined()
    expect(s.totalBeats).toBe(59)
  })
})
