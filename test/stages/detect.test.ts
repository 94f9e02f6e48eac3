import { describe, expect, it } from 'vitest'
import { watermarkViolations, withoutWatermarks } from '../helpers/watermarks.ts'
import path from 'node:path'
import detect from '../../src/stages/detect.ts'
import type { BeatItem, GapItem, Item, SampleBlock } from '../../src/core/items.ts'
import { createQrsDetector } from '../../src/dsp/qrs-detector.ts'
import { runStage } from '../helpers/stage-context.ts'
import { blocksOf, concatLead, readRecord, recordSpec } from '../helpers/read-record.ts'
import { ROOT } from '../helpers/shared.ts'
import { pipelineRejection } from '../helpers/thrown.ts'

const file = path.join(ROOT, 'samples/mitdb/100')
const beatsOf = (items: Item[]) => items.filter((i): i is BeatItem => i.kind === 'beat')
const read100 = async (blockSeconds = 10) => (await readRecord(recordSpec(file), { blockSeconds, annotations: false })).items

describe('detect stage', () => {
  it('emits the QRS detector\'s beats with labels, RR and lead, after the blocks that hold them', async () => {
    const items = await read100()
    const { items: out } = await runStage(detect, items)
    const beats = beatsOf(out)
    const det = createQrsDetector({ fs: 360 })
    const x = concatLead(items, 0)
    const direct = [...det.push(x, 0), ...det.finish()]
    expect(beats.map((b) => b.sample)).toEqual(direct)
    expect(beats[1]).toMatchObject({ kind: 'beat', recordId: 'rec', source: 'detector', lead: 'MLII', timeMs: Math.round((beats[1].sample / 360) * 1e6) / 1000 })
    expect(beats[0].rrMs).toBeNull()
    expect(beats[1].rrMs).toBeCloseTo(((beats[1].sample - beats[0].sample) / 360) * 1000, 0)
    expect(new Set(beats.map((b) => b.label)).size).toBeGreaterThan(1)
    // Every item passes through, and each beat comes after the block holding its sample; the
    // watermarks passed on hold for the late beats, and follow the signal.
    expect(withoutWatermarks(out.filter((i) => i.kind !== 'beat'))).toEqual(withoutWatermarks(items))
    const marks = watermarkViolations(out, items)
    expect(marks.violations).toEqual([])
    expect(marks.watermarks).toBeGreaterThan(100)
    expect(marks.last).toBe(concatLead(items, 0).length)
    let blockEnd = 0
    for (const item of out) {
      if (item.kind === 'block') blockEnd = (item as SampleBlock).startSample + (item as SampleBlock).leads[0].length
      else if (item.kind === 'beat') expect((item as BeatItem).sample).toBeLessThan(blockEnd)
    }
  }, 30_000)

  it('gives the same beats and labels for any blocking', async () => {
    const a = beatsOf((await runStage(detect, await read100(10))).items)
    const b = beatsOf((await runStage(detect, await read100(0.37))).items)
    expect(b).toEqual(a)
  }, 30_000)

  it('detects on a lead chosen by label, and names the leads when the choice is not there', async () => {
    const items = await read100()
    const v5 = beatsOf((await runStage(detect, items, { options: { lead: 'V5' } })).items)
    expect(v5[0].lead).toBe('V5')
    expect(v5.length).toBeGreaterThan(2200)
    const err = await pipelineRejection(runStage(detect, items, { options: { lead: 'V1' } }))
    expect(err).toMatchObject({ code: 'E_CONFIG_VALUE', message: expect.stringContaining('lead "V1" is not among the record\'s leads [MLII, V5]') })
  }, 30_000)

  it('gives the same items in the same order with the beat engine in a worker thread', async () => {
    const items = await read100()
    const local = (await runStage(detect, items, { options: { thread: false } })).items
    const threaded = (await runStage(detect, items, { options: { thread: true } })).items
    expect(threaded).toEqual(local)
    expect(beatsOf(threaded).length).toBeGreaterThan(2200)
  }, 60_000)

  it('fails the record with the worker\'s error, named, when the engine throws in the worker', async () => {
    const items = await read100()
    const blocks = blocksOf(items)
    // Blocks out of order: the detector refuses them, inside the worker.
    const bad = [blocks[1], blocks[0]]
    for (const thread of [false, true]) {
      const err = await pipelineRejection(runStage(detect, bad, { options: { thread } }))
      expect(err, `thread: ${thread}`).toMatchObject({ code: 'E_INTERNAL', message: expect.stringMatching(/^detect: (QRS detector|beat classifier): .*block starts at sample 0/) })
      expect(err.cause).toBeInstanceOf(Error)
    }
  }, 60_000)

  it('restarts at a gap: no RR across it, times after it shifted by its duration', async () => {
    const items = await read100()
    const at = blocksOf(items).findIndex((b) => b.startSample === 324_000) // 900 s
    const gap: GapItem = { kind: 'gap', recordId: 'rec', startMs: 900_000, endMs: 905_000, atSample: 324_000 }
    const withGap = [...items.slice(0, items.indexOf(blocksOf(items)[at])), gap, ...items.slice(items.indexOf(blocksOf(items)[at]))]
    const beats = beatsOf((await runStage(detect, withGap)).items)
    // The stage's beats are the detector's with the samples after the gap fed 10 s later (so it
    // sees the jump) and mapped back, in either mode.
    const x = concatLead(items, 0)
    const det = createQrsDetector({ fs: 360 })
    const pad = 3600
    const direct = [...det.push(x.subarray(0, 324_000), 0), ...det.push(x.subarray(324_000), 324_000 + pad), ...det.finish()].map((s) => (s >= 324_000 + pad ? s - pad : s))
    expect(beats.map((b) => b.sample)).toEqual(direct)
    expect(beatsOf((await runStage(detect, withGap, { options: { thread: true } })).items)).toEqual(beats)
    const after = beats.findIndex((b) => b.sample >= 324_000)
    expect(beats[after].rrMs).toBeNull()
    expect(beats[after].timeMs).toBeCloseTo((beats[after].sample / 360) * 1000 + 5000, 3)
    expect(beats[after - 1].timeMs).toBeCloseTo((beats[after - 1].sample / 360) * 1000, 3)
    expect(beats.every((b, i) => i === 0 || b.sample > beats[i - 1].sample)).toBe(true)
    // Both halves keep (nearly) all their beats: about 1,135 each side.
    expect(after).toBeGreaterThan(1100)
    expect(beats.length - after).toBeGreaterThan(1100)
  }, 30_000)

  it('a record cut into short segments (EDF+D, a gap every 6 s): no beat comes after a watermark past it, beats in order, in both modes', async () => {
    const items = await read100(2)
    const cut: Item[] = []
    let blocks = 0
    let shiftMs = 0
    for (const it of items) {
      if (it.kind === 'block') {
        if (blocks > 0 && blocks % 3 === 0 && it.startSample < 360 * 1700) {
          cut.push({ kind: 'gap', recordId: 'rec', startMs: (it.startSample / 360) * 1000 + shiftMs, endMs: (it.startSample / 360) * 1000 + shiftMs + 1000, atSample: it.startSample })
          shiftMs += 1000
        }
        blocks++
      }
      cut.push(it)
    }
    const out = (await runStage(detect, cut)).items
    expect(watermarkViolations(out, cut).violations).toEqual([])
    const beats = beatsOf(out)
    expect(beats.every((b, i) => b.sample >= 0 && (i === 0 || b.sample > beats[i - 1].sample))).toBe(true)
    // Segments of 6 s still hold nearly all of the record's beats (about 2,270 without gaps).
    expect(beats.length).toBeGreaterThan(0.9 * beatsOf((await runStage(detect, items)).items).length)
    const threaded = (await runStage(detect, cut, { options: { thread: true } })).items
    expect(watermarkViolations(threaded, cut).violations).toEqual([])
    expect(beatsOf(threaded)).toEqual(beats)
  }, 60_000)
})
