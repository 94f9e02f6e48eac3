import { describe, expect, it } from 'vitest'
import { createRecordSummary } from '../../src/dsp/record-summary.ts'
import { createGeminyTracker, createRunTracker } from '../../src/dsp/ectopy.ts'
import annotate from '../../src/stages/annotate.ts'
import summarize from '../../src/stages/summarize.ts'
import detect from '../../src/stages/detect.ts'
import type { BeatItem, Item } from '../../src/core/items.ts'
import { runStage } from '../helpers/stage-context.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { describeShared, ROOT, sharedPath } from '../helpers/shared.ts'

/** Beats from a label string, one every `rrMs` (a different RR per beat when `rrs` is given). */
function beatsOf(labels: string, rrMs = 1000, rrs?: number[]): [string, number][] {
  let t = 0
  return [...labels].map((l, i) => {
    if (i > 0) t += rrs ? rrs[i - 1] : rrMs
    return [l, t]
  })
}

function summarizeLabels(labels: string, rrMs = 1000, rrs?: number[]) {
  const s = createRecordSummary({ avgBeats: 2 })
  for (const [label, timeMs] of beatsOf(labels, rrMs, rrs)) s.addBeat({ label, timeMs })
  return s.finish()
}

/** The same counts by regular expressions over the label string: an independent way. */
function byRegex(labels: string, cls: string) {
  const runs = labels.match(new RegExp(`${cls}+`, 'g')) ?? []
  return {
    singles: runs.filter((r) => r.length === 1).length,
    couplets: runs.filter((r) => r.length === 2).length,
    runs: runs.filter((r) => r.length >= 3).length,
    longestRun: Math.max(0, ...runs.map((r) => r.length)),
    bigeminy: (labels.match(/(?:NV){3,}/g) ?? []).length,
    trigeminy: (labels.match(/(?:NNV){3,}/g) ?? []).length,
  }
}

describe('record summary (pure)', () => {
  it('counts singles, couplets, runs, bigeminy and trigeminy like the regular expressions do', () => {
    for (const labels of ['NNVNNVVNNVVVNNNVNVNVNVNNNVNNVNNVNNVFNV', 'VVVVNVNNVNV', 'NNNNSNNSSNSSSSN', 'NVNVNVVNVNVNV', '']) {
      const s = summarizeLabels(labels)
      const v = byRegex(labels, 'V')
      expect({ singles: s.ventricular.singles, couplets: s.ventricular.couplets, runs: s.ventricular.runs, longestRun: s.ventricular.longestRun, bigeminy: s.ventricular.bigeminy.episodes, trigeminy: s.ventricular.trigeminy.episodes }, labels).toEqual(v)
      const sv = byRegex(labels, 'S')
      expect([s.supraventricular.singles, s.supraventricular.couplets, s.supraventricular.runs], labels).toEqual([sv.singles, sv.couplets, sv.runs])
    }
  })

  it('gives burdens, run rates and episode times', () => {
    const s = summarizeLabels('NNNVVVVNNNNNNNNNNN', 500)
    expect(s.totalBeats).toBe(18)
    expect(s.ventricular).toMatchObject({ count: 4, burdenPct: 22.22, runs: 1, longestRun: 4, fastestRunBpm: 120, runTimesMs: [1500] })
    const g = createGeminyTracker(2, 'V')
    for (const [l, t] of beatsOf('NNVNVNVNVNN')) g.add(l, t)
    expect(g.finish()).toEqual({ episodes: 1, episodesMs: [{ startMs: 1000, endMs: 8000, cycles: 4 }] })
  })

  it('caps the listed times but keeps exact counts', () => {
    const r = createRunTracker('V', 2)
    for (const [l, t] of beatsOf('NVNVNVNVN')) r.add(l, t)
    expect(r.finish()).toMatchObject({ singles: 4, singleTimesMs: [1000, 3000] })
  })

  it('computes heart-rate extremes, tachy/brady share and pauses over 2-interval windows', () => {
    // RRs: 1000 x3 (60 bpm), 500 x3 (120 bpm), 1500 (40 bpm), a 2500 ms pause, then 1000.
    // Windows of 2 (ms): 2000 2000 1500 1000 1000 2000 4000 3500, 17 000 ms in all.
    const s = summarizeLabels('NNNNNNNNNN', 0, [1000, 1000, 1000, 500, 500, 500, 1500, 2500, 1000])
    expect(s.hr).toMatchObject({ rrIntervals: 9, windows: 8 })
    expect(s.hr.meanHrBpm).toBe(Math.round(10 * (60_000 * 2 * 8) / 17_000) / 10) // 56.5: the windows' beats over their time
    expect(s.hr.fastestBeat).toEqual({ bpm: 120, rrMs: 500, timeMs: 3500, ties: 3 })
    expect(s.hr.slowestBeat).toEqual({ bpm: 24, rrMs: 2500, timeMs: 8500, ties: 1 })
    expect(s.hr.maxHr).toEqual({ bpm: 120, timeMs: 4000, ties: 2 }) // 2-beat average (avgBeats: 2), at 4000 and 4500
    expect(s.hr.minHr).toEqual({ bpm: 30, timeMs: 8500, ties: 1 })
    // Above 100: the two 1000 ms windows; below 60: 4000 + 3500 ms.
    expect(s.hr.tachyPct).toBe(Math.round((1000 * 2000) / 17_000) / 10)
    expect(s.hr.bradyPct).toBe(Math.round((1000 * 7500) / 17_000) / 10)
    expect(s.hr.pauses).toEqual({ count: 1, longestMs: 2500, events: [{ startMs: 6000, durationMs: 2500 }] })
  })

  // Holter rates count every beat the ventricles make: a PVC's short interval and the pause after
  // it are in the windows, as they are in the beats per minute.
  it('averages across ectopic beats: every beat counts', () => {
    const s = createRecordSummary({ avgBeats: 3 })
    for (const [label, timeMs] of beatsOf('NNNVNNN', 0, [1000, 1000, 400, 1600, 1000, 1000])) s.addBeat({ label, timeMs })
    const hr = s.finish().hr
    expect(hr).toMatchObject({ rrIntervals: 6, windows: 4 })
    // Windows: 2400, 3000, 3000, 3600 ms.
    expect(hr.maxHr).toEqual({ bpm: 75, timeMs: 2400, ties: 1 })
    expect(hr.minHr).toEqual({ bpm: 50, timeMs: 6000, ties: 1 })
    expect(hr.meanHrBpm).toBe(Math.round(10 * (60_000 * 3 * 4) / 12_000) / 10)
  })

  it('measures in samples with fs: windows of the same sample count tie exactly', () => {
    // At 360 Hz, beats 867 samples apart in blocks of 8 would give times with float noise
    // (2408.333... ms); in samples two such windows are equal, and `ties` says so.
    const s = createRecordSummary({ avgBeats: 2, fs: 360 })
    const samples = [0, 400, 867, 1267, 1734, 2300]
    for (const sample of samples) s.addBeat({ label: 'N', timeMs: Math.round((sample * 1e6) / 360) / 1e3, sample })
    const hr = s.finish().hr
    expect(hr.maxHr).toEqual({ bpm: Math.round((10 * 60 * 360 * 2) / 867) / 10, timeMs: 2408.333, ties: 3 })
    expect(hr.minHr).toEqual({ bpm: Math.round((10 * 60 * 360 * 2) / 1033) / 10, timeMs: Math.round((2300 * 1e6) / 360) / 1e3, ties: 1 })
    expect(() => createRecordSummary({ fs: 360 }).addBeat({ label: 'N', timeMs: 0 })).toThrow(/without one; pass every beat's sample/)
  })
})

describeShared('summarize stage on record 208 (reference beats)', () => {
  it('agrees with independent counts over the reference labels', async () => {
    const read = (await readRecord(recordSpec(sharedPath('data/mitdb/208')))).items
    const annotated = (await runStage(annotate, read)).items
    const { items } = await runStage(summarize, annotated)
    const summary = items.at(-1) as Item & Record<string, any>
    expect(summary.kind).toBe('summary')
    expect(summary).toMatchObject({ recordId: 'rec', source: 'reference', durationSec: 1805.556, totalBeats: 2955 })
    expect(summary.beatsByClass).toEqual({ N: 1586, V: 992, F: 373, S: 2, Q: 2 })
    const beats = annotated.filter((i): i is BeatItem => i.kind === 'beat')
    const labels = beats.map((b) => b.label).join('')
    const v = byRegex(labels, 'V')
    expect({ singles: summary.ventricular.singles, couplets: summary.ventricular.couplets, runs: summary.ventricular.runs, longestRun: summary.ventricular.longestRun, bigeminy: summary.ventricular.bigeminy.episodes, trigeminy: summary.ventricular.trigeminy.episodes }).toEqual(v)
    expect(v.couplets).toBeGreaterThan(0) // the header speaks of couplets
    // Every interval between consecutive beats counts (none of zero length); the mean rests on
    // the 8-interval windows, so it lies between their extremes, and within 0.1 bpm of the plain
    // beats per minute over the record's 2,954 intervals (there is no break in it).
    let sum = 0
    let n = 0
    for (let i = 1; i < beats.length; i++) if (beats[i].sample > beats[i - 1].sample) {
      sum += beats[i].sample - beats[i - 1].sample
      n++
    }
    expect(summary.hr.rrIntervals).toBe(n)
    expect(summary.hr.windows).toBe(n - 7)
    expect(Math.abs(summary.hr.meanHrBpm - (60 * 360 * n) / sum)).toBeLessThan(0.1)
    expect(summary.hr.minHr.bpm).toBeLessThanOrEqual(summary.hr.meanHrBpm)
    expect(summary.hr.meanHrBpm).toBeLessThanOrEqual(summary.hr.maxHr.bpm)
    expect(summary.rhythms.map((r: { rhythm: string }) => r.rhythm).sort()).toEqual(['N', 'T'])
  })
})

describe('summarize stage, source auto, on the bundled record 208 with reference and detector beats', () => {
  it('reports the reference beats, which the record has; source: detector reports the detector\'s', async () => {
    const read = (await readRecord(recordSpec(`${ROOT}/samples/mitdb/208`))).items
    const both = (await runStage(detect, (await runStage(annotate, read)).items)).items
    const count = (source: string) => both.filter((i) => i.kind === 'beat' && (i as BeatItem).source === source).length
    expect(count('reference')).toBe(2955)
    expect(count('detector')).toBeGreaterThan(2800)
    const summaryOf = async (options: Record<string, unknown>) => (await runStage(summarize, both, { options })).items.at(-1) as Item & Record<string, any>
    const auto = await summaryOf({})
    expect(auto).toMatchObject({ source: 'reference', totalBeats: 2955, beatsByClass: { N: 1586, V: 992, F: 373, S: 2, Q: 2 } })
    const detector = await summaryOf({ source: 'detector' })
    expect(detector).toMatchObject({ source: 'detector', totalBeats: count('detector') })
    // Rhythm episodes come from the reference either way.
    expect(detector.rhythms).toEqual(auto.rhythms)
  }, 60_000)
})

describeShared('summarize stage on Icentia11k s00 (rhythm intervals with end markers)', () => {
  it('counts the labelled time of each episode up to its end marker, not up to the next start', async () => {
    const read = (await readRecord(recordSpec(sharedPath('data/icentia11k/p00000_s00')))).items
    const summary = (await runStage(summarize, (await runStage(annotate, read)).items)).items.at(-1) as Item & Record<string, any>
    expect(summary).toMatchObject({ source: 'reference', durationSec: 4194.308, totalBeats: 6885 })
    expect(summary.rhythms).toHaveLength(1)
    expect(summary.rhythms[0]).toMatchObject({ rhythm: 'N', episodes: 19, totalMs: 4_047_396 })
    expect(summary.rhythms[0].firstStartsMs.slice(0, 3)).toEqual([112, 113_032, 133_384])
  })
})
