import { describe, expect, it } from 'vitest'
import path from 'node:path'
import type { AnnotationItem, RecordingItem, SampleBlock } from '../../src/core/items.ts'
import { probeRecord } from '../../src/readers/read-probe.ts'
import { annotationsOf, blocksOf, concatLead, readRecord, readUntilError, recordSpec, recordingOf } from '../helpers/read-record.ts'
import { ROOT } from '../helpers/shared.ts'

const rec = (name: string) => path.join(ROOT, 'samples/mitdb', name)

describe('read: a record of several parts', () => {
  it('runs samples, times and annotations on from part to part, under one recording item', async () => {
    const mlii = { leads: ['MLII'] }
    const one = await readRecord(recordSpec(rec('100'), mlii))
    const two = await readRecord(recordSpec(rec('100'), { parts: [rec('100'), rec('101')], ...mlii }))
    const r = recordingOf(two.items) as RecordingItem
    const only101 = (await readRecord(recordSpec(rec('101'), mlii))).items
    const r101 = recordingOf(only101)
    expect(two.items.filter((i) => i.kind === 'recording')).toHaveLength(1)
    expect(r).toMatchObject({ fs: 360, labels: ['MLII'], parts: 2, totalSamples: 1_300_000 })
    expect(r.durationSec).toBeCloseTo(recordingOf(one.items).durationSec + r101.durationSec, 6)
    // Blocks are contiguous across the joint, and part 2's samples are 101's.
    const blocks = blocksOf(two.items)
    blocks.forEach((b: SampleBlock, i) => i > 0 && expect(b.startSample).toBe(blocks[i - 1].startSample + blocks[i - 1].leads[0].length))
    const lead = concatLead(two.items, 0)
    expect(lead.length).toBe(1_300_000)
    expect(lead.subarray(650_000)).toEqual(concatLead(only101, 0))
    // Part 2's annotations are 101's, shifted by 650,000 samples and 1,805,555.6 ms.
    const a101 = annotationsOf(only101)
    const shifted = annotationsOf(two.items).slice(annotationsOf(one.items).length)
    expect(shifted.map((a: AnnotationItem) => [a.sample, a.symbol])).toEqual(a101.map((a) => [a.sample + 650_000, a.symbol]))
    expect(shifted[5].timeMs).toBeCloseTo(a101[5].timeMs + 1_805_555.556, 2)
    // Each annotation still comes before the block holding it.
    let end = 0
    for (const item of two.items) {
      if (item.kind === 'block') end = (item as SampleBlock).startSample + (item as SampleBlock).leads[0].length
      else if (item.kind === 'annotation') expect((item as AnnotationItem).sample).toBeGreaterThanOrEqual(end)
    }
  }, 30_000)

  it('probes every part: summed duration, every file listed', async () => {
    const p = await probeRecord(recordSpec(rec('100'), { parts: [rec('100'), rec('208')] }))
    expect(p.durationSec).toBeCloseTo(650_000 / 360 * 2, 6)
    expect(p.files.map((f) => path.basename(f.path))).toEqual(['100.hea', '100.dat', '100.atr', '208.hea', '208.dat', '208.atr'])
  })

  it('refuses parts whose leads differ, from their headers up front, naming the part and the fix, unless leads pick the same signals', async () => {
    const { error, items } = await readUntilError(recordSpec(rec('100'), { parts: [rec('100'), rec('208')] }))
    expect(items).toEqual([]) // found from the headers, before any signal is read
    expect(error).toMatchObject({ code: 'E_CONFIG_VALUE', message: expect.stringContaining('part 1 of record rec') })
    expect((error as Error).message).toMatch(/leads \[MLII, V1\], the first part 360 Hz and \[MLII, V5\]; a record's parts must match/)
    const ok = await readRecord(recordSpec(rec('100'), { parts: [rec('100'), rec('208')], leads: ['MLII'] }))
    expect(recordingOf(ok.items)).toMatchObject({ labels: ['MLII'], totalSamples: 1_300_000 })
  }, 30_000)
})
