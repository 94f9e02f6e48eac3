// Runs over runs (issue 12, point 1; runner layer, in process): a run whose dataset names an
// earlier run streams that run's finished records, the chosen kinds in the order they were
// written with the watermarks between them, sample arrays as Float32Array again, media paths
// relative to the new run; the manifest records the input; a redone input record and a changed
// input config are refused like a changed config; records the input finishes later join on resume.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runDataset, type RecordProbe } from '../../src/run/runner.ts'
import { defineStage, type Stage } from '../../src/core/stage.ts'
import type { Dataset, RecordSpec } from '../../src/config/dataset-schema.ts'
import type { ResolvedStage } from '../../src/config/plugins.ts'
import type { AnyItem, Item } from '../../src/core/items.ts'
import { watermark } from '../../src/core/watermark.ts'
import readRun from '../../src/stages/read-run.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { rejection } from '../helpers/thrown.ts'

const noProbe = async (): Promise<RecordProbe> => ({ durationSec: 0, files: [] })
const signal = new AbortController().signal

function dataset(ids: string[], extra: Partial<Dataset> = {}): Dataset {
  const records: RecordSpec[] = ids.map((id) => ({ id, path: `/virtual/${id}`, format: 'wfdb', annotator: false, annotatorExplicit: false }))
  return { file: '/virtual/d.yaml', name: 'test', out: '/unused', concurrency: { records: 2 }, records, stages: [], output: { exclude: ['block'], decimals: 4 }, ...extra }
}
const plugin = (stage: Stage<any>, options: unknown = {}): ResolvedStage => ({ stage, options, source: `/test/${stage.name}.ts` })

/** The first run's source: per record, blocks with their watermarks, windows (sample arrays), beats late, and a render item, in a fixed interleaving. */
const source = (version = 1) =>
  defineStage({
    name: 'synthetic', version,
    async *transform(_src, ctx) {
      yield { kind: 'recording', recordId: ctx.recordId, format: 'WFDB', file: 'x', startTime: null, fs: 10, durationSec: 4, totalSamples: 40, labels: ['I'], units: 'mV' }
      for (let k = 0; k < 4; k++) {
        yield { kind: 'block', recordId: ctx.recordId, fs: 10, startSample: k * 10, labels: ['I'], leads: [Float32Array.from({ length: 10 }, (_, i) => k + i / 10)] }
        yield { kind: 'window', id: `${ctx.recordId}:w${k}`, recordId: ctx.recordId, index: k, startSample: k * 10, startMs: k * 1000, fs: 10, lengthSamples: 10, labels: ['I'], samples: [Float32Array.from({ length: 10 }, (_, i) => (i === 3 ? NaN : k + i / 10))] }
        if (k > 0) yield { kind: 'beat', recordId: ctx.recordId, source: 'detector', sample: k * 10 - 5, timeMs: k * 1000 - 500, label: 'N' }
        yield watermark(ctx.recordId, k * 10 + 5)
        yield { kind: 'render', id: `${ctx.recordId}:s${k}.png`, recordId: ctx.recordId, format: 'png', path: `media/${ctx.recordId}/s${k}.png`, bytes: 1, startSample: k * 10, endSample: k * 10 + 10, startMs: k * 1000, endMs: k * 1000 + 1000, leads: ['I'] }
      }
    },
  })

/** A last stage that keeps what reaches it, to compare with what a run over the run streams. */
function capture(into: Map<string, (Item | AnyItem)[]>, kinds?: Set<string>) {
  return defineStage({
    name: 'capture', version: 1,
    async *transform(src, ctx) {
      const seen: (Item | AnyItem)[] = []
      into.set(ctx.recordId, seen)
      for await (const item of src) {
        if (!kinds || kinds.has(item.kind) || item.kind === 'watermark') seen.push(item)
        yield item
      }
    },
  })
}

async function firstRun(ids = ['a', 'b', 'c'], opts: { dir?: string; failOn?: string; version?: number; restart?: boolean } = {}) {
  const dir = opts.dir ?? tmpDir('hp-input-')
  const kinds = new Set(['window', 'beat', 'render'])
  const seen = new Map<string, (Item | AnyItem)[]>()
  const fail = defineStage({
    name: 'fail', version: 1,
    async *transform(src, ctx) {
      for await (const item of src) {
        if (ctx.recordId === opts.failOn) throw new Error('this record fails')
        yield item
      }
    },
  })
  await runDataset(dataset(ids), [plugin(source(opts.version)), plugin(fail), plugin(capture(seen, kinds))], { runDir: dir, signal, probe: noProbe, restart: opts.restart })
  return { dir, seen }
}

function overRun(input: string, kinds: string[], out: string, more: Stage<any>[] = [], extra: Partial<Dataset> = {}) {
  const d = dataset([], { input: { run: input, kinds }, ...extra })
  const stages: ResolvedStage[] = [{ stage: readRun as Stage<unknown>, options: { run: input, kinds }, source: 'builtin' }, ...more.map((s) => plugin(s))]
  return runDataset(d, stages, { runDir: out, signal, probe: noProbe })
}

describe('a run over a run', () => {
  it("streams each finished record's chosen kinds as they were written, with the watermarks, sample arrays and media paths revived", async () => {
    const { dir, seen } = await firstRun(['a', 'b', 'c'], { failOn: 'b' })
    const out = path.join(path.dirname(dir), `${path.basename(dir)}-over`)
    const replayed = new Map<string, (Item | AnyItem)[]>()
    const r = await overRun(dir, ['window', 'beat', 'render'], out, [capture(replayed)])
    // The failed record is not an input.
    expect(r).toMatchObject({ status: 'finished', total: 2, done: 2 })
    expect([...replayed.keys()].sort()).toEqual(['a', 'c'])
    for (const id of ['a', 'c']) {
      const before = seen.get(id)!
      const after = replayed.get(id)!
      // Same kinds in the same order; watermarks as the sink saw them (the frontier), each once.
      expect(after.map((i) => i.kind)).toEqual(before.map((i) => i.kind))
      const windows = after.filter((i) => i.kind === 'window') as { samples: Float32Array[] }[]
      expect(windows[2].samples[0]).toBeInstanceOf(Float32Array)
      expect(Number.isNaN(windows[2].samples[0][3])).toBe(true)
      expect(Array.from(windows[2].samples[0].subarray(0, 3))).toEqual([2, 2.1, 2.2].map((v) => Math.fround(v)))
      const renders = after.filter((i) => i.kind === 'render') as { path: string }[]
      expect(renders[0].path).toBe(`../${path.basename(dir)}/media/${id}/s0.png`)
      expect(path.resolve(out, renders[0].path)).toBe(path.join(dir, `media/${id}/s0.png`))
    }
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))
    const input = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
    expect(manifest.input).toEqual({ run: dir, configHash: input.configHash, kinds: ['window', 'beat', 'render'] })
    expect(manifest.records.map((x: RecordSpec) => x.id)).toEqual(['a', 'c'])
    // Its own outputs hold the lines it read, once (kinds not excluded are written again).
    expect(readFileSync(path.join(out, 'window.ndjson'), 'utf8').trim().split('\n')).toHaveLength(8)
  })

  it('reads only the kinds asked for, and a third run reads the second as the second read the first', async () => {
    const { dir } = await firstRun(['a'])
    const second = `${dir}-2`
    await overRun(dir, ['beat', 'render'], second)
    const third = new Map<string, (Item | AnyItem)[]>()
    await overRun(second, ['render'], `${dir}-3`, [capture(third)])
    const items = third.get('a')!
    expect([...new Set(items.map((i) => i.kind))].sort()).toEqual(['render', 'watermark'])
    // Paths stay relative to the run that names them: from the third run, into the first's media.
    expect(path.resolve(`${dir}-3`, (items.find((i) => i.kind === 'render') as { path: string }).path)).toBe(path.join(dir, 'media/a/s0.png'))
  })

  it('is refused like a changed config when an input record was redone or the input run was made by another config, and picks up records the input finished later', async () => {
    const { dir } = await firstRun(['a', 'b'], { failOn: 'b' })
    const out = `${dir}-over`
    await overRun(dir, ['window'], out)
    // The input run finishes b later (the failure fixed): a resume of the run over it takes b on.
    await firstRun(['a', 'b'], { dir })
    expect(await overRun(dir, ['window'], out)).toMatchObject({ status: 'finished', done: 1, skipped: 1, total: 2 })
    // The input run redone from scratch (same config): its records have new checkpoints.
    await firstRun(['a', 'b'], { dir, restart: true })
    const redone = await rejection(overRun(dir, ['window'], out))
    expect(redone).toMatchObject({ code: 'E_CONFIG_CHANGED', message: expect.stringContaining(`${path.join(dir, 'checkpoints.ndjson')}#a`) })
    // Another config of the input run (the source's version): its config hash is in this run's.
    await firstRun(['a', 'b'], { dir: `${dir}-v2`, version: 2 })
    await overRun(`${dir}-v2`, ['window'], `${dir}-over-v2`)
    await firstRun(['a', 'b'], { dir: `${dir}-v2`, version: 3, restart: true })
    const changed = await rejection(overRun(`${dir}-v2`, ['window'], `${dir}-over-v2`))
    expect(changed).toMatchObject({ code: 'E_CONFIG_CHANGED', message: expect.stringContaining('input.configHash') })
  })

  it('refuses what is not a run, and a run written before order.bin', async () => {
    const empty = tmpDir('hp-input-')
    expect(await rejection(overRun(empty, ['window'], `${empty}-over`))).toMatchObject({ code: 'E_INPUT_RUN', message: expect.stringContaining('not a run directory') })
    const { dir } = await firstRun(['a'])
    unlinkSync(path.join(dir, 'order.bin'))
    expect(await rejection(overRun(dir, ['window'], `${dir}-over`))).toMatchObject({ code: 'E_INPUT_RUN', message: expect.stringContaining('without order.bin') })
  })

  it("fails a record whose line in the input run is damaged with E_CHECKPOINT naming file:line and --restart; the other records go on", async () => {
    const { dir } = await firstRun(['a', 'b'])
    const file = path.join(dir, 'window.ndjson')
    const lines = readFileSync(file, 'utf8').split('\n')
    // Line 6 is record b's second window (4 a record): damaged in place, same length.
    lines[5] = '#' + lines[5].slice(1)
    writeFileSync(file, lines.join('\n'))
    const r = await overRun(dir, ['window'], `${dir}-over`)
    expect(r.failed.map((f) => f.recordId)).toEqual(['b'])
    const err = r.failed[0].error
    expect(err).toMatchObject({ code: 'E_CHECKPOINT', context: { file, line: 6 } })
    expect(err.toLine()).toContain(`${file}:6`)
    expect(err.message).toContain('--restart')
    expect(err.cause).toBeInstanceOf(SyntaxError)
  })

  it('refuses to write a run into its own input run, and leaves the input as it was', async () => {
    const { dir } = await firstRun(['a'])
    const before = readFileSync(path.join(dir, 'window.ndjson'), 'utf8')
    expect(await rejection(overRun(dir, ['window'], `${dir}/`))).toMatchObject({ code: 'E_INPUT_RUN', message: expect.stringContaining('is the input run itself') })
    expect(readFileSync(path.join(dir, 'window.ndjson'), 'utf8')).toBe(before)
  })
})
