import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import renderText from '../../src/stages/render-text.ts'
import segment from '../../src/stages/segment.ts'
import excerpt from '../../src/stages/excerpt.ts'
import { BUILTIN_STAGES } from '../../src/stages/index.ts'
import { resolveStages } from '../../src/config/plugins.ts'
import { streamRecord } from '../../src/run/run-record.ts'
import { localShared } from '../../src/run/local-context.ts'
import { watermarkViolations, withoutWatermarks } from '../helpers/watermarks.ts'
import type { Item, RenderItem, SampleBlock, WindowItem } from '../../src/core/items.ts'
import type { Stage, StageContext } from '../../src/core/stage.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { testContext } from '../helpers/stage-context.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { createTextFile } from '../../src/sinks/text-file.ts'
import { estimateTokens } from '../../src/render/estimate-tokens.ts'
import { createHash } from 'node:crypto'
import { rng } from '../helpers/seeded-random.ts'
import { pipelineRejection as rejected, thrown } from '../helpers/thrown.ts'
import { toFixedMv } from '../helpers/mv-text.ts'

const spec = recordSpec(path.join(ROOT, 'samples/mitdb/100'), { id: '100' })
const FIXTURES = path.join(ROOT, 'test/fixtures')
const record100 = readRecord(spec).then((r) => r.items) // 30 min, 2 leads at 360 Hz

let runs = 0
/** A context for `stage` in a fresh run directory. */
function context<O>(stage: Stage<O>, options: unknown, signal?: AbortSignal): StageContext<O> {
  return testContext(stage, options, spec, [], signal, path.join(tmpDir('hp-render-text-'), `run${runs++}`))
}

async function* from(items: Item[]): AsyncGenerator<Item> {
  yield* items
}

/** read items -> segment -> render-text; what render-text yields and its context. */
async function render(options: unknown, opts: { items?: Item[]; segment?: boolean; signal?: AbortSignal; stopAfter?: number } = {}) {
  const items = opts.items ?? (await record100)
  const ctx = context(renderText, options, opts.signal)
  const input = opts.segment === false ? from(items) : (segment.transform(from(items), context(segment, {})) as AsyncIterable<Item>)
  const out: Item[] = []
  for await (const item of renderText.transform(input, ctx)) out.push(item as Item)
  return { out, ctx }
}

const windowsOf = (items: Item[]) => items.filter((i): i is WindowItem => i.kind === 'window')
const rendersOf = (items: Item[]) => items.filter((i): i is RenderItem => i.kind === 'render')

describe('render-text stage on record 100', () => {
  it('writes every window as one line per lead that parses back to toFixed(3) of the samples, and the render items slice the file', async () => {
    const { out, ctx } = await render({ leads: [0, 'V5'] })
    const windows = windowsOf(out)
    const renders = rendersOf(out)
    expect(windows).toHaveLength(180)
    expect(renders).toHaveLength(180)
    // Every item passes through, each render item right after its window.
    expect(withoutWatermarks(out.filter((i) => i.kind !== 'render' && i.kind !== 'window'))).toEqual(withoutWatermarks(await record100))
    expect(watermarkViolations(out, await record100).violations).toEqual([]) // input: the read items, through segment
    renders.forEach((r, k) => expect(out[out.indexOf(windows[k]) + 1]).toBe(r))

    const file = path.join(ctx.runDir, renders[0].path)
    expect(renders[0].path).toBe('media/100/text.txt')
    expect(readdirSync(path.dirname(file))).toEqual(['text.txt'])
    const text = readFileSync(file)
    let at = 0
    renders.forEach((r, k) => {
      const w = windows[k]
      expect(r).toMatchObject({
        kind: 'render', id: `100:text.txt#w${w.index}`, recordId: '100', format: 'text', offset: at, windowIndex: w.index, from: [w.id], startSample: w.startSample,
        endSample: w.startSample + 3600, startMs: w.startMs, endMs: w.startMs + 10_000, leads: ['MLII', 'V5'], fs: 360, values: 7200,
      })
      const slice = text.subarray(r.offset as number, (r.offset as number) + r.bytes)
      expect(r.tokens).toBe(estimateTokens(slice))
      const lines = slice.toString('latin1').split('\n')
      expect(lines.pop()).toBe('') // the window's text ends its last line
      expect(lines).toHaveLength(2)
      lines.forEach((line, l) => {
        const [head, values] = line.split(': ')
        const s = w.startMs / 1000
        const clock = `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`
        expect(head).toBe(`${w.labels[l]} ${clock} 360Hz`)
        expect(values.split(',')).toEqual(Array.from(w.samples[l], (v) => toFixedMv(v, 3)))
      })
      at += r.bytes
    })
    expect(at).toBe(text.length)
    expect(text.subarray(0, 40).toString()).toMatch(/^MLII 00:00:00\.000 360Hz: -?\d\.\d{3},/)
  })

  it('resamples to `rate` (round(n * rate / fs) values a lead) and writes that rate', async () => {
    const items = (await record100).slice(0, 40)
    const { out, ctx } = await render({ rate: 100, leads: ['V5'], decimals: 2, separator: ' ', file: '{recordId}-100hz.txt' }, { items })
    const renders = rendersOf(out)
    expect(renders.length).toBeGreaterThan(0)
    const text = readFileSync(path.join(ctx.runDir, 'media/100/100-100hz.txt'), 'latin1')
    for (const r of renders) {
      expect(r).toMatchObject({ fs: 100, values: 1000, leads: ['V5'], path: 'media/100/100-100hz.txt' })
      const line = text.slice(r.offset as number, (r.offset as number) + r.bytes)
      expect(line).toMatch(/^V5 \d\d:\d\d:\d\d\.000 100Hz: /)
      expect(line.trimEnd().split(': ')[1].split(' ')).toHaveLength(1000)
      expect(line.trimEnd().split(': ')[1].split(' ').every((v) => /^-?\d+\.\d\d$/.test(v))).toBe(true)
    }
  })

  it('refuses a rate above the signal rate, naming the option', async () => {
    const err = await rejected(render({ rate: 500 }, { items: (await record100).slice(0, 20) }))
    expect(err.code).toBe('E_CONFIG_VALUE')
    expect(err.message).toMatch(/option "rate" \(500 Hz\) is above the signal's rate \(360 Hz\)/)
  })

  it('refuses a lead label the record does not have, naming the option and the labels, and leaves no file', async () => {
    const items = (await record100).slice(0, 20)
    const ctx = context(renderText, { leads: ['MLII', 'V9'] })
    const run = async () => {
      for await (const _ of renderText.transform(segment.transform(from(items), context(segment, {})) as AsyncIterable<Item>, ctx));
    }
    const err = await rejected(run())
    expect(err.code).toBe('E_CONFIG_VALUE')
    expect(err.message).toMatch(/option "leads": lead "V9" is not among the record's leads \[MLII, V5\]/)
    expect(existsSync(ctx.mediaDir) ? readdirSync(ctx.mediaDir) : []).toEqual([])
  })

  it('says to put a segment stage first when blocks arrive but no windows', async () => {
    const blocks = (await record100).filter((i): i is SampleBlock => i.kind === 'block').slice(0, 3)
    expect(blocks.length).toBe(3)
    const err = await rejected(render({}, { items: blocks, segment: false }))
    expect(err.code).toBe('E_CONFIG_VALUE')
    expect(err.message).toBe('render-text: no window items reached this stage; put a segment stage before it (stages: [read, ..., segment, render-text])')
    // A stream with neither blocks nor windows writes nothing and is no error.
    const { out, ctx } = await render({}, { items: [], segment: false })
    expect(out).toEqual([])
    expect(existsSync(ctx.mediaDir)).toBe(false)
  })

  it('yields a render item only once its bytes are in the file under its path, for windows and excerpts', async () => {
    const all = await record100
    const items = all.slice(0, all.findIndex((i) => i.kind === 'block' && i.startSample >= 5 * 60 * 360)) // the first 5 min
    const ctx = context(renderText, { excerpts: ['pvc', 'ten'] })
    const input = excerpt.transform(segment.transform(from(items), context(segment, {})) as AsyncIterable<Item>, context(excerpt, { set: 'ten', every: { minutes: 1, lengthSec: 25 } }))
    let windows = 0
    let excerpts = 0
    for await (const item of renderText.transform(input as AsyncIterable<Item>, ctx)) {
      if (item.kind !== 'render') continue
      const r = item as RenderItem
      // Read it now, as another process would: the range is there, whole.
      const bytes = readFileSync(path.join(ctx.runDir, r.path)).subarray(r.offset as number, (r.offset as number) + r.bytes)
      expect(bytes.length).toBe(r.bytes)
      expect(bytes.toString('latin1').endsWith('\n')).toBe(true)
      expect(r.tokens).toBe(estimateTokens(bytes))
      if (r.of) {
        excerpts++
        expect(r).toMatchObject({ id: `100:text.txt#ex:ten:${r.startSample}`, of: `100:ex:ten:${r.startSample}`, values: r.endSample - r.startSample })
        expect(r.endSample - r.startSample).toBe(25 * 360)
      } else windows++
    }
    expect(excerpts).toBe(5) // one a minute
    expect(windows).toBe(30)
  })

  it('leaves no file when its record fails after it has written', async () => {
    const dir = tmpDir('hp-render-text-')
    const stages = await resolveStages(['read', 'segment', 'render-text', './fail-after.mjs'].map((use, i) => ({ use, options: {}, yamlPath: `stages[${i}]` })), path.join(FIXTURES, 'dataset.yaml'), BUILTIN_STAGES)
    const shared = localShared({ signal: new AbortController().signal, warn: () => undefined, what: 'a test', runDir: dir, mediaDir: path.join(dir, 'media/100') })
    const err = await rejected(streamRecord(spec, stages, shared, async (items) => {
      for await (const _ of items);
    }))
    expect(err.message).toMatch(/fails after 3 render items/)
    expect(existsSync(path.join(dir, 'media/100/text.txt'))).toBe(false)
  })

  it('validates its options with the YAML path', () => {
    const where = { file: 'd.yaml', yamlPath: 'stages[3].options' }
    expect(renderText.parseOptions!({}, where)).toEqual({ leads: [0], decimals: 3, separator: ',', file: 'text.txt', windows: true })
    expect(() => renderText.parseOptions!({ lead: [0] }, where)).toThrow(/unknown option "lead"/)
    for (const [bad, at] of [[{ decimals: 7 }, 'decimals'], [{ rate: 0 }, 'rate'], [{ separator: '.' }, 'separator'], [{ file: '../x.txt' }, 'file'], [{ leads: [] }, 'leads']] as const) {
      const err = thrown(() => renderText.parseOptions!(bad, where))
      expect(err.code, JSON.stringify(bad)).toBe('E_CONFIG_VALUE')
      expect(err.context.yamlPath).toBe(`stages[3].options.${at}`)
    }
  })
})

// The stage's writer (src/sinks/text-file.ts), tested here beside its only user.
describe('createTextFile', () => {
  it('writes under its own name, each write in the file when it returns, and counts the offset', async () => {
    const dir = tmpDir('hp-text-file-')
    const file = path.join(dir, 'text.txt')
    writeFileSync(file, 'left by an interrupted attempt')
    const out = await createTextFile(file)
    expect(readFileSync(file).length).toBe(0) // truncated when opened
    const chunk = Buffer.alloc(1_500_000, 48)
    for (let k = 0; k < 5; k++) {
      await out.write(chunk)
      expect(readFileSync(file).length).toBe(out.offset)
    }
    expect(out.offset).toBe(7_500_000)
    await out.close()
    expect(readFileSync(file).length).toBe(7_500_000)
    await out.abort() // after close: nothing to do, the file stays
    expect(existsSync(file)).toBe(true)
  })

  it('takes what it is given at once (the caller reuses one buffer), and pieces of any size land in order at their offsets', async () => {
    const dir = tmpDir('hp-text-file-')
    const file = path.join(dir, 'text.txt')
    const out = await createTextFile(file)
    const next = rng(11)
    const scratch = Buffer.alloc(3_000_000)
    const expected = createHash('sha256')
    let total = 0
    for (let k = 0; k < 600; k++) {
      // Mostly window-sized pieces, some of a byte, some of megabytes.
      const r = next()
      const size = r < 0.05 ? 1 : r < 0.08 ? 1_048_576 + Math.floor(next() * 1_500_000) : 20_000 + Math.floor(next() * 10_000)
      const piece = scratch.subarray(0, size).fill(65 + (k % 26))
      piece[0] = 48 + (k % 10)
      expect(out.offset).toBe(total)
      await out.write(piece)
      expected.update(piece)
      total += size
      scratch.fill(0) // reused at once: what was written must not change
    }
    await out.close()
    const text = readFileSync(file)
    expect(text.length).toBe(total)
    expect(createHash('sha256').update(text).digest('hex')).toBe(expected.digest('hex'))
  })

  it('turns a failing open into E_IO naming the file', async () => {
    const dir = tmpDir('hp-text-file-')
    const file = path.join(dir, 'text.txt')
    mkdirSync(file) // opening it for writing fails (EISDIR)
    const err = await rejected(createTextFile(file))
    expect(err.code).toBe('E_IO')
    expect(err.message).toMatch(/cannot open .*text\.txt: .*EISDIR/)
    expect(err.cause).toBeInstanceOf(Error)
  })
})
