// The delineation golden (../shared/golden/delineate, NeuroKit2 0.2.9 ecg_delineate with the peak
// and dwt methods on the first 10 minutes of MIT-BIH 100, 101 and 208, cleaned first lead,
// NeuroKit2's R peaks) and this project's delineation of the same signal on the same R peaks:
// the record read by the read stage, cleaned by the clean stage (NeuroKit2 parity), each beat
// delineated with the mean RR of the beats around it. Shared by the parity test and the bench.
import { readFileSync } from 'node:fs'
import clean from '../../src/stages/clean.ts'
import type { Item, SampleBlock } from '../../src/core/items.ts'
import { delineateBeat, type BeatWaves } from '../../src/dsp/delineate.ts'
import { featureAgreement, type FeatureAgreement } from '../../src/metrics/delineation-agreement.ts'
import { blocksOf, readRecord, recordSpec } from './read-record.ts'
import { runStage } from './stage-context.ts'
import { sharedPath } from './shared.ts'

export const DELINEATE_RECORDS = ['100', '101', '208'] as const

export interface DelineateGolden {
  record: string
  fs: number
  samples: number
  r_peaks: number[]
  methods: Record<'peak' | 'dwt', Record<string, (number | null)[]>>
}

export function readDelineateGolden(record: string): DelineateGolden {
  return JSON.parse(readFileSync(sharedPath(`golden/delineate/${record}.json`), 'utf8')) as DelineateGolden
}

/** The first `samples` samples of lead 0 of a shared MIT-BIH record, cleaned by the clean stage. */
export async function cleanedLead0(record: string, samples: number): Promise<Float32Array> {
  const { items } = await readRecord(recordSpec(sharedPath(`data/mitdb/${record}`)))
  const blocks = blocksOf(items).map((b): SampleBlock => ({ ...b, leads: [b.leads[0]], labels: [b.labels[0]] }))
  const { items: cleaned } = await runStage(clean, blocks)
  const y = new Float32Array(samples).fill(NaN)
  for (const item of cleaned as Item[]) {
    if (item.kind !== 'block') continue
    const b = item as SampleBlock
    if (b.startSample >= samples) continue
    y.set(b.leads[0].subarray(0, samples - b.startSample), b.startSample)
  }
  return y
}

/** The mean RR (samples) of the up to `k` intervals on each side of beat i. */
export function localRr(r: readonly number[], i: number, k = 8): number {
  let s = 0
  let n = 0
  for (let j = Math.max(1, i - k + 1); j <= Math.min(r.length - 1, i + k); j++) { s += r[j] - r[j - 1]; n++ }
  return n ? s / n : NaN
}

export function delineateAll(x: Float32Array, r: readonly number[], fs: number): BeatWaves[] {
  const signal = { start: 0, end: x.length, at: (i: number) => (i >= 0 && i < x.length ? x[i] : NaN) }
  return r.map((peak, i) => delineateBeat(signal, peak, localRr(r, i), fs))
}

/** Our feature -> the golden key, and which method it is held against (and at what share). */
export const DELINEATE_TARGETS: { feature: keyof BeatWaves; key: string; method: 'peak' | 'dwt'; floor: number | null; presence?: number }[] = [
  { feature: 'pPeak', key: 'ECG_P_Peaks', method: 'peak', floor: 0.9, presence: 0.9 },
  { feature: 'qPeak', key: 'ECG_Q_Peaks', method: 'peak', floor: 0.9 },
  { feature: 'sPeak', key: 'ECG_S_Peaks', method: 'peak', floor: 0.9 },
  { feature: 'qrsOnset', key: 'ECG_R_Onsets', method: 'dwt', floor: 0.8 },
  { feature: 'qrsOffset', key: 'ECG_R_Offsets', method: 'dwt', floor: 0.8 },
  { feature: 'pOnset', key: 'ECG_P_Onsets', method: 'peak', floor: null },
  { feature: 'pOffset', key: 'ECG_P_Offsets', method: 'dwt', floor: null },
  { feature: 'tPeak', key: 'ECG_T_Peaks', method: 'peak', floor: null },
  { feature: 'tPeak', key: 'ECG_T_Peaks', method: 'dwt', floor: null },
  { feature: 'tOffset', key: 'ECG_T_Offsets', method: 'peak', floor: null },
  { feature: 'tOffset', key: 'ECG_T_Offsets', method: 'dwt', floor: null },
]

export interface ParityRow { record: string; feature: string; method: string; floor: number | null; presence?: number; agreement: FeatureAgreement }

export async function delineateParity(record: string, toleranceMs = 40): Promise<ParityRow[]> {
  const g = readDelineateGolden(record)
  const x = await cleanedLead0(record, g.samples)
  const waves = delineateAll(x, g.r_peaks, g.fs)
  return DELINEATE_TARGETS.map((t) => ({
    record, feature: t.feature, method: t.method, floor: t.floor, presence: t.presence,
    agreement: featureAgreement(waves.map((w) => w[t.feature]), g.methods[t.method][t.key], g.fs, toleranceMs),
  }))
}
