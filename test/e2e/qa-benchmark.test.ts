// The MIT-BIH benchmark (pipelines/bench-mitdb.yaml) through the qa commands (issue 13):
// determinism of the export, every item's recorded input sizes against its files, validate,
// audit, show, the case splits, and resume after SIGKILL.
// Built once: the shipped dataset rendered (about 45 s), then the same dataset without its
// render stages ("light": the same items but for their inputs, 3 s) twice with the same seeds
// and once with other seeds, and record 100 rendered again on its own. Two full rendered runs
// took 2 minutes on the 2-core machine, so determinism is checked as: the two light runs'
// exports byte-identical file by file; the rendered export's task files identical to the light
// one's and its gold lines identical but for the input fields; and the media of record 100
// rendered a second time identical (sha256) to what the first export's inputs/manifest.json
// lists for it.
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, closeSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { QaItem } from '../../src/core/items.ts'
import { estimateTokens } from '../../src/render/estimate-tokens.ts'
import { runCli, startCli, waitUntil, watchUntil, linesOf, type Exit } from '../helpers/child.ts'
import { probeVideo } from '../helpers/ffprobe.ts'
import { ndjson, runBench, tryBench, writeBenchDataset } from '../helpers/qa-run.ts'
import { runOutputs } from '../helpers/run-outputs.ts'
import { ROOT } from '../helpers/shared.ts'
import { filesUnder, tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-qa-bench-')
const at = (...p: string[]) => path.join(work, ...p)
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
const shas = (dir: string, keep: (f: string) => boolean = () => true) => Object.fromEntries(filesUnder(dir).filter(keep).map((f) => [f, sha(path.join(dir, f))]))
const taskFile = (f: string) => /^(train|valid|test)\/.*\.json$/.test(f)
const goldFile = (f: string) => f.endsWith('.gold.ndjson')

async function exportRun(run: string, out: string): Promise<void> {
  const r = await runCli(['qa', 'export', run, out])
  expect(r.code, r.stderr).toBe(0)
}

interface RenderRow {
  path: string
  format: string
  of?: string
  tile?: number
  tiles?: number
  startSample: number
  endSample: number
}

describe('the bench-mitdb benchmark through the qa commands', () => {
  let shipped: Exit
  let full: string
  let items: QaItem[]
  const exA = at('export-a')

  beforeAll(async () => {
    // The shipped dataset, record paths made absolute. BUG: since commit 0219ffc the qa stage
    // checks budgets at load time with the whole-record set's maxSec (3600 s: 360 frames at a
    // frame every 10 s) instead of the records' 30 min (180 frames), so pipelines/bench-mitdb.yaml
    // no longer loads (budgets.maxFrames 200). Until it does, the test named below fails and the
    // rest run on the same dataset with maxFrames raised.
    let r = await tryBench(at('a'), 'bench')
    shipped = r.exit
    if (shipped.code !== 0) r = await tryBench(at('a'), 'bench', { maxFrames: 400 })
    expect(r.exit.code, r.exit.stderr).toBe(0)
    full = r.run
    items = ndjson<QaItem>(path.join(full, 'qa.ndjson'))
    await exportRun(full, exA)
  }, 150_000)

  it('loads the shipped dataset as it is', () => {
    expect(shipped.code, shipped.stderr).toBe(0)
  })

  describe('determinism', () => {
    const light = async (dir: string, o: Parameters<typeof runBench>[2]) => {
      const run = await runBench(at(dir), 'bench', { render: false, ...o })
      await exportRun(run, at(`export-${dir}`))
      return at(`export-${dir}`)
    }
    let b1: string
    let b2: string
    let c: string
    let one: string

    beforeAll(async () => {
      ;[b1, b2, c] = await Promise.all([light('b1', {}), light('b2', {}), light('c', { qaSeed: 2, excerptSeed: 2 })])
      one = await runBench(at('one'), 'bench', { records: ['100'], maxFrames: 400 })
    }, 120_000)

    it('two runs of the same dataset and seeds export byte-identical folders', () => {
      const x = shas(b1)
      expect(Object.keys(x).length).toBeGreaterThanOrEqual(40)
      expect(shas(b2)).toEqual(x)
    })

    it('the rendered run exports the same task files, and the same gold but for the input fields', () => {
      expect(shas(exA, taskFile)).toEqual(shas(b1, taskFile))
      const noInputs = (dir: string) => Object.fromEntries(filesUnder(dir).filter(goldFile).map((f) => [f, ndjson(path.join(dir, f)).map(({ inputs, inputSizes, ...rest }) => rest)]))
      expect(noInputs(exA)).toEqual(noInputs(b1))
    })

    it('lists every exported input file in inputs/manifest.json with its size and sha256, and renders them again identically', () => {
      const manifest = JSON.parse(readFileSync(path.join(exA, 'inputs/manifest.json'), 'utf8')) as { files: { path: string; bytes: number; sha256: string }[] }
      const listed = Object.fromEntries(manifest.files.map((f) => [f.path, f.sha256]))
      expect(listed).toEqual(shas(exA, (f) => f.startsWith('inputs/') && f !== 'inputs/manifest.json'))
      for (const f of manifest.files) expect(readFileSync(path.join(exA, f.path)).length, f.path).toBe(f.bytes)
      // Record 100 rendered again on its own: its media are the files the first export lists
      // (the text file there is cut per excerpt: compared by the ranges its items name).
      const again = shas(path.join(one, 'media/100'), (f) => !f.endsWith('.txt'))
      // Input folders are numbered in record order, never named after the record: 100 is the first.
      for (const f of manifest.files) expect(f.path).toMatch(/^inputs\/r\d{3}\//)
      const first = Object.fromEntries(Object.entries(listed).filter(([p]) => p.startsWith('inputs/r001/') && !p.startsWith('inputs/r001/text/')).map(([p, h]) => [p.slice('inputs/r001/'.length), h]))
      expect(Object.keys(first).length).toBeGreaterThan(50)
      expect(again).toEqual(first)
      const oneItems = ndjson<QaItem>(path.join(one, 'qa.ndjson'))
      expect(oneItems.map((q) => [q.id, q.inputs])).toEqual(items.filter((q) => q.recordId === '100').map((q) => [q.id, q.inputs]))
      expect(readFileSync(path.join(one, 'media/100/qa-text.txt'))).toEqual(readFileSync(path.join(full, 'media/100/qa-text.txt')))
    })

    it('another qa seed and excerpt seed give different task files', () => {
      const byTask = (dir: string) => {
        const out = new Map<string, string>()
        for (const f of filesUnder(dir).filter((f) => taskFile(f) && !goldFile(f))) {
          const task = path.basename(f, '.json')
          out.set(task, (out.get(task) ?? '') + JSON.stringify(JSON.parse(readFileSync(path.join(dir, f), 'utf8')).map((e: { qa_pair: unknown }) => e.qa_pair)))
        }
        return out
      }
      const x = byTask(b1)
      const y = byTask(c)
      expect(x.size).toBe(12)
      for (const [task, text] of x) expect(y.get(task), task).not.toBe(text)
    })
  })

  it('records input sizes that equal the files: text tokens and range, PNG pixels and tiling, clip frames and duration', async () => {
    const renders = ndjson<RenderRow>(path.join(full, 'render.ndjson'))
    const byPath = new Map(renders.map((r) => [r.path, r]))
    const probes = new Map<string, ReturnType<typeof probeVideo>>()
    const clock = (ms: number) => {
      const s = Math.floor(ms / 1000)
      const p = (n: number, w = 2) => String(n).padStart(w, '0')
      return `${p(Math.floor(s / 3600))}:${p(Math.floor(s / 60) % 60)}:${p(s % 60)}.${p(ms % 1000, 3)}`
    }
    const seen = { text: 0, images: 0, video: 0 }
    for (const q of items) {
      const i = q.inputs
      const is1min = q.excerpt.set === 'qa-1min'
      expect(Boolean(i.text), q.id).toBe(is1min)
      expect(Boolean(i.images), q.id).toBe(is1min)
      expect(Boolean(i.video), q.id).toBe(true)
      if (i.text) {
        seen.text++
        const buf = Buffer.alloc(i.text.bytes)
        const fd = openSync(path.join(full, i.text.path), 'r')
        readSync(fd, buf, 0, i.text.bytes, i.text.offset)
        closeSync(fd)
        expect(estimateTokens(buf), q.id).toBe(i.text.tokens)
        const text = buf.toString('utf8')
        expect(text.startsWith(`${i.text.leads[0]} ${clock(q.excerpt.startMs)} ${i.text.fs}Hz: `), `${q.id}: ${text.slice(0, 40)}`).toBe(true)
        expect(text.endsWith('\n') && text.indexOf('\n') === text.length - 1, q.id).toBe(true) // one lead: exactly one line
        expect(text.slice(text.indexOf(': ') + 2, -1).split(',').length, q.id).toBe(i.text.values)
        expect(i.text.values).toBe(Math.round(((q.excerpt.endSample - q.excerpt.startSample) * i.text.fs) / 360))
      }
      if (i.images) {
        seen.images++
        expect(i.images.count, q.id).toBe(i.images.paths.length)
        let pixels = 0
        let next = q.excerpt.startSample
        i.images.paths.forEach((p, k) => {
          const png = readFileSync(path.join(full, p))
          expect(png.toString('latin1', 12, 16)).toBe('IHDR')
          pixels += png.readUInt32BE(16) * png.readUInt32BE(20)
          const r = byPath.get(p)!
          expect({ of: r.of, tile: r.tile, tiles: r.tiles, start: r.startSample }, `${q.id} ${p}`).toEqual({ of: q.excerpt.id, tile: k, tiles: i.images!.count, start: next })
          next = r.endSample
        })
        expect(next, q.id).toBe(q.excerpt.endSample)
        expect(pixels, q.id).toBe(i.images.pixels)
      }
      if (i.video) {
        seen.video++
        const v = i.video
        if (!probes.has(v.path)) probes.set(v.path, probeVideo(path.join(full, v.path)))
        const probe = await probes.get(v.path)!
        expect(probe.frames, q.id).toBe(v.frames)
        expect(Math.abs(probe.durationSec - v.seconds), `${q.id}: ${probe.durationSec} s`).toBeLessThanOrEqual(1 / v.fps)
        expect(v.frames / v.seconds, q.id).toBeCloseTo(v.fps, 6)
        expect([probe.width, probe.height], q.id).toEqual([v.width, v.height])
        expect(byPath.get(v.path)).toMatchObject({ of: q.excerpt.id, startSample: q.excerpt.startSample, endSample: q.excerpt.endSample })
      }
    }
    expect(seen.video).toBe(items.length)
    // One clip per excerpt an item is about: the one-minute tiles and the whole record.
    expect(probes.size).toBe(new Set(items.filter((q) => q.inputs.video).map((q) => q.excerpt.id)).size)
  }, 120_000)

  describe('qa validate', () => {
    const broken = at('broken')

    it('passes the export', async () => {
      const r = await runCli(['qa', 'validate', exA])
      expect(r.code, r.stdout).toBe(0)
      expect(r.stdout).toBe(`44 files, ${items.length} items: 0 problems\n`)
    })

    it('names file:index of a broken answer letter, a deleted gold line and a changed tag', async () => {
      for (const s of ['train', 'valid', 'test']) if (existsSync(path.join(exA, s))) cpSync(path.join(exA, s), path.join(broken, s), { recursive: true })
      const readJson = (f: string) => JSON.parse(readFileSync(path.join(broken, f), 'utf8')) as { id: string; tag: string; qa_pair: { answer: string } }[]
      const counting = 'train/Closed-QA/closed_event_counting.json'
      const els = readJson(counting)
      const k = 2
      const letter = els[k].qa_pair.answer[0]
      els[k].qa_pair.answer = `${letter === 'A' ? 'B' : 'A'}${els[k].qa_pair.answer.slice(1)}`
      writeFileSync(path.join(broken, counting), JSON.stringify(els, null, 2))
      const gold = 'train/Open-QA/open_diagnosis.gold.ndjson'
      const lines = readFileSync(path.join(broken, gold), 'utf8').split('\n').filter(Boolean)
      const n = lines.length
      lines.splice(4, 1)
      writeFileSync(path.join(broken, gold), lines.join('\n') + '\n')
      const report = 'train/Report-Generation/report_general_summary.json'
      const rep = readJson(report)
      rep[1].tag = 'valid'
      writeFileSync(path.join(broken, report), JSON.stringify(rep, null, 2))
      const r = await runCli(['qa', 'validate', broken])
      expect(r.code).toBe(1)
      const out = r.stdout.split('\n')
      expect(out.some((l) => l.startsWith(`${counting}:${k}: answer text `)), r.stdout).toBe(true)
      expect(out, r.stdout).toContain(`${gold}:${n}: missing line for element ${n - 1} (id ${JSON.parse(lines[n - 2]).caseId}); the gold file has one line per element of the task file, in the same order`)
      expect(out, r.stdout).toContain(`${report}:1: tag "valid" differs from "train" (the split folder's name); set tag to "train" or move the case to that split`)
      expect(out.at(-2)).toMatch(new RegExp(`^44 files, ${items.length} items: \\d+ problems$`))
    })
  })

  it('qa audit flags no blind answerer on the generated set', async () => {
    const r = await runCli(['qa', 'audit', exA, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as { closed: { task: string; items: number; answerers: { answerer: string; leak: boolean; marginPoints: number }[] }[]; flagged: number }
    console.log(`audit items per closed task: ${report.closed.map((c) => `${c.task} ${c.items}`).join(', ')}`)
    const leaks = report.closed.flatMap((c) => c.answerers.filter((a) => a.leak).map((a) => `${c.task}: ${a.answerer} ${a.marginPoints.toFixed(1)}`))
    expect(leaks).toEqual([])
    expect(report.flagged).toBe(0)
    const perTask = new Map<string, number>()
    // The closed items, and the yes/no of the evidence items, which the audit scores like a closed task.
    for (const q of items) if (q.tier === 'Closed-QA' || q.taskType === 'open_evidence_reasoning') perTask.set(q.taskType, (perTask.get(q.taskType) ?? 0) + 1)
    expect(Object.fromEntries(report.closed.map((c) => [c.task, c.items]))).toEqual(Object.fromEntries(perTask))
  })

  it('qa show prints an item of each task type with its gold marker and inputs, --json equals its line, an unknown id fails naming the run', async () => {
    const firsts = [...new Map(items.map((q) => [q.taskType, q] as const)).values()].map((q) => items.find((x) => x.taskType === q.taskType)!)
    expect(firsts.length).toBe(12)
    const lines = new Map(readFileSync(path.join(full, 'qa.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => [JSON.parse(l).id as string, JSON.parse(l)]))
    await Promise.all(firsts.map(async (q) => {
      const [text, json] = await Promise.all([runCli(['qa', 'show', full, q.id]), runCli(['qa', 'show', full, q.id, '--json'])])
      expect(text.code, text.stderr).toBe(0)
      expect(text.stdout).toContain(q.id)
      const stem = q.gold.choices ? q.question.slice(0, q.question.lastIndexOf(' A. ')) : q.question
      expect(text.stdout, q.id).toContain(stem)
      if (q.gold.choices) {
        q.gold.choices.forEach((c, k) => {
          const line = `  ${'ABCD'[k]}. ${c}`
          expect(text.stdout.split('\n'), q.id).toContain(k === q.gold.correct ? `${line}   <- gold` : line)
        })
      }
      expect(text.stdout).not.toContain('MISSING')
      for (const p of [q.inputs.text?.path, ...(q.inputs.images?.paths ?? []), q.inputs.video?.path].filter(Boolean)) expect(text.stdout, q.id).toContain(p!)
      expect(json.code, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toEqual(lines.get(q.id))
    }))
    const unknown = await runCli(['qa', 'show', full, '100:ex:qa-1min:0:closed_presence:9'])
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toContain(`no committed qa item 100:ex:qa-1min:0:closed_presence:9 in ${full}`)
  }, 60_000)

  it('splits by case: one split per record, round(0.2 x 4) = 1 case in test, the rest 9:1 train/valid, tags as the items say', () => {
    const splitOf = new Map<string, Set<string>>()
    for (const q of items) splitOf.set(q.caseId, new Set([...(splitOf.get(q.caseId) ?? []), q.split]))
    expect([...splitOf.values()].map((s) => s.size)).toEqual([1, 1, 1, 1])
    const cases = [...splitOf].map(([c, s]) => [c, [...s][0]] as const)
    const nTest = Math.round(0.2 * cases.length)
    const nValid = Math.round(0.1 * (cases.length - nTest)) // round(0.3) = 0
    expect(cases.filter(([, s]) => s === 'test').length).toBe(nTest)
    expect(cases.filter(([, s]) => s === 'valid').length).toBe(nValid)
    expect(cases.filter(([, s]) => s === 'train').length).toBe(cases.length - nTest - nValid)
    // The export: each element's tag is its item's split (elements and gold lines in the same order).
    const byId = new Map(items.map((q) => [q.id, q]))
    let n = 0
    for (const f of filesUnder(exA).filter((f) => taskFile(f) && !goldFile(f))) {
      const els = JSON.parse(readFileSync(path.join(exA, f), 'utf8')) as { id: string; tag: string }[]
      const gold = ndjson<{ id: string; caseId: string }>(path.join(exA, f.replace(/\.json$/, '.gold.ndjson')))
      els.forEach((e, k) => {
        const q = byId.get(gold[k].id)!
        expect([e.id, e.tag, f.split('/')[0]], f).toEqual([q.caseId, q.split, q.split])
        n++
      })
    }
    expect(n).toBe(items.length)
  })

  it('resumes a light run killed with SIGKILL after its first record is committed, with the qa lines of an uninterrupted run', async () => {
    const pause = path.join(ROOT, 'test/fixtures/pause-stage.mjs')
    mkdirSync(at('resume'), { recursive: true })
    const yaml = writeBenchDataset(at('resume'), 'light', { render: false, append: [pause] })
    const reference = at('resume', 'reference')
    const ok = await runCli(['run', yaml, '--out', reference])
    expect(ok.code, ok.stderr).toBe(0)
    const dir = at('resume', 'killed')
    const pauseDir = mkdtempSync(path.join(work, 'pause-'))
    mkdirSync(dir, { recursive: true })
    // One record at a time: 100 is committed when the run pauses at record 101's 100th beat
    // (blocks do not reach a stage after qa: no stage there reads them).
    const run = startCli(['run', yaml, '--out', dir, '--concurrency', '1'], { env: { HP_PAUSE: `101|100|${pauseDir}|beat` } })
    const checkpoints = path.join(dir, 'checkpoints.ndjson')
    let ended = false
    void run.exit.then(() => (ended = true))
    await watchUntil(pauseDir, () => ended || existsSync(path.join(pauseDir, 'paused')), 'the pause at record 101', { timeoutMs: 30_000 })
    expect(ended, 'the run ended before the pause').toBe(false)
    // Record 100's checkpoint follows its outputs, possibly after 101 has started: wait for it (101 stays paused).
    await waitUntil(() => linesOf(checkpoints).length > 0, 'the checkpoint of record 100', { alive: () => !ended })
    expect(linesOf(checkpoints).map((c) => [c.recordId, c.status])).toEqual([['100', 'done']])
    run.child.kill('SIGKILL')
    expect((await run.exit).signal).toBe('SIGKILL')
    const again = await runCli(['run', yaml, '--out', dir])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('3 records done, 1 already done before, 0 failed')
    expect(readFileSync(path.join(dir, 'qa.ndjson'))).toEqual(readFileSync(path.join(reference, 'qa.ndjson')))
    expect(runOutputs(dir)).toEqual(runOutputs(reference))
    rmSync(pauseDir, { recursive: true, force: true })
  }, 60_000)
})
