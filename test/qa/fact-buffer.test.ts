// The fact buffer decides which beats an excerpt's facts rest on (unit layer, and record 101
// through the read, annotate and quality stages): the reference decides the gold, so a window the
// quality stage flagged keeps no reference beat out and changes no count (it only keeps a tile
// from being chosen), while the reference's own unreadable marks and gaps do leave beats out and
// break intervals. Detector beats in flagged windows are left out, as a detector needs.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AnnotationItem, BeatItem, Item, QualityItem, RecordingItem } from '../../src/core/items.ts'
import { createFactBuffer, feedReferenceMark } from '../../src/qa/fact-buffer.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import annotate from '../../src/stages/annotate.ts'
import quality from '../../src/stages/quality.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { runStage } from '../helpers/stage-context.ts'
import { ROOT } from '../helpers/shared.ts'

// fs = 1000: a sample is a ms. Beats every 800 ms over 0-20 s.
const span = (startSample: number, endSample: number) => ({ id: 'x', startSample, endSample, startMs: startSample, endMs: endSample, fs: 1000 })
function filled(source: 'reference' | 'detector' | 'both' = 'both') {
  const b = createFactBuffer(DEFAULT_VOCABULARY, 8)
  for (let t = 400; t < 20_000; t += 800) {
    if (source !== 'detector') b.beat({ sample: t, timeMs: t, label: 'N', source: 'reference', symbol: 'N' })
    if (source !== 'reference') b.beat({ sample: t + 5, timeMs: t + 5, label: 'N', source: 'detector' })
  }
  return b
}

describe('createFactBuffer', () => {
  it('keeps reference beats in a flagged window: same beats, same rates, no break', () => {
    const plain = filled().facts(span(0, 20_000), 'reference')
    const b = filled()
    b.artifact(5000, 10_000)
    const f = b.facts(span(0, 20_000), 'reference')
    expect(f.beats.length).toBe(25)
    expect([f.excludedBeats, f.excludedMs, f.beats.some((x) => x.afterBreak)]).toEqual([0, 0, false])
    expect(f.hr).toEqual(plain.hr)
    // The tile still is not clean: the excerpt rule does not choose it.
    expect(b.clean(0, 20_000)).toBe(false)
    expect(b.clean(10_000, 20_000)).toBe(true)
  })

  it('leaves detector beats in a flagged window out, and breaks their intervals there', () => {
    const b = filled()
    b.artifact(5000, 10_000)
    const f = b.facts(span(0, 20_000), 'detector')
    expect(f.excludedBeats).toBe(6)
    expect(f.excludedMs).toBe(5000)
    expect(f.beats.filter((x) => x.afterBreak).map((x) => x.sample)).toEqual([10_005])
  })

  it('leaves reference beats inside an unreadable stretch (a ~ mark with unreadable bits) out, with its time', () => {
    const b = filled()
    feedReferenceMark(b, { sample: 5000, timeMs: 5000, symbol: '~', aux: '', subtype: -1 })
    feedReferenceMark(b, { sample: 7000, timeMs: 7000, symbol: '~', aux: '', subtype: 0 })
    const f = b.facts(span(0, 20_000), 'reference')
    expect([f.beats.length, f.excludedBeats, f.excludedMs]).toEqual([22, 3, 2000])
    expect(f.beats.filter((x) => x.afterBreak).map((x) => x.sample)).toEqual([7600])
    expect(b.clean(0, 20_000)).toBe(false)
  })

  it('breaks intervals at a gap, in both sources', () => {
    const b = filled()
    b.gap(10_000)
    for (const source of ['reference', 'detector'] as const) expect(b.facts(span(0, 20_000), source).beats.filter((x) => x.afterBreak).length).toBe(1)
  })
})

describe('record 101 with the quality stage', () => {
  it('its whole-record facts keep every annotated beat the quality stage flagged (1,865, not 1,308)', async () => {
    const spec = recordSpec(path.join(ROOT, 'samples/mitdb/101'))
    const read = (await readRecord(spec)).items
    const items: Item[] = (await runStage(quality, (await runStage(annotate, read, { record: spec })).items, { record: spec })).items
    const rec = items.find((i): i is RecordingItem => i.kind === 'recording')!
    const b = createFactBuffer(DEFAULT_VOCABULARY, 8)
    let flaggedWindows = 0
    for (const i of items) {
      if (i.kind === 'beat') b.beat(i as BeatItem)
      else if (i.kind === 'annotation') feedReferenceMark(b, i as AnnotationItem)
      else if (i.kind === 'quality' && (i as QualityItem).leads.some((l) => l.flags.length)) {
        flaggedWindows++
        b.artifact((i as QualityItem).startSample, (i as QualityItem).endSample)
      }
    }
    expect(flaggedWindows).toBeGreaterThan(20)
    const total = Math.round(rec.durationSec * rec.fs)
    const f = b.facts({ id: '101', startSample: 0, endSample: total, startMs: 0, endMs: (total * 1000) / rec.fs, fs: rec.fs }, 'reference')
    const annotated = items.filter((i) => i.kind === 'beat' && (i as BeatItem).source === 'reference').length
    expect(annotated).toBe(1865)
    // The reference's one unreadable stretch (a ~ of subtype -1, under a second) holds no beat.
    expect([f.beats.length, f.excludedBeats, Math.round(f.excludedMs)]).toEqual([1865, 0, 983])
  }, 60_000)
})
