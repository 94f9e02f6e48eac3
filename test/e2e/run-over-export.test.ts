// An evaluation run over an exported QA folder from the command line (design.md "Phases are runs
// over runs"): `input: {run: <folder pipeline qa export wrote>, kinds: [qa]}` with one tiny plugin
// stage that reads every input file of each qa item from the new run's directory. It writes the
// export's items as the benchmark run wrote them (but for `from` and the input paths), records the
// folder as its input, resumes with nothing to do, and refuses to resume over a folder exported
// again (a changed input) unless --restart is given, and kinds an export does not hold.
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { QaItem } from '../../src/core/items.ts'
import { startChatServer } from '../helpers/chat-server.ts'
import { runCli } from '../helpers/child.ts'
import { smallBenchYaml } from '../helpers/small-bench.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-over-export-')
const at = (...p: string[]) => path.join(work, ...p)
const lines = <T>(file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as T)
const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex')

// The plugin: every item passes; for a qa item, an `input-read` item with the sha256 of each of
// its input files (the text's byte range) read by its path from the run directory.
const PLUGIN = `import { open, readFile } from 'node:fs/promises'
import { createHash } from 'node:crypto'
import path from 'node:path'
const sha = (b) => createHash('sha256').update(b).digest('hex')
export default {
  name: 'read-inputs',
  version: 1,
  async *transform(source, ctx) {
    for await (const item of source) {
      yield item
      if (item.kind !== 'qa') continue
      const t = item.inputs.text
      const fh = await open(path.join(ctx.runDir, t.path))
      const buf = Buffer.alloc(t.bytes)
      try { await fh.read(buf, 0, t.bytes, t.offset) } finally { await fh.close() }
      const files = [...item.inputs.images.paths, item.inputs.video.path]
      const shas = []
      for (const p of files) shas.push(sha(await readFile(path.join(ctx.runDir, p))))
      yield { kind: 'input-read', recordId: item.recordId, qaId: item.id, startSample: item.startSample, text: sha(buf), files: shas }
    }
  },
}
`

const BENCH = smallBenchYaml()

const evalYaml = (kinds: string) => ['name: eval', 'input:', `  run: ${at('export')}`, `  kinds: ${kinds}`, `stages: [${at('read-inputs.mjs')}]`, ''].join('\n')

async function cli(...args: string[]): Promise<string> {
  const r = await runCli(args)
  expect(r.code, r.stderr).toBe(0)
  return r.stderr
}

describe('a run over an exported QA folder (CLI in a child process)', () => {
  const bench = at('bench')
  const evalRun = at('runs', 'eval')
  let items: QaItem[]

  beforeAll(async () => {
    writeFileSync(at('bench.yaml'), BENCH)
    writeFileSync(at('read-inputs.mjs'), PLUGIN)
    writeFileSync(at('eval.yaml'), evalYaml('[qa]'))
    await cli('run', at('bench.yaml'), '--out', bench)
    await cli('qa', 'export', bench, at('export'))
    items = lines<QaItem>(path.join(bench, 'qa.ndjson'))
    await cli('run', at('eval.yaml'), '--out', evalRun)
  }, 60_000)

  it('writes the export\'s items as the benchmark run wrote them, their input paths relative to the new run', () => {
    const got = lines<QaItem>(path.join(evalRun, 'qa.ndjson'))
    expect(got.length).toBe(items.length)
    const byId = new Map(items.map((q) => [q.id, q]))
    expect(new Set(got.map((q) => q.id))).toEqual(new Set(byId.keys()))
    const noPaths = (q: QaItem) => ({
      ...q,
      from: [],
      inputs: { text: { ...q.inputs.text!, path: '', offset: 0 }, images: { ...q.inputs.images!, paths: [] }, video: { ...q.inputs.video!, path: '' } },
    })
    for (const q of got) {
      expect(noPaths(q), q.id).toEqual(noPaths(byId.get(q.id)!))
      expect(q.inputs.video!.path).toMatch(/^\.\.\/\.\.\/export\/inputs\/r001\/clips\//)
    }
  })

  it('reads the same bytes through those paths from the new run\'s directory as the benchmark run\'s inputs', () => {
    const reads = lines<{ qaId: string; text: string; files: string[] }>(path.join(evalRun, 'input-read.ndjson'))
    expect(reads.length).toBe(items.length)
    const byId = new Map(items.map((q) => [q.id, q]))
    for (const r of reads) {
      const q = byId.get(r.qaId)!
      const t = q.inputs.text!
      expect(r.text).toBe(sha(readFileSync(path.join(bench, t.path)).subarray(t.offset, t.offset + t.bytes)))
      expect(r.files).toEqual([...q.inputs.images!.paths, q.inputs.video!.path].map((p) => sha(readFileSync(path.join(bench, p)))))
    }
  })

  it('records the folder as its input, and resumes with nothing to do', async () => {
    const manifest = JSON.parse(readFileSync(path.join(evalRun, 'manifest.json'), 'utf8'))
    const benchHash = JSON.parse(readFileSync(path.join(bench, 'manifest.json'), 'utf8')).configHash
    expect(manifest.input).toEqual({ run: at('export'), configHash: benchHash, kinds: ['qa'] })
    expect(manifest.stages.map((s: { name: string }) => s.name)).toEqual(['read-run', 'read-inputs'])
    expect(manifest.inputs[0].files[0].path).toBe(`${at('export', 'inputs', 'manifest.json')}#100`)
    expect(await cli('run', at('eval.yaml'), '--out', evalRun)).toContain('run eval finished: its 1 record was already done')
  })

  it('refuses to resume over the folder exported again unless --restart is given', async () => {
    await cli('qa', 'export', bench, at('export'))
    const refused = await runCli(['run', at('eval.yaml'), '--out', evalRun])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/E_CONFIG_CHANGED: .*input files changed since this run started \(.*export\/inputs\/manifest\.json#100\); pass --restart/)
    await cli('run', at('eval.yaml'), '--out', evalRun, '--restart')
    expect(lines(path.join(evalRun, 'qa.ndjson')).length).toBe(items.length)
  })

  it('refuses kinds an exported folder does not hold before reading a record', async () => {
    writeFileSync(at('eval-render.yaml'), evalYaml('[qa, render]'))
    const r = await runCli(['run', at('eval-render.yaml'), '--out', at('runs', 'eval-render')])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain(`input.kinds names render, but ${at('export')} holds qa items only (an exported QA folder); name kinds: [qa], or the run it was exported from`)
  })

  it('infer over the export: a loopback model is shown each item\'s exported strips and clip frames, one prediction each', async () => {
    const server = await startChatServer()
    try {
      const model = (name: string, extra: string) => `      - {name: ${name}, kind: openai-compatible, baseURL: "${server.url}", model: test-model, ${extra}}`
      writeFileSync(at('eval-infer.yaml'), ['name: eval-infer', `input: {run: ${at('export')}, kinds: [qa]}`, 'stages:', '  - use: infer', '    options:', '      models:',
        model('strips', 'modality: images'), model('frames', 'modality: video, video: {send: frames, frames: 4}'), ''].join('\n'))
      const out = at('runs', 'eval-infer')
      await cli('run', at('eval-infer.yaml'), '--out', out)
      const predictions = lines<{ id: string; error?: unknown }>(path.join(out, 'prediction.ndjson'))
      expect(predictions.map((p) => p.id).sort()).toEqual(items.flatMap((q) => [`${q.id}@strips`, `${q.id}@frames`]).sort())
      expect(predictions.filter((p) => p.error)).toEqual([])
      // The strips sent are the exported files' bytes; the frames are 4 PNGs from each clip.
      const png = (url: string) => Buffer.from(url.slice('data:image/png;base64,'.length), 'base64')
      const exported = new Set(items.flatMap((q) => q.inputs.images!.paths).map((p) => sha(readFileSync(path.join(bench, p)))))
      for (const r of server.requests) {
        const urls = (r.body.messages[1].content as { type: string; image_url?: { url: string } }[]).filter((c) => c.type === 'image_url').map((c) => c.image_url!.url)
        if (JSON.stringify(r.body).includes('frames sampled evenly')) {
          expect(urls.length).toBe(4)
          for (const u of urls) expect(png(u).subarray(1, 4).toString()).toBe('PNG')
        } else for (const u of urls) expect(exported.has(sha(png(u)))).toBe(true)
      }
      expect(server.requests.length).toBe(2 * items.length)
    } finally {
      await server.close()
    }
  })
})
