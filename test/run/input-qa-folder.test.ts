// An exported QA folder as the input of a run (src/run/input-qa-folder.ts, qa-folder-gold.ts,
// qa-folder-inputs.ts), in process: a real run of record 100 (three 20-second excerpts rendered as
// text, strips and clips, every task: a few dozen items, a few seconds) exported as `pipeline qa export` does,
// copied and linked, then opened with openInputRun: every item as the run wrote it but for `from` and
// its input paths, which name the same bytes from a new run directory elsewhere; and the errors
// of a folder changed by hand, each naming the file (and line) and what to do.
import { createHash } from 'node:crypto'
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Writable } from 'node:stream'
import { beforeAll, describe, expect, it } from 'vitest'
import { qaExportCommand } from '../../src/commands/qa-export.ts'
import { runCommand } from '../../src/commands/run.ts'
import type { AnyItem, Item, QaItem } from '../../src/core/items.ts'
import { openInputRun, type InputRun } from '../../src/run/input-run.ts'
import { smallBenchYaml } from '../helpers/small-bench.ts'
import { pipelineRejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-qa-folder-')
const at = (...p: string[]) => path.join(work, ...p)
const run = at('bench')
const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex')
const qa = new Set(['qa'])


const signal = new AbortController().signal

function sink(): Writable & { text: string } {
  const w = Object.assign(new Writable({ write: (chunk, _, done) => ((w.text += String(chunk)), done()) }), { text: '' })
  return w
}

async function runBench(yaml: string, out: string): Promise<void> {
  const err = sink()
  expect(await runCommand({ dataset: yaml, out, signal, err }), err.text).toBe(0)
}

async function exportRun(runDir: string, outDir: string, inputs: 'copy' | 'link' | 'none'): Promise<void> {
  expect(await qaExportCommand({ runDir, outDir, inputs, out: sink(), signal })).toBe(0)
}

async function collect(input: InputRun, toRunDir: string): Promise<(Item | AnyItem)[]> {
  const out: (Item | AnyItem)[] = []
  for (const r of input.records) for await (const it of input.items(r, qa, toRunDir)) out.push(it)
  return out
}

// A copy of the copied export, changed by `change`, for the error cases.
function variant(name: string, change: (dir: string) => void): string {
  const dir = at('variants', name)
  cpSync(at('export'), dir, { recursive: true })
  change(dir)
  return dir
}

const firstGold = 'train/Closed-QA/closed_presence.gold.ndjson'

describe('an exported QA folder as an input run', () => {
  let items: QaItem[]

  beforeAll(async () => {
    writeFileSync(at('bench.yaml'), smallBenchYaml())
    await runBench(at('bench.yaml'), run)
    await exportRun(run, at('export'), 'copy')
    await exportRun(run, at('linked'), 'link')
    await exportRun(run, at('no-inputs'), 'none')
    items = readFileSync(path.join(run, 'qa.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as QaItem)
  }, 60_000)

  it('has the run\'s record, its seconds from the excerpts, and the run\'s config hash', async () => {
    const input = await openInputRun(at('export'))
    expect(items.length).toBeGreaterThan(20)
    expect(input.records.map((r) => r.spec.id)).toEqual(['100'])
    expect(input.records[0].counts).toEqual({ qa: items.length })
    expect(input.records[0].seconds).toBe(Math.max(...items.map((q) => q.excerpt.endMs)) / 1000)
    expect(input.records[0].spec).toMatchObject({ id: '100', path: at('export'), patient: { id: '100' } })
    expect(input.records[0].probe).toMatchObject({ path: `${at('export', 'inputs', 'manifest.json')}#100` })
    expect(input.manifest.configHash).toBe(JSON.parse(readFileSync(path.join(run, 'manifest.json'), 'utf8')).configHash)
    expect(input.kinds).toEqual(['qa'])
    expect(input.record('100')).toBe(input.records[0])
  })

  describe.each(['export', 'linked'])('exported with --inputs %s', (name) => {
    it('rebuilds every qa item as the run wrote it, by excerpt start then id, with watermarks between excerpts', async () => {
      const input = await openInputRun(at(name))
      const got = await collect(input, at(name))
      const rebuilt = got.filter((i): i is QaItem => i.kind === 'qa')
      expect(rebuilt.map((q) => q.id)).toEqual([...items].sort((a, b) => a.excerpt.startSample - b.excerpt.startSample || (a.id < b.id ? -1 : 1)).map((q) => q.id))
      const marks = got.filter((i) => i.kind === 'watermark').map((w) => (w as { sample: number }).sample)
      // One between each two excerpts that have items.
      expect(marks.length).toBe(new Set(items.map((q) => q.excerpt.startSample)).size - 1)
      expect(marks).toEqual([...marks].sort((a, b) => a - b))
      const byId = new Map(items.map((q) => [q.id, q]))
      const noPaths = (q: QaItem) => ({
        ...q,
        from: [],
        inputs: { text: { ...q.inputs.text!, path: '', offset: 0 }, images: { ...q.inputs.images!, paths: [] }, video: { ...q.inputs.video!, path: '' } },
      })
      for (const q of rebuilt) expect(noPaths(q), q.id).toEqual(noPaths(byId.get(q.id)!))
      expect(rebuilt[0].from).toEqual([])
    })

    it('names the same bytes as the run\'s inputs, by paths relative to a new run directory elsewhere', async () => {
      const newRun = at('elsewhere', 'deep', `eval-${name}`)
      const rebuilt = (await collect(await openInputRun(at(name)), newRun)).filter((i): i is QaItem => i.kind === 'qa')
      const byId = new Map(items.map((q) => [q.id, q]))
      const read = (dir: string, p: string) => readFileSync(path.resolve(dir, p))
      for (const q of rebuilt) {
        const w = byId.get(q.id)!
        const all = [q.inputs.text!.path, ...q.inputs.images!.paths, q.inputs.video!.path]
        for (const p of all) {
          expect(path.isAbsolute(p), p).toBe(false)
          expect(p.startsWith(`../../../${name}/inputs/r001/`), p).toBe(true)
          expect(existsSync(path.resolve(newRun, p)), p).toBe(true)
        }
        const text = read(newRun, q.inputs.text!.path)
        expect(text.length).toBe(q.inputs.text!.bytes)
        expect(text).toEqual(read(run, w.inputs.text!.path).subarray(w.inputs.text!.offset, w.inputs.text!.offset + w.inputs.text!.bytes))
        expect(q.inputs.images!.paths.map((p) => sha(read(newRun, p)))).toEqual(w.inputs.images!.paths.map((p) => sha(read(run, p))))
        expect(sha(read(newRun, q.inputs.video!.path))).toBe(sha(read(run, w.inputs.video!.path)))
      }
    })
  })

  it('refuses item kinds an export does not hold', async () => {
    const input = await openInputRun(at('export'))
    const err = await pipelineRejection(input.items(input.records[0], new Set(['qa', 'render']), at('x')).next())
    expect(err.code).toBe('E_INPUT_RUN')
    expect(err.message).toContain('holds qa items only, not render; name kinds: [qa]')
  })

  it.each([
    ['an extra gold line', (d: string) => writeFileSync(path.join(d, firstGold), readFileSync(path.join(d, firstGold), 'utf8') + readFileSync(path.join(d, firstGold), 'utf8').split('\n')[0] + '\n'), /closed_presence\.gold\.ndjson:\d+: line \d+ has no element: the task file has \d+ elements, the gold file \d+ lines; the two were edited apart .*export the run again with pipeline qa export/],
    ['a missing gold line', (d: string) => writeFileSync(path.join(d, firstGold), readFileSync(path.join(d, firstGold), 'utf8').split('\n').slice(1).join('\n')), /closed_presence\.gold\.ndjson:\d+: element \d+ of train\/Closed-QA\/closed_presence\.json has no gold line/],
    ['a gold line of another case', (d: string) => writeFileSync(path.join(d, firstGold), readFileSync(path.join(d, firstGold), 'utf8').replace('"caseId":"100"', '"caseId":"101"')), /closed_presence\.gold\.ndjson:1: the gold line \(case "101", split "train", task "closed_presence"\) is not element 0's .* \(case "100"/],
    ['a gold line that is not JSON', (d: string) => writeFileSync(path.join(d, firstGold), '{oops\n' + readFileSync(path.join(d, firstGold), 'utf8').split('\n').slice(1).join('\n')), /closed_presence\.gold\.ndjson:1 is not JSON/],
    ['a task file without its gold file', (d: string) => rmSync(path.join(d, firstGold)), /closed_presence\.json has no gold file closed_presence\.gold\.ndjson beside it/],
  ])('refuses %s when opened, naming the file and line and the fix', async (_, change, message) => {
    const err = await pipelineRejection(openInputRun(variant(_.replaceAll(' ', '-'), change)))
    expect(err.code).toBe('E_INPUT_RUN')
    expect(err.message).toMatch(message)
  })

  it('refuses a missing input file when its record streams, naming it and the gold line', async () => {
    const dir = variant('missing-strip', (d) => rmSync(path.join(d, 'inputs/r001/strips'), { recursive: true }))
    const input = await openInputRun(dir)
    const err = await pipelineRejection(collect(input, dir))
    expect(err.message).toMatch(/inputs\/r001\/strips\/qa-1min\/x\d+\/t000\.png \(named by .*\.gold\.ndjson:\d+\) does not exist: the exported folder .* is incomplete; export the run again/)
  })

  it('refuses a link whose run has gone, saying to export with --inputs copy', async () => {
    const moved = at('gone', 'bench')
    cpSync(run, moved, { recursive: true })
    await exportRun(moved, at('gone', 'linked'), 'link')
    rmSync(moved, { recursive: true })
    const input = await openInputRun(at('gone', 'linked'))
    const err = await pipelineRejection(collect(input, at('gone', 'linked')))
    expect(err.code).toBe('E_INPUT_RUN')
    expect(err.message).toMatch(/strips\/qa-1min\/x\d+\/t000\.png \(named by .*\) is a link to .*gone\/bench\/media\/100\/strips\/.*, which does not exist: .* --inputs link moved or was removed; put it back, or export it again with --inputs copy/)
  })

  it('refuses a folder exported without its inputs, and a folder that is neither', async () => {
    const none = await pipelineRejection(openInputRun(at('no-inputs')))
    expect(none.message).toBe(`${at('no-inputs')} is an exported QA folder without its input files (no inputs/manifest.json: exported with --inputs none); export the run again with --inputs copy (or link) to evaluate models on it`)
    const neither = await pipelineRejection(openInputRun(path.join(run, 'media')))
    expect(neither.message).toContain('is not a run directory (no manifest.json) nor a folder \'pipeline qa export\' wrote')
  })
})
