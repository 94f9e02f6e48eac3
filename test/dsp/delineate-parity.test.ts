// Delineation parity with NeuroKit2 0.2.9 ecg_delineate (../shared/golden/delineate, first 10
// minutes of MIT-BIH 100, 101 and 208 on NeuroKit2's R peaks; bench/delineate-parity.ts prints
// the whole table): P presence as the peak method marks it on 90 % of beats, P, Q and S peaks
// within 40 ms of the peak method's on 90 % of the beats both mark, QRS onsets within 40 ms of
// the dwt method's on 80 %.
import { beforeAll, expect, it } from 'vitest'
import { DELINEATE_RECORDS, delineateParity, type ParityRow } from '../helpers/delineate-golden.ts'
import { describeShared } from '../helpers/shared.ts'

describeShared('delineation parity with NeuroKit2 (golden)', () => {
  const rows = new Map<string, ParityRow[]>()
  beforeAll(async () => {
    for (const r of DELINEATE_RECORDS) rows.set(r, await delineateParity(r))
  }, 120_000)
  const row = (r: string, feature: string, method: string) => rows.get(r)!.find((x) => x.feature === feature && x.method === method)!.agreement

  it.each(DELINEATE_RECORDS)('record %s: P marked or not as the peak method says on 90 % of beats', (r) => {
    const a = row(r, 'pPeak', 'peak')
    expect(a.beats).toBeGreaterThan(500)
    expect(a.presenceAgree / a.beats).toBeGreaterThanOrEqual(0.9)
  })

  it.each(DELINEATE_RECORDS)('record %s: P, Q and S peaks within 40 ms of the peak method on 90 % of the beats both mark', (r) => {
    for (const f of ['pPeak', 'qPeak', 'sPeak']) {
      const a = row(r, f, 'peak')
      expect(a.bothMarked, f).toBeGreaterThan(300)
      expect(a.within / a.bothMarked, f).toBeGreaterThanOrEqual(0.9)
    }
  })

  it.each(DELINEATE_RECORDS)('record %s: QRS onsets within 40 ms of the dwt method on 80 % of the beats both mark', (r) => {
    const a = row(r, 'qrsOnset', 'dwt')
    expect(a.bothMarked).toBeGreaterThan(300)
    expect(a.within / a.bothMarked).toBeGreaterThanOrEqual(0.8)
  })
})
