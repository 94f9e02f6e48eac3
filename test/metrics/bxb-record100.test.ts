// Cross-check on real data (issue 3, anchors.md): NeuroKit2's R peaks on MIT-BIH record 100,
// lead MLII, scored against the reference annotations read through the read stage. NeuroKit2
// misses the first beat, the single PVC and the last beat, with no false detection.
import { readFileSync } from 'node:fs'
import { beforeAll, expect, it } from 'vitest'
import { isBeatSymbol } from '../../src/formats/wfdb-annotation-codes.ts'
import { AAMI_CLASSES, type BeatSeries, toBeatSeries } from '../../src/formats/aami-classes.ts'
import { type BeatScore, NO_BEAT, scoreBeats } from '../../src/metrics/bxb-stats.ts'
import { formatBeatScore } from '../../src/metrics/format-bxb.ts'
import { annotationsOf, readRecord, recordSpec } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

describeShared('beat-by-beat score of NeuroKit2 on record 100', () => {
  let beatSymbols = 0
  let ref: BeatSeries
  let score: BeatScore

  beforeAll(async () => {
    const anns = annotationsOf((await readRecord(recordSpec(sharedPath('data/mitdb/100')))).items)
    beatSymbols = anns.filter((a) => isBeatSymbol(a.symbol)).length
    ref = toBeatSeries(anns.map((a) => a.sample), anns.map((a) => a.symbol))
    const golden = JSON.parse(readFileSync(sharedPath('golden/dsp/100_lead0.json'), 'utf8')) as { fs: number; nk_rpeaks: number[] }
    expect(golden.fs).toBe(360)
    score = scoreBeats(ref, toBeatSeries(golden.nk_rpeaks), { fs: golden.fs })
  })

  it('keeps the 2273 reference beats (2239 N, 33 A, 1 V) and drops the rhythm annotation', () => {
    expect(ref.samples.length).toBe(2273)
    expect(beatSymbols).toBe(2273)
    const byClass = AAMI_CLASSES.map((_, c) => ref.classes.filter((x) => x === c).length)
    expect(byClass).toEqual([2239, 33, 1, 0, 0])
  })

  it('matches 2270 of 2273 beats with no false detection over the whole record', () => {
    const w = score.whole
    expect(w).toMatchObject({ refBeats: 2273, detections: 2270, matched: 2270, missed: 3, extra: 0 })
    expect(w.qrsSe.pct!.toFixed(2)).toBe('99.87')
    expect(w.qrsPP.pct).toBe(100)
  })

  it('misses the first beat, the single PVC and the last beat', () => {
    const missed = [...score.match.refToTest].flatMap((j, i) => (j < 0 ? [[ref.samples[i], AAMI_CLASSES[ref.classes[i]]]] : []))
    expect(missed).toEqual([[77, 'N'], [546792, 'V'], [649991, 'N']])
    expect(ref.samples[0]).toBe(77)
    expect(ref.samples[ref.samples.length - 1]).toBe(649991)
  })

  it('puts every matched beat in column n (detections are unlabelled) and the misses in column o', () => {
    const c = score.whole.confusion
    expect([c[0][0], c[0][NO_BEAT], c[1][0], c[2][NO_BEAT]]).toEqual([2237, 2, 33, 1])
    expect(score.whole.vebSe).toMatchObject({ num: 0, den: 1 })
    expect(score.whole.svebSe).toMatchObject({ num: 0, den: 33 })
  })

  it('scores 1900 of 1902 beats after the EC57 5-minute skip', () => {
    expect(score.afterSkip).toMatchObject({ startSample: 108000, refBeats: 1902, matched: 1900, missed: 2, extra: 0 })
    expect(score.afterSkip.qrsSe.pct!.toFixed(2)).toBe('99.89')
  })

  it('prints a bxb-style report', () => {
    const text = formatBeatScore(score, { recordId: '100', refAnnotator: 'atr', testAnnotator: 'neurokit2', fs: 360 })
    expect(text).toContain('           QRS sensitivity:  99.87% (2270/2273)')
    expect(text).toContain(' QRS positive predictivity: 100.00% (2270/2270)')
    expect(text).toContain('From 300 s')
  })
})
