import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import annotate from '../../src/stages/annotate.ts'
import { endsRhythm, rhythmOf } from '../../src/formats/annotation-text.ts'
import { PipelineError } from '../../src/core/errors.ts'
import type { AnnotationItem, BeatItem, GapItem, Item, RecordingItem, RhythmItem, SampleBlock } from '../../src/core/items.ts'
import { runStage, type StageRun } from '../helpers/stage-context.ts'
import { annotationsOf, readRecord, recordSpec } from '../helpers/read-record.ts'
import { describeShared, ROOT, sharedPath } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

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

  it('ends an episode at its end marker ("+" with aux ")"); the time up to the next change belongs to no episode', async () => {
    const input: Item[] = [block(0, 500), note(5, '+', '(N'), note(300, '+', ')'), note(310, '+', ')'), note(400, '+', '(AFIB'), block(500, 500), note(600, '+', ')'), note(700, '+', '(N')]
    const { items } = await runStage(annotate, input)
    expect(rhythms(items).map((r) => [r.rhythm, r.startSample, r.endSample, r.startMs, r.endMs])).toEqual([
      ['N', 5, 300, 50, 3000], ['AFIB', 400, 600, 4000, 6000], ['N', 700, 1000, 7000, 10000],
    ])
    // Each episode comes out just after the annotation that ends it.
    expect(items.indexOf(rhythms(items)[0])).toBe(items.indexOf(input[2]) + 1)
  })

  it('can leave beats or rhythms out', async () => {
    const input: Item[] = [block(0, 100), note(5, '+', '(N'), note(10, 'N')]
    expect(beats((await runStage(annotate, input, { options: { beats: false } })).items)).toEqual([])
    expect(rhythms((await runStage(annotate, input, { options: { rhythms: false } })).items)).toEqual([])
  })

  it('reads the rhythm name of an MIT rhythm change only, and the end marker', () => {
    expect(rhythmOf({ symbol: '+', aux: '(AFIB' })).toBe('AFIB')
    expect(rhythmOf({ symbol: '+', aux: '' })).toBeNull()
    expect(rhythmOf({ symbol: 'N', aux: '(N' })).toBeNull()
    expect(rhythmOf({ symbol: '+', aux: ')' })).toBeNull()
    expect([endsRhythm({ symbol: '+', aux: ')' }), endsRhythm({ symbol: '+', aux: '(N' }), endsRhythm({ symbol: 'N', aux: ')' })]).toEqual([true, false, false])
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

  it('Icentia11k s00: each rhythm interval ends at its ")" annotation, as the .atr labels it', async () => {
    const { items: read } = await readRecord(recordSpec(sharedPath('data/icentia11k/p00000_s00')))
    // The intervals as the annotations state them: each "(N" to the ")" after it.
    const marks = annotationsOf(read).filter((a) => a.symbol === '+')
    const stated: [number, number][] = []
    for (const [k, a] of marks.entries()) if (a.aux.startsWith('(')) stated.push([a.sample, marks[k + 1].sample])
    expect(marks.map((a) => a.aux).join('')).toBe('(N)'.repeat(19))
    const eps = rhythms((await runStage(annotate, read)).items)
    expect(eps.map((e) => [e.startSample, e.endSample])).toEqual(stated)
    expect(eps.every((e) => e.rhythm === 'N')).toBe(true)
    expect(eps.reduce((ms, e) => ms + e.endMs - e.startMs, 0)).toBe(4_047_396) // of the 4,194,308 ms of signal
    expect(eps.at(-1)!.endSample).toBe(1_048_448)
  })

  it('the EDF+ copy of record 100 gives the same beats from its TALs as the WFDB record over its 1800 s', async () => {
    const edf = (await runStage(annotate, (await readRecord(recordSpec(sharedPath('data/edf/mitbih100_30min.edf')))).items, { options: { sidecar: 'none' } })).items
    const wfdb = (await runStage(annotate, (await readRecord(recordSpec(sharedPath('data/mitdb/100')))).items)).items
    const key = (b: BeatItem) => `${b.sample}:${b.label}:${b.symbol}`
    expect(beats(edf).map(key)).toEqual(beats(wfdb).filter((b) => b.sample < 648000).map(key))
    expect(rhythms(edf).map((r) => [r.rhythm, r.startSample, r.endSample])).toEqual([['N', 18, 648000]])
  })
})

const recording = (file: string, fs = 100): RecordingItem => ({ kind: 'recording', recordId: 'rec', format: 'EDF+C', file, startTime: null, fs, durationSec: 10, totalSamples: 1000, labels: ['I'], units: 'mV' })
const gap = (startMs: number, endMs: number, atSample: number): GapItem => ({ kind: 'gap', recordId: 'rec', startMs, endMs, atSample })
const where = (i: Item) => `${i.kind}${(i as AnnotationItem).origin === 'sidecar' ? '(sidecar)' : ''}@${(i as { sample?: number; startSample?: number }).sample ?? (i as { startSample?: number }).startSample ?? ''}`

/** Runs annotate and returns the error it throws, with what it yielded before. */
async function failure(input: Item[], options: unknown = {}): Promise<{ error: PipelineError; items: Item[] }> {
  const items: Item[] = []
  const run = runStage(annotate, (async function* () {
    for (const i of input) {
      items.push(i)
      yield i
    }
  })(), { options })
  const error = await run.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(PipelineError)
  return { error: error as PipelineError, items }
}

describe('annotate stage with a sidecar file', () => {
  const dir = tmpDir('hp-annotate-')
  let n = 0
  /** A fresh folder holding `files`; returns the path of a recording `rec.edf` in it. */
  const folder = (files: Record<string, string>): string => {
    const d = path.join(dir, `case${n++}`)
    mkdirSync(d, { recursive: true })
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(d, name)), { recursive: true })
      writeFileSync(path.join(d, name), text)
    }
    return path.join(d, 'rec.edf')
  }

  it('puts sidecar beats before the block holding them, drops rows past the signal, and replaces the embedded annotations', async () => {
    const rec = folder({ 'rec.annotations.csv': 'sample,time_ms,symbol,aux,is_beat\n10,100,N,,1\n250,2500,"V",,1\n480,4800,~,,0\n600,6000,A,,1\n1200,12000,N,,1\n' })
    const input: Item[] = [recording(rec), note(5, 'N'), block(0, 500), note(520, 'N'), block(500, 500)]
    const { items, warnings } = await runStage(annotate, input)
    expect(items.map(where)).toEqual(['recording@', 'annotation@5', 'beat@10', 'beat@250', 'annotation(sidecar)@480', 'block@0', 'annotation@520', 'beat@600', 'block@500'])
    expect(beats(items).map((b) => [b.sample, b.timeMs, b.label, b.symbol, b.source])).toEqual([[10, 100, 'N', 'N', 'reference'], [250, 2500, 'V', 'V', 'reference'], [600, 6000, 'S', 'A', 'reference']])
    // A row that makes no beat passes on as an annotation (origin sidecar); the recording item names the sidecar.
    const rows = items.filter((i): i is AnnotationItem => i.kind === 'annotation' && (i as AnnotationItem).origin === 'sidecar')
    expect(rows.map((a) => [a.sample, a.timeMs, a.symbol, a.aux, a.source])).toEqual([[480, 4800, '~', '', 'reference']])
    const sidecarFile = path.join(path.dirname(rec), 'rec.annotations.csv')
    expect(items.filter((i) => i.kind !== 'beat' && !rows.includes(i as AnnotationItem))).toEqual([{ ...input[0], annotationSidecar: sidecarFile }, ...input.slice(1)])
    expect(warnings).toEqual([
      { code: 'W_ANNOTATIONS_DROPPED', message: `1 reference annotations of ${path.join(path.dirname(rec), 'rec.annotations.csv')} at or after sample 1000, past the end of the signal read, were dropped` },
      { code: 'W_SIDECAR_REPLACES', message: expect.stringContaining('2 reference annotations embedded in the recording passed through without making beats or rhythms: the sidecar') },
    ])
  })

  it('makes rhythm episodes from sidecar rhythm changes, the last one ending with the signal', async () => {
    const rec = folder({ 'rec.annotations.ndjson': '{"sample":5,"symbol":"+","aux":"(N"}\n{"sample":200,"symbol":"+","aux":"(AFIB"}\n{"sample":210,"symbol":"N"}\n{"sample":700,"symbol":"+","aux":"(N"}\n' })
    const { items } = await runStage(annotate, [recording(rec), block(0, 500), block(500, 500)])
    expect(rhythms(items).map((r) => [r.rhythm, r.startSample, r.endSample, r.startMs, r.endMs])).toEqual([
      ['N', 5, 200, 50, 2000], ['AFIB', 200, 700, 2000, 7000], ['N', 700, 1000, 7000, 10000],
    ])
    expect(items.map(where)).toEqual(['recording@', 'annotation(sidecar)@5', 'annotation(sidecar)@200', 'rhythm@5', 'beat@210', 'block@0', 'annotation(sidecar)@700', 'rhythm@200', 'block@500', 'rhythm@700'])
  })

  it('ends sidecar rhythm episodes at their end marker rows', async () => {
    const rec = folder({ 'rec.annotations.csv': 'sample,symbol,aux\n5,+,(AFIB\n200,+,)\n300,N,\n700,+,(N\n800,+,)\n' })
    const { items } = await runStage(annotate, [recording(rec), block(0, 500), block(500, 500)])
    expect(rhythms(items).map((r) => [r.rhythm, r.startSample, r.endSample, r.startMs, r.endMs])).toEqual([['AFIB', 5, 200, 50, 2000], ['N', 700, 800, 7000, 8000]])
  })

  it('places time-only rows at the recording rate, discounting EDF+D gaps, and times sample-only rows', async () => {
    const rec = folder({ 'rec.annotations.csv': 'time_s,time_ms,sample,symbol\n0.5,,,N\n,999.994,,V\n,2000,,Q\n,3500,,N\n,,160,F\n' })
    const input: Item[] = [recording(rec), block(0, 100), gap(1000, 3000, 100), block(100, 100)]
    const { items } = await runStage(annotate, input)
    expect(beats(items).map((b) => [b.sample, b.timeMs, b.label])).toEqual([[50, 500, 'N'], [100, 999.994, 'V'], [100, 2000, 'Q'], [150, 3500, 'N'], [160, 3600, 'F']])
    expect(items.map(where)).toEqual(['recording@', 'beat@50', 'block@0', 'gap@', 'beat@100', 'beat@100', 'beat@150', 'beat@160', 'block@100'])
  })

  it('ignores the sidecar with sidecar: none, and uses the embedded annotations when auto finds none', async () => {
    const withFile = folder({ 'rec.annotations.csv': 'sample,symbol\n10,V\n' })
    const input = (rec: string): Item[] => [recording(rec), block(0, 100), note(20, 'N')]
    for (const [rec, options] of [[withFile, { sidecar: 'none' }], [folder({}), {}]] as const) {
      const { items, warnings } = await runStage(annotate, input(rec), { options })
      expect(beats(items).map((b) => [b.sample, b.label])).toEqual([[20, 'N']])
      expect(warnings).toEqual([])
    }
  })

  it('reads an explicit template with {dir} and {name}, relative to the recording, and without replacement warnings', async () => {
    const rec = folder({ 'labels/rec.json': '[\n {"sample": 30, "symbol": "V"},\n {"sample": 40, "symbol": "N"}\n]\n', 'rec.annotations.csv': 'sample,symbol\n10,N\n' })
    for (const sidecar of ['{dir}/labels/{name}.json', 'labels/{name}.json']) {
      const { items, warnings } = await runStage(annotate, [recording(rec), note(20, 'N'), block(0, 100)], { options: { sidecar } })
      expect(beats(items).map((b) => [b.sample, b.label])).toEqual([[30, 'V'], [40, 'N']])
      expect(warnings).toEqual([])
    }
  })

  it('finds the sidecar of a recording the dataset named by a relative path', async () => {
    const rec = folder({ 'rec.annotations.csv': 'sample,symbol\n10,V\n' })
    const { items } = await runStage(annotate, [recording('data/rec.edf'), block(0, 100)], { record: { id: 'rec', path: rec, source: 'data/rec.edf', format: 'edf', annotator: false, annotatorExplicit: false } })
    expect(beats(items).map((b) => [b.sample, b.label])).toEqual([[10, 'V']])
  })

  it('takes the CSV when auto finds several, and warns', async () => {
    const rec = folder({ 'rec.annotations.csv': 'sample,symbol\n10,V\n', 'rec.annotations.ndjson': '{"sample":10,"symbol":"N"}\n' })
    const { items, warnings } = await runStage(annotate, [recording(rec), block(0, 100)])
    expect(beats(items).map((b) => b.label)).toEqual(['V'])
    expect(warnings).toEqual([{ code: 'W_SIDECAR_AMBIGUOUS', message: expect.stringContaining(`${path.join(path.dirname(rec), 'rec.annotations.ndjson')} beside it is ignored`) }])
  })

  it('fails naming the path when an explicit sidecar is missing; nothing is yielded', async () => {
    const rec = folder({})
    const { error } = await failure([recording(rec), block(0, 100)], { sidecar: '{name}.csv' })
    const file = path.join(path.dirname(rec), 'rec.csv')
    expect(error.code).toBe('E_FILE_MISSING')
    expect(error.message).toBe(`annotation sidecar not found: ${file} (annotate option sidecar "{name}.csv"); create the file, fix the template, or set sidecar to "auto" to use one only when it exists`)
    expect(error.context).toMatchObject({ file, field: 'sidecar' })
  })

  it('fails on a bad row naming file:line and the field, and on rows out of time order', async () => {
    const bad = folder({ 'rec.annotations.csv': 'sample,symbol\n10,N\n2O,N\n' })
    const { error } = await failure([recording(bad), block(0, 100)])
    expect(error.message).toContain(`${path.join(path.dirname(bad), 'rec.annotations.csv')}:3: field "sample": expected a number, found "2O"`)
    expect(error.context).toMatchObject({ line: 3, field: 'sample' })
    const unsorted = folder({ 'rec.annotations.csv': 'sample,symbol\n10,N\n30,N\n20,N\n' })
    const late = await failure([recording(unsorted), block(0, 100)])
    expect(late.error.message).toContain('rec.annotations.csv:4: expected rows in time order, found sample 20 after sample 30; sort the sidecar by time')
  })

  it('needs the recording item for an explicit template', async () => {
    const { error } = await failure([block(0, 100)], { sidecar: '/x/{name}.csv' })
    expect(error.code).toBe('E_CONFIG_VALUE')
    expect(error.message).toContain('put annotate after read')
  })

  it('checks the option when parsing it', () => {
    const parse = (sidecar: string) => () => annotate.parseOptions!({ sidecar }, { file: 'd.yaml', yamlPath: 'stages[1].options' })
    expect(parse('{dir}/{name}.ndjson')()).toEqual({ beats: true, rhythms: true, sidecar: '{dir}/{name}.ndjson' })
    expect(parse('{stem}.csv')).toThrow('expected "auto", "none" or a path template using only {dir} and {name}, found the placeholder "{stem}"')
    expect(parse('{name}.txt')).toThrow('expected "auto", "none" or a path ending in .csv, .json, .ndjson, .jsonl (the format follows the extension)')
  })
})

describe('annotate stage: sidecar for the bundled WFDB record 100', () => {
  const dir = tmpDir('hp-annotate-100-')
  const record = recordSpec(path.join(ROOT, 'samples/mitdb/100'))
  const key = (b: BeatItem) => `${b.sample}:${b.timeMs}:${b.label}:${b.symbol}`
  /** Beats and, for each, the start of the next block (a beat must come just before its block). */
  const placed = (items: Item[]) => items.flatMap((i, k) => {
    if (i.kind !== 'beat') return []
    const next = items.slice(k).find((j): j is SampleBlock => j.kind === 'block')!
    return [[(i as BeatItem).sample >= next.startSample && (i as BeatItem).sample < next.startSample + next.leads[0].length]]
  })

  it('CSV with quoted aux and NDJSON with times only give the .atr beats and rhythms, each beat before its block', async () => {
    const { items: read } = await readRecord(record, { blockSeconds: 5 })
    const embedded = (await runStage(annotate, read)).items
    const notes = annotationsOf(read)
    expect(notes).toHaveLength(2274)
    const csv = ['sample,symbol,aux', ...notes.map((a) => `${a.sample},${a.symbol === ',' ? '","' : a.symbol},${a.aux ? `"${a.aux.replaceAll('"', '""')}"` : ''}`)].join('\r\n')
    const ndjson = notes.map((a) => JSON.stringify({ time_s: a.sample / 360, symbol: a.symbol, aux: a.aux })).join('\n')
    writeFileSync(path.join(dir, '100.annotations.csv'), csv)
    writeFileSync(path.join(dir, '100.annotations.ndjson'), ndjson)
    for (const sidecar of [path.join(dir, '{name}.annotations.csv'), path.join(dir, '{name}.annotations.ndjson')]) {
      const { items, warnings }: StageRun = await runStage(annotate, read, { options: { sidecar } })
      expect(warnings).toEqual([])
      expect(beats(items).map(key)).toEqual(beats(embedded).map(key))
      expect(beats(items).slice(0, 3).map(key)).toEqual(['77:213.889:N:N', '370:1027.778:N:N', '662:1838.889:N:N'])
      expect(rhythms(items)).toEqual(rhythms(embedded))
      expect(rhythms(items).map((r) => [r.rhythm, r.startSample, r.endSample])).toEqual([['N', 18, 650000]])
      expect(placed(items).every(Boolean)).toBe(true)
    }
  })

  it('a record of several parts takes each part\'s embedded annotations: no sidecar (auto), an explicit one refused', async () => {
    // Record 100 twice, with a sidecar beside it that auto would take for a one-file record.
    const copy = path.join(dir, 'parts')
    mkdirSync(copy)
    for (const ext of ['hea', 'dat', 'atr']) copyFileSync(path.join(ROOT, `samples/mitdb/100.${ext}`), path.join(copy, `100.${ext}`))
    writeFileSync(path.join(copy, '100.annotations.csv'), 'sample,symbol\n77,V\n')
    const parts = [path.join(copy, '100'), path.join(copy, '100')]
    const multi = recordSpec(parts[0], { parts })
    const { items: read } = await readRecord(multi)
    const auto = (await runStage(annotate, read, { record: multi })).items
    expect(beats(auto)).toHaveLength(2 * 2273)
    expect(beats(auto)[2273].sample).toBe(650_000 + 77)
    const err = await runStage(annotate, read, { record: multi, options: { sidecar: path.join(dir, 'edited.csv') } }).then(() => null, (e: unknown) => e)
    expect(err).toMatchObject({ code: 'E_CONFIG_VALUE', message: expect.stringContaining('is made of 2 parts and a sidecar covers one file; use sidecar: none') })
  })

  it('the sidecar, not the .atr, is the reference: an edited label shows', async () => {
    writeFileSync(path.join(dir, 'edited.csv'), 'sample,symbol\n77,V\n370,"N"\n')
    const { items: read } = await readRecord(record)
    const { items } = await runStage(annotate, read, { options: { sidecar: path.join(dir, 'edited.csv') } })
    expect(beats(items).map((b) => [b.sample, b.label, b.symbol])).toEqual([[77, 'V', 'V'], [370, 'N', 'N']])
    expect(rhythms(items)).toEqual([])
  })
})

describeShared('annotate stage on the EDF+ copy of record 100 and its CSV sidecar', () => {
  const dir = tmpDir('hp-annotate-edf-')
  const edf = sharedPath('data/edf/mitbih100_30min.edf')
  const key = (b: BeatItem) => `${b.sample}:${b.timeMs}:${b.label}:${b.symbol}`

  it('the beats and rhythms of the sidecar equal those of the embedded TALs, at the same places in the stream', async () => {
    const { items: read } = await readRecord(recordSpec(edf))
    const fromTals = (await runStage(annotate, read, { options: { sidecar: 'none' } })).items
    const { items, warnings } = await runStage(annotate, read)
    expect(beats(items)).toHaveLength(2265)
    expect(beats(items).map(key)).toEqual(beats(fromTals).map(key))
    expect(beats(items).filter((b) => b.label !== 'N').map(key)).toEqual(beats(fromTals).filter((b) => b.label !== 'N').map(key))
    expect(beats(items).filter((b) => b.label === 'S')).toHaveLength(33)
    expect(rhythms(items)).toEqual(rhythms(fromTals))
    // The read stage puts each block's annotations before it; sidecar beats sit in the same gaps.
    const blockIndexOfBeats = (list: Item[]) => {
      let blocks = 0
      return list.flatMap((i) => (i.kind === 'block' ? (blocks++, []) : i.kind === 'beat' ? [blocks] : []))
    }
    expect(blockIndexOfBeats(items)).toEqual(blockIndexOfBeats(fromTals))
    expect(warnings).toEqual([{ code: 'W_SIDECAR_REPLACES', message: expect.stringContaining(`2266 reference annotations embedded in the recording passed through without making beats or rhythms: the sidecar ${sharedPath('data/edf/mitbih100_30min.annotations.csv')} found beside it`) }])
  })

  it('a copy of the sidecar with times only (time_ms, no sample column) gives the same samples', async () => {
    const lines = readFileSync(sharedPath('data/edf/mitbih100_30min.annotations.csv'), 'utf8').trim().split(/\r?\n/)
    expect(lines[0]).toBe('sample,time_ms,symbol,aux,is_beat')
    writeFileSync(path.join(dir, 'times.csv'), ['time_ms,symbol,aux', ...lines.slice(1).map((l) => l.split(',').slice(1, 4).join(','))].join('\n'))
    const { items: read } = await readRecord(recordSpec(edf))
    const fromTals = (await runStage(annotate, read, { options: { sidecar: 'none' } })).items
    const { items } = await runStage(annotate, read, { options: { sidecar: path.join(dir, 'times.csv') } })
    expect(beats(items).map(key)).toEqual(beats(fromTals).map(key))
  })
})
