// The read stage on EDF+D (discontinuous) files built with the project's writer: the reserved
// field is patched to 'EDF+D' and data records get onsets with a jump. Each sample's digital value
// is its absolute time in centiseconds, so a block's values show which stretch of time it holds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { encodeDataRecord, encodeEdfHeader } from '../../src/formats/edf-writer.ts'
import { encodeTalBlock, type TalAnnotation } from '../../src/formats/tal.ts'
import type { Item } from '../../src/core/items.ts'
import { annotationsOf, blocksOf, gapsOf, readRecord, recordSpec, recordingOf } from '../helpers/read-record.ts'

const FS = 100
const tmp = mkdtempSync(path.join(tmpdir(), 'read-edf-d-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Writes an EDF+D of 1-s records at the given onsets (s), with annotations per record index. */
function writeEdfD(name: string, onsets: number[], notes: Record<number, TalAnnotation[]> = {}, reserved = 'EDF+D'): string {
  const header = encodeEdfHeader({
    start: { year: 2020, month: 5, day: 17, hour: 8, minute: 0, second: 0 },
    recordDurationSec: 1,
    recordCount: onsets.length,
    // gain 0.001 mV per digital unit, offset 0: the value in mV times 1000 is the digital value.
    signals: [{ label: 'ECG', physicalDimension: 'mV', physicalMin: -32.768, physicalMax: 32.767, digitalMin: -32768, digitalMax: 32767, samplesPerRecord: FS }],
    annotationBytesPerRecord: 80,
  })
  header.set(new TextEncoder().encode(reserved.padEnd(44)), 192)
  const records = onsets.map((onset, r) => {
    const digital = Int32Array.from({ length: FS }, (_, i) => Math.round(onset * FS) + i)
    return encodeDataRecord([digital], encodeTalBlock(onset, notes[r] ?? [], 80))
  })
  const file = path.join(tmp, name)
  writeFileSync(file, Buffer.concat([header, ...records]))
  return file
}

const note = (onsetSec: number, text: string): TalAnnotation => ({ onsetSec, durationSec: null, texts: [text] })

/** Checks block continuity and that no block holds samples from both sides of a gap. */
function expectNoBlockSpansAGap(items: Item[]): void {
  let next = 0
  for (const b of blocksOf(items)) {
    expect(b.startSample).toBe(next)
    const cs = Array.from(b.leads[0], (v) => Math.round(v * 1000))
    // Absolute time runs on without a jump inside a block.
    for (let i = 1; i < cs.length; i++) expect(cs[i] - cs[i - 1]).toBe(1)
    next += cs.length
  }
  // Every sample the recording declares came out in blocks (an empty block list fails here).
  expect(next).toBeGreaterThan(0)
  expect(next).toBe(recordingOf(items).totalSamples)
}

describe('read stage: EDF+D', () => {
  const file = writeEdfD('gap.edf', [0, 1, 2, 10, 11, 12, 13], {
    1: [note(1.25, 'N')],
    3: [note(10, '+(AFIB'), note(10.5, 'V')],
    6: [note(13.99, 'N')],
  })

  for (const blockSeconds of [10, 2, 3, 1]) {
    it(`emits one gap item at 3..10 s and never lets a block span it (blockSeconds ${blockSeconds})`, async () => {
      const { items, warnings } = await readRecord(recordSpec(file), { blockSeconds })
      expect(warnings).toEqual([])
      expect(recordingOf(items)).toMatchObject({ format: 'EDF+D', fs: FS, totalSamples: 700, durationSec: 7, startTime: '2020-05-17T08:00:00' })
      expect(gapsOf(items)).toEqual([{ kind: 'gap', recordId: 'rec', startMs: 3000, endMs: 10_000, atSample: 300 }])
      expectNoBlockSpansAGap(items)
      // The gap item sits between the block that ends at sample 300 and the one that starts there.
      const kinds = items.map((i) => (i.kind === 'block' ? `block@${blocksOf([i])[0].startSample}` : i.kind))
      const g = kinds.indexOf('gap')
      const before = items.slice(0, g).filter((i) => i.kind === 'block').at(-1)!
      const after = items.slice(g).find((i) => i.kind === 'block')!
      const b0 = blocksOf([before])[0]
      expect(b0.startSample + b0.leads[0].length).toBe(300)
      expect(Math.round(b0.leads[0].at(-1)! * 1000)).toBe(299)
      expect(blocksOf([after])[0].startSample).toBe(300)
      expect(Math.round(blocksOf([after])[0].leads[0][0] * 1000)).toBe(1000)
      // Annotations: absolute times, samples in the continuous numbering of the blocks.
      expect(annotationsOf(items).map((a) => [a.timeMs, a.sample, a.symbol, a.aux])).toEqual([
        [1250, 125, 'N', ''],
        [10_000, 300, '+', '(AFIB'],
        [10_500, 350, 'V', ''],
        [13_990, 699, 'N', ''],
      ])
      // Each annotation comes before the block that holds its sample (and after the gap for later ones).
      for (const a of annotationsOf(items)) {
        const k = items.indexOf(a)
        const next = blocksOf(items.slice(k))[0]
        expect(a.sample).toBeGreaterThanOrEqual(next.startSample)
        expect(a.sample).toBeLessThan(next.startSample + next.leads[0].length)
        if (a.timeMs >= 10_000) expect(k).toBeGreaterThan(g)
      }
    })
  }

  it('annotations: false drops the annotations but keeps the gaps (record onsets are in the TALs)', async () => {
    const { items } = await readRecord(recordSpec(file), { annotations: false })
    expect(annotationsOf(items)).toEqual([])
    expect(gapsOf(items)).toEqual([{ kind: 'gap', recordId: 'rec', startMs: 3000, endMs: 10_000, atSample: 300 }])
    expectNoBlockSpansAGap(items)
  })

  it('several gaps, including one between consecutive chunks', async () => {
    const f = writeEdfD('gaps.edf', [0, 5, 6, 7.5, 8.5])
    const { items } = await readRecord(recordSpec(f), { blockSeconds: 1 })
    expect(gapsOf(items).map((g) => [g.startMs, g.endMs, g.atSample])).toEqual([[1000, 5000, 100], [7000, 7500, 300]])
    expectNoBlockSpansAGap(items)
    expect(recordingOf(items).totalSamples).toBe(500)
  })

  it('a first record that starts after the header start time is a gap at sample 0', async () => {
    const f = writeEdfD('late.edf', [2, 3, 4], { 0: [note(2.5, 'N')] })
    const { items } = await readRecord(recordSpec(f))
    expect(gapsOf(items)).toEqual([{ kind: 'gap', recordId: 'rec', startMs: 0, endMs: 2000, atSample: 0 }])
    expect(annotationsOf(items).map((a) => [a.timeMs, a.sample])).toEqual([[2500, 50]])
    expectNoBlockSpansAGap(items)
  })

  it('an EDF+C whose first record starts after the header start time gets the same leading gap', async () => {
    const f = writeEdfD('late-c.edf', [5, 6, 7], { 0: [note(5.5, 'N')], 2: [note(7.25, 'V')] }, 'EDF+C')
    const { items } = await readRecord(recordSpec(f))
    expect(recordingOf(items).format).toBe('EDF+C')
    expect(gapsOf(items)).toEqual([{ kind: 'gap', recordId: 'rec', startMs: 0, endMs: 5000, atSample: 0 }])
    // Samples count from the first data sample; times stay absolute from the header's start.
    expect(annotationsOf(items).map((a) => [a.timeMs, a.sample])).toEqual([[5500, 50], [7250, 225]])
  })

  it('an EDF+D whose records happen to be contiguous has no gap items', async () => {
    const { items } = await readRecord(recordSpec(writeEdfD('contiguous.edf', [0, 1, 2])))
    expect(gapsOf(items)).toEqual([])
    expect(recordingOf(items).totalSamples).toBe(300)
    expectNoBlockSpansAGap(items)
  })
})

describe('read: EDF+D parts of one record', () => {
  it('offsets each part\'s gaps and annotations by the samples and time of the parts before it (gaps included)', async () => {
    // Each part: 3 s of signal, a 5 s gap, 2 s of signal (5 s of samples, 10 s of time); a note at 9 s.
    const part = writeEdfD('part.edf', [0, 1, 2, 8, 9], { 4: [note(9, 'N')] })
    const { items } = await readRecord(recordSpec(part, { parts: [part, part] }))
    expect(recordingOf(items)).toMatchObject({ parts: 2, totalSamples: 1000 })
    expect(gapsOf(items).map((g) => [g.atSample, g.startMs, g.endMs])).toEqual([[300, 3000, 8000], [800, 13000, 18000]])
    expect(annotationsOf(items).filter((a) => a.symbol === 'N').map((a) => [a.sample, a.timeMs])).toEqual([[400, 9000], [900, 19000]])
    const blocks = blocksOf(items)
    expect(blocks.reduce((n, b) => n + b.leads[0].length, 0)).toBe(1000)
    // Part 2's first sample is part 1's first sample again (digital value = its own time in cs).
    const second = blocks.find((b) => b.startSample === 500)!
    expect(second.leads[0][0]).toBeCloseTo(0, 6)
  })
})
