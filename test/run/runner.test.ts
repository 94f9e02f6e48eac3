import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs'
import { rejection } from '../helpers/thrown.ts'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runDataset, type RecordProbe } from '../../src/run/runner.ts'
import { defineStage, type Stage } from '../../src/core/stage.ts'
import type { Dataset, RecordSpec } from '../../src/config/dataset-schema.ts'
import type { ResolvedStage } from '../../src/config/plugins.ts'
import type { AnyItem, Item, SampleBlock } from '../../src/core/items.ts'
import read from '../../src/stages/read.ts'
import { probeRecord } from '../../src/readers/read-probe.ts'
import { ROOT } from '../helpers/shared.ts'
import { runOutputs } from '../helpers/run-outputs.ts'
import { tmpDir } from '../helpers/tmp.ts'

const noProbe = async (): Promise<RecordProbe> => ({ durationSec: 0, files: [] })

function dataset(ids: string[], concurrency = 1): Dataset {
  const records: RecordSpec[] = ids.map((id) => ({ id, path: `/virtual/${id}`, format: 'wfdb', annotator: false, annotatorExplicit: false }))
  return { file: '/virtual/d.yaml', name: 'test', out: '/unused', concurrency: { records: concurrency }, records, stages: [], output: { exclude: ['block'], decimals: 4 } }
}

// The test stages stand for the user's own (plugins; the synthetic source is a reader of theirs); read is the built-in.
function resolved(...stages: Stage<any>[]): ResolvedStage[] {
  return stages.map((stage) => ({ stage, options: {}, source: stage === read ? 'builtin' : `/test/${stage.name}.ts` }))
}

/** A source stage: `n` blocks of 100 samples and one `tick` item per block, per record; `before` is awaited before each block. */
function source(n: number, opts: { before?: (recordId: string, i: number) => Promise<void> | void } = {}) {
  return defineStage({
    name: 'synthetic', version: 1,
    async *transform(_src, ctx) {
      for (let i = 0; i < n; i++) {
        await opts.before?.(ctx.recordId, i)
        const b: SampleBlock = { kind: 'block', recordId: ctx.recordId, fs: 100, startSample: i * 100, labels: ['x'], leads: [new Float32Array(100).fill(i)] }
        yield b
        yield { kind: 'tick', recordId: ctx.recordId, i }
      }
    },
  })
}


describe('runner', () => {
  it('keeps the reader at most a few blocks ahead of a slow sink (backpressure)', async () => {
    let produced = 0
    let consumed = 0
    let maxAhead = 0
    const slow = defineStage({
      name: 'slow', version: 1,
      async *transform(src) {
        for await (const item of src) {
          if (item.kind === 'block') {
            consumed++
            // A sink slower than the reader: a turn of the event loop per block.
            await new Promise((resolve) => setImmediate(resolve))
          }
          yield item
        }
      },
    })
    const counting = defineStage({
      name: 'count', version: 1,
      async *transform(src) {
        for await (const item of src) {
          if (item.kind === 'block') maxAhead = Math.max(maxAhead, ++produced - consumed)
          yield item
        }
      },
    })
    const d = dataset(['r'])
    d.records[0] = { id: 'r', path: path.join(ROOT, 'samples/mitdb/100'), format: 'wfdb', annotator: 'atr', annotatorExplicit: false }
    const r = await runDataset(d, [...resolved(read, counting, slow)].map((s) => (s.stage === read ? { ...s, options: read.parseOptions!({ blockSeconds: 5 }, { file: '', yamlPath: '' }) } : s)), { runDir: tmpDir(), signal: new AbortController().signal, probe: probeRecord })
    expect(r.status).toBe('finished')
    expect(produced).toBe(Math.ceil(650000 / 1800)) // every block of the 30 min record went through
    expect(consumed).toBe(produced)
    expect(maxAhead).toBeLessThanOrEqual(2)
  })

  it('runs records concurrently up to the limit and still writes byte-identical outputs in dataset order', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e']
    const run = async (concurrency: number) => {
      let inFlight = 0
      let peak = 0
      const ended: string[] = []
      // With records in parallel (latches, not delays): a, b and c each wait for the other two to
      // have started, and a's last block waits until b has ended.
      let bEnded!: () => void
      const bDone = new Promise<void>((resolve) => (bEnded = resolve))
      let started = 0
      let allStarted!: () => void
      const three = new Promise<void>((resolve) => (allStarted = resolve))
      const before = (id: string, i: number) => {
        if (concurrency === 1) return
        if (i === 0 && 'abc'.includes(id)) {
          if (++started === 3) allStarted()
          return three
        }
        if (id === 'a' && i === 19) return bDone
      }
      const tracked = defineStage({
        name: 'tracked', version: 1,
        async *transform(src, ctx) {
          peak = Math.max(peak, ++inFlight)
          try {
            yield* src
          } finally {
            inFlight--
            ended.push(ctx.recordId)
            if (ctx.recordId === 'b') bEnded()
          }
        },
      })
      const dir = tmpDir()
      const r = await runDataset(dataset(ids, concurrency), resolved(source(20, { before }), tracked), { runDir: dir, signal: new AbortController().signal, probe: noProbe })
      expect(r).toMatchObject({ status: 'finished', done: 5, failed: [] })
      return { dir, peak, ended }
    }
    const one = await run(1)
    const three = await run(3)
    expect(one.peak).toBe(1)
    expect(three.peak).toBe(3)
    expect(runOutputs(three.dir)).toEqual(runOutputs(one.dir))
    const ticks = readFileSync(path.join(three.dir, 'tick.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).recordId)
    expect([...new Set(ticks)]).toEqual(ids)
    // With 3 at once the slow first record (a) ends after records that started later, yet the
    // checkpoints (and so the outputs) follow the dataset order.
    expect(three.ended.indexOf('a')).toBeGreaterThan(three.ended.indexOf('b'))
    const committed = readFileSync(path.join(three.dir, 'checkpoints.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).recordId)
    expect(committed).toEqual(ids)
  })

  it('isolates a failing record: the others complete and the failure names record and stage', async () => {
    const boom = defineStage({
      name: 'boom', version: 1,
      async *transform(src, ctx) {
        for await (const item of src) {
          if (ctx.recordId === 'b' && (item as AnyItem).kind === 'tick' && (item as AnyItem).i === 3) throw new Error('bad sample')
          yield item
        }
      },
    })
    const dir = tmpDir()
    const r = await runDataset(dataset(['a', 'b', 'c'], 2), resolved(source(10), boom), { runDir: dir, signal: new AbortController().signal, probe: noProbe })
    expect(r.status).toBe('failed')
    expect(r.done).toBe(2)
    expect(r.failed).toHaveLength(1)
    // A user's stage that throws is that stage failing (E_STAGE_FAILED, naming it), not our bug (E_INTERNAL).
    expect(r.failed[0].error).toMatchObject({ code: 'E_STAGE_FAILED', context: { recordId: 'b', stage: 'boom', file: '/test/boom.ts' } })
    expect(r.failed[0].error.toLine()).toMatch(/^E_STAGE_FAILED: record b: stage boom: .*your stage "boom" \(\/test\/boom.ts\) failed: bad sample/)
    expect((r.failed[0].error.cause as Error).message).toBe('bad sample')
    const ticks = readFileSync(path.join(dir, 'tick.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).recordId)
    expect(ticks.filter((t) => t === 'a')).toHaveLength(10)
    expect(ticks.filter((t) => t === 'c')).toHaveLength(10)
    expect(ticks).not.toContain('b')
    const progress = readFileSync(path.join(dir, 'progress.ndjson'), 'utf8')
    expect(progress).toContain('"t":"record-failed","at"')
  })

  it('resumes after an abort without duplicates and without paying twice for journaled items', async () => {
    const paid: string[] = []
    const controller = new AbortController()
    const model = defineStage({
      name: 'model', version: 1,
      async *transform(src, ctx) {
        const journal = await ctx.journal('answers')
        for await (const item of src) {
          yield item
          if ((item as AnyItem).kind !== 'tick') continue
          const key = `${ctx.recordId}:${(item as AnyItem).i}`
          let answer = await journal.get<string>(key)
          if (answer === undefined) {
            paid.push(key)
            answer = `answer ${key}`
            await journal.put(key, answer)
            if (key === 'b:5') controller.abort()
          }
          yield { kind: 'prediction', recordId: ctx.recordId, key, answer }
        }
      },
    })
    const dir = tmpDir()
    const first = await runDataset(dataset(['a', 'b', 'c']), resolved(source(10), model), { runDir: dir, signal: controller.signal, probe: noProbe })
    expect(first.status).toBe('interrupted')
    expect(first.done).toBe(1)
    const second = await runDataset(dataset(['a', 'b', 'c']), resolved(source(10), model), { runDir: dir, signal: new AbortController().signal, probe: noProbe })
    expect(second).toMatchObject({ status: 'finished', done: 2, skipped: 1 })
    expect(new Set(paid).size).toBe(paid.length) // no key paid twice
    expect(paid).toHaveLength(30)

    const clean = tmpDir()
    await runDataset(dataset(['a', 'b', 'c']), resolved(source(10), model), { runDir: clean, signal: new AbortController().signal, probe: noProbe })
    expect(runOutputs(dir)).toEqual(runOutputs(clean))
  })

  it('refuses to mix results of a changed config unless told to restart', async () => {
    const dir = tmpDir()
    const signal = new AbortController().signal
    await runDataset(dataset(['a']), resolved(source(2)), { runDir: dir, signal, probe: noProbe })
    await expect(runDataset(dataset(['a', 'b']), resolved(source(2)), { runDir: dir, signal, probe: noProbe })).rejects.toMatchObject({ code: 'E_CONFIG_CHANGED', message: expect.stringContaining('--restart') })
    const r = await runDataset(dataset(['a', 'b']), resolved(source(2)), { runDir: dir, signal, probe: noProbe, restart: true })
    expect(r).toMatchObject({ status: 'finished', done: 2, skipped: 0 })
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
    expect(manifest.sessions).toHaveLength(1)
    expect(manifest.stages).toEqual([{ name: 'synthetic', version: 1, source: '/test/synthetic.ts' }])
  })

  it('never writes into, nor clears with restart, a non-empty directory that is not a run', async () => {
    const dir = tmpDir()
    mkdirSync(path.join(dir, 'x', 'data'), { recursive: true })
    writeFileSync(path.join(dir, 'x', 'notes.txt'), 'mine')
    for (const restart of [false, true]) {
      await expect(runDataset(dataset(['a']), resolved(source(1)), { runDir: path.join(dir, 'x'), signal: new AbortController().signal, probe: noProbe, restart })).rejects.toMatchObject({ code: 'E_CONFIG_CHANGED', message: expect.stringContaining('not a run directory') })
    }
    expect(readdirSync(path.join(dir, 'x')).sort()).toEqual(['data', 'notes.txt'])
  })

  it('restart clears only what a run wrote', async () => {
    const dir = tmpDir()
    const signal = new AbortController().signal
    await runDataset(dataset(['a']), resolved(source(2)), { runDir: dir, signal, probe: noProbe })
    writeFileSync(path.join(dir, 'my-notes.md'), 'kept')
    await runDataset(dataset(['a', 'b']), resolved(source(2)), { runDir: dir, signal, probe: noProbe, restart: true })
    expect(readFileSync(path.join(dir, 'my-notes.md'), 'utf8')).toBe('kept')
  })

  it('refuses to resume when an output file was deleted by hand', async () => {
    const dir = tmpDir()
    const signal = new AbortController().signal
    await runDataset(dataset(['a', 'b']), resolved(source(2)), { runDir: dir, signal, probe: noProbe })
    unlinkSync(path.join(dir, 'tick.ndjson'))
    await expect(runDataset(dataset(['a', 'b']), resolved(source(2)), { runDir: dir, signal, probe: noProbe })).rejects.toMatchObject({ code: 'E_CHECKPOINT', message: expect.stringContaining('tick.ndjson is missing') })
  })

  it("gives a reader of the user's own that sends no watermarks one at each block's end, before the next block; none once it sends its own", async () => {
    const seen: string[] = []
    const watch = defineStage({
      name: 'watch', version: 1,
      async *transform(src) {
        for await (const item of src) {
          if (item.kind === 'block' || item.kind === 'watermark') seen.push(`${item.kind}:${item.kind === 'block' ? item.startSample : item.sample}`)
          yield item
        }
      },
    })
    await runDataset(dataset(['a']), resolved(source(4), watch), { runDir: tmpDir(), signal: new AbortController().signal, probe: noProbe })
    expect(seen).toEqual(['block:0', 'watermark:100', 'block:100', 'watermark:200', 'block:200', 'watermark:300', 'block:300'])

    seen.length = 0
    const ownMarks = defineStage({
      name: 'own-marks', version: 1,
      async *transform(_src, ctx) {
        for (let i = 0; i < 3; i++) {
          yield { kind: 'block', recordId: ctx.recordId, fs: 100, startSample: i * 100, labels: ['x'], leads: [new Float32Array(100)] } satisfies SampleBlock
          yield { kind: 'watermark', recordId: ctx.recordId, sample: i * 100 + 50 }
        }
      },
    })
    await runDataset(dataset(['a']), resolved(ownMarks, watch), { runDir: tmpDir(), signal: new AbortController().signal, probe: noProbe })
    expect(seen).toEqual(['block:0', 'watermark:50', 'block:100', 'watermark:150', 'block:200', 'watermark:250'])
  })

  it('names the stage that yields null instead of an item', async () => {
    const bad = defineStage({ name: 'nully', version: 1, async *transform() { yield null as unknown as Item } })
    const r = await runDataset(dataset(['a']), resolved(bad), { runDir: tmpDir(), signal: new AbortController().signal, probe: noProbe })
    expect(r.failed[0].error.code).toBe('E_STAGE_OUTPUT')
    expect(r.failed[0].error.message).toContain('yielded an item with null')
  })

  it('lets one run at a time write a run directory, and takes over a stale lock', async () => {
    const dir = tmpDir()
    const signal = new AbortController().signal
    writeFileSync(path.join(dir, 'run.lock'), `${process.ppid}\n`) // a live process that is not us
    await expect(runDataset(dataset(['a']), resolved(source(1)), { runDir: dir, signal, probe: noProbe })).rejects.toMatchObject({ code: 'E_RUN_LOCKED', message: expect.stringContaining(`pid ${process.ppid}`) })
    writeFileSync(path.join(dir, 'run.lock'), '2147483646\n') // no such process: left by a killed run
    const r = await runDataset(dataset(['a']), resolved(source(1)), { runDir: dir, signal, probe: noProbe })
    expect(r.status).toBe('finished')
    expect(readdirSync(dir)).not.toContain('run.lock')
  })

  it('ends the session in the manifest and the log even when a journal could not be opened, and retries the open for the next record', async () => {
    const dir = tmpDir()
    const journaling = defineStage({
      name: 'journaling', version: 1,
      async *transform(src, ctx) {
        yield* src
        if (ctx.recordId === 'a') await ctx.journal('bad name!')
        if (ctx.recordId === 'b') {
          // A file where the journal folder goes: this open fails; the next record's must try again.
          writeFileSync(path.join(ctx.runDir, 'journal'), '')
          await ctx.journal('calls').finally(() => unlinkSync(path.join(ctx.runDir, 'journal')))
        }
        if (ctx.recordId === 'c') await (await ctx.journal('calls')).put('k', 1)
      },
    })
    const r = await runDataset(dataset(['a', 'b', 'c']), resolved(source(1), journaling), { runDir: dir, signal: new AbortController().signal, probe: noProbe })
    expect(r.status).toBe('failed')
    expect(r.failed.map((f) => [f.recordId, f.error.code])).toEqual([['a', 'E_USAGE'], ['b', expect.any(String)]])
    expect(r.done).toBe(1)
    const session = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).sessions.at(-1)
    expect(session).toMatchObject({ status: 'failed', endedAt: expect.any(String) })
    expect(JSON.parse(readFileSync(path.join(dir, 'progress.ndjson'), 'utf8').trim().split('\n').at(-1)!)).toMatchObject({ t: 'run-end', status: 'failed' })
    expect(readFileSync(path.join(dir, 'journal/calls.ndjson'), 'utf8')).toBe('{"key":"k","value":1}\n')
    expect(existsSync(path.join(dir, 'run.lock'))).toBe(false)
  })

  it("puts the content cache in the dataset's cache folder (absolute once loaded), else in <runDir>/cache", async () => {
    const caching = defineStage({
      name: 'caching', version: 1,
      async *transform(src, ctx) {
        yield* src
        const cache = ctx.run.cache('ns')
        await cache.put(cache.key({ record: ctx.recordId }), 1)
      },
    })
    const dir = tmpDir()
    const shared = path.join(tmpDir(), 'shared-cache')
    await runDataset({ ...dataset(['a']), cache: shared }, resolved(source(1), caching), { runDir: dir, signal: new AbortController().signal, probe: noProbe })
    expect(readdirSync(path.join(shared, 'ns'))).toHaveLength(1)
    expect(existsSync(path.join(dir, 'cache'))).toBe(false)
    const own = tmpDir()
    await runDataset(dataset(['a']), resolved(source(1), caching), { runDir: own, signal: new AbortController().signal, probe: noProbe })
    expect(readdirSync(path.join(own, 'cache/ns'))).toHaveLength(1)
  })

  it('rejects items without a usable kind, naming the rule', async () => {
    const bad = defineStage({ name: 'bad', version: 1, async *transform() { yield { kind: 'Progress!', recordId: 'a' } as AnyItem } })
    const r = await runDataset(dataset(['a']), resolved(bad), { runDir: tmpDir(), signal: new AbortController().signal, probe: noProbe })
    expect(r.failed[0].error.code).toBe('E_STAGE_OUTPUT')
  })

  it.runIf(existsSync('/proc/self'))('fails at once with E_IO for an --out it cannot create (Node\'s own recursive mkdir loops for ever under /proc)', async () => {
    const t0 = Date.now()
    const err = await rejection(runDataset(dataset(['a']), resolved(source(1)), { runDir: '/proc/nope/run', signal: new AbortController().signal, probe: noProbe }))
    expect(err).toMatchObject({ code: 'E_IO', message: expect.stringContaining('cannot create the run directory /proc/nope/run') })
    expect(Date.now() - t0).toBeLessThan(5000) // a hang guard: it answers at once
  })

  it('refuses a dataset whose stages read nothing (only built-ins, none of them read)', async () => {
    const segmentOnly = defineStage({ name: 'segment', version: 1, async *transform(src) { yield* src } })
    const err = await rejection(runDataset(dataset(['a']), [{ stage: segmentOnly as Stage<unknown>, options: {}, source: 'builtin' }], { runDir: tmpDir(), signal: new AbortController().signal, probe: noProbe }))
    expect(err).toMatchObject({ code: 'E_CONFIG_VALUE', message: expect.stringContaining('no stage reads the records') })
  })

  it('names what changed when it refuses to mix results', async () => {
    const dir = tmpDir()
    await runDataset(dataset(['a']), resolved(source(2)), { runDir: dir, signal: new AbortController().signal, probe: noProbe })
    const err = await rejection(runDataset(dataset(['a', 'b']), [...resolved(source(2))].map((s) => ({ ...s, options: { n: 3 } })), { runDir: dir, signal: new AbortController().signal, probe: noProbe }))
    expect(err.message).toContain("changed since: records: added b; stages[0] synthetic.options.n: (none) -> 3; pass --restart")
  })

  it('removes the media of a record that fails, and keeps those of the others', async () => {
    const dir = tmpDir()
    const media = defineStage({
      name: 'media', version: 1,
      async *transform(src, ctx) {
        for await (const item of src) {
          yield item
          if ((item as AnyItem).kind === 'tick' && (item as AnyItem).i === 2) {
            const f = await ctx.media.write('x/tick.bin', new Uint8Array([1, 2, 3]))
            yield { kind: 'file', recordId: ctx.recordId, path: f.path }
            if (ctx.recordId === 'b') throw new Error('after writing')
          }
        }
      },
    })
    const r = await runDataset(dataset(['a', 'b']), resolved(source(4), media), { runDir: dir, signal: new AbortController().signal, probe: noProbe })
    expect(r.failed.map((f) => f.recordId)).toEqual(['b'])
    expect(existsSync(path.join(dir, 'media/a/x/tick.bin'))).toBe(true)
    expect(existsSync(path.join(dir, 'media/b'))).toBe(false)
  })
})

