import { describe, expect, it } from 'vitest'
import annotate, { rhythmOf } from '../../src/stages/annotate.ts'
import type { AnnotationItem, BeatItem, Item, RhythmItem, SampleBlock } from '../../src/core/items.ts'
import { runStage } from '../helpers/stage-context.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const note = (sample: number, symbol: string, aux = ''): AnnotationItem => ({ kind: 'annotation', recordId: 'rec', source: 'reference', sample, timeMs: sample * 10, symbol, aux })
const block = (startSample: number, n: number): SampleBlock => ({ kind: 'block', recordId: 'rec', fs: 100, startSample, labels: ['I'], leads: [new Float32Array(n)] })
const beats = (items: Item[]) => items.filter((i): i is BeatItem => i.kind === 'beat')
const rhythms = (items: Item[]) => items.filter((i): i is RhythmItem => i.kind === 'rhythm')

describe('annotate stage', () => {
  it('turns beat annotations into AAMI-labelled beats and ignores non-beat marks', async () => {
    const input: Item[] = [block(0, 1000), note(10, 'N'), note(20, '~'), note(30, 'V'), note(40, 'A'), note(50, '|'), note(60, 'f'), note(70, 'L'), note(80, '"', 'comment')]
    const { items } = await runStage(annotate, input)
    expect(beats(items).map((b) => [b.sample, b.label, b.symbol])).toEqual([[10, 'N', 'N'], [30, 'V', 'V'], [40, 'S', 'A'], [60, 'Q', 'f'], [70, 'N', 'L']])
    expect(beats(items)[0]).toMatchObject({ kind: 'beat', recordId: 'rec', source: 'reference', timeMs: 100 })
    // Everything passes through, and each beat follows its annotation.
    expect(items.filter((i) => i.kind !== 'beat')).toEqual(input)
    expect(items.indexOf(beats(items)[1])).toBe(items.indexOf(input[3]) + 1)
  })

  it('makes rhythm episodes from rhythm changes, the last one ending with the signal', async () => {
    const input: Item[] = [block(0, 500), note(5, '+', '(N'), note(200, '+', '(AFIB'), block(500, 500), note(700, '+', '(N')]
    const { items } = await runStage(annotate, input)
    expect(rhythms(items).map((r) => [r.rhythm, r.startSample, r.endSample, r.startMs, r.endMs])).toEqual([
      ['N', 5, 200, 50, 2000], ['AFIB', 200, 700, 2000, 7000], ['N', 700, 1000, 7000, 10000],
    ])
  })

  it('can leave beats or rhythms out', async () => {
    const input: Item[] = [block(0, 100), note(5, '+', '(N'), note(10, 'N')]
    expect(beats((await runStage(annotate, input, { options: { beats: false } })).items)).toEqual([])
    expect(rhythms((await runStage(annotate, input, { options: { rhythms: false } })).items)).toEqual([])
  })

  it('reads the rhythm name of an MIT rhythm change only', () => {
    expect(rhythmOf({ symbol: '+', aux: '(AFIB' })).toBe('AFIB')
    expect(rhythmOf({ symbol: '+', aux: '' })).toBeNull()
    expect(rhythmOf({ symbol: 'N', aux: '(N' })).toBeNull()
  })
})

describeShared('annotate stage on real records', () => {
  it('record 208: 2955 reference beats in AAMI classes and contiguous rhythm episodes to the end', async () => {
    const { items: read } = await readRecord(recordSpec(sharedPath('data/mitdb/208')))
    const { items } = await runStage(annotate, read)
    const counts: Record<string, number> = {}
    for (const b of beats(items)) counts[b.label] = (counts[b.label] ?? 0) + 1
    expect(counts).toEqual({ N: 1586, V: 992, F: 373, S: 2, Q: 2 })
    const eps = rhythms(items)
    expect(eps).toHaveLength(53)
    expect(new Set(eps.map((e) => e.rhythm))).toEqual(new Set(['N', 'T']))
    for (let i = 1; i < eps.length; i++) expect(eps[i].startSample).toBe(eps[i - 1].endSample)
    expect(eps.at(-1)!.endSample).toBe(650000)
  })

  it('the EDF+ copy of record 100 gives the same beats as the WFDB record over its 1800 s', async () => {
    const edf = (await runStage(annotate, (await readRecord(recordSpec(sharedPath('data/edf/mitbih100_30min.edf')))).items)).items
    const wfdb = (await runStage(annotate, (await readRecord(recordSpec(sharedPath('data/mitdb/100')))).items)).items
    const key = (b: BeatItem) => `${b.sample}:${b.label}:${b.symbol}`
    expect(beats(edf).map(key)).toEqual(beats(wfdb).filter((b) => b.sample < 648000).map(key))
    expect(rhythms(edf).map((r) => [r.rhythm, r.startSample, r.endSample])).toEqual([['N', 18, 648000]])
  })
})
