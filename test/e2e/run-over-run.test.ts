// A run over an earlier run from the command line (issue 12, "Done when"): strips of excerpts
// around every reference V of the first run's records, from its windows and beats, without
// reading a recording; killed with SIGKILL mid-record and run again, it ends with the outputs
// and media of an uninterrupted run. The dataset shipped in pipelines/ has the same shape.
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseDataset } from '../../src/config/dataset.ts'
import { runCli, startCli, waitUntil } from '../helpers/child.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-over-')
const samples = path.join(ROOT, 'samples/mitdb')
const first = path.join(work, 'first')
const second = path.join(work, 'over.yaml')
const pause = path.join(ROOT, 'test/fixtures/pause-stage.mjs')

function outputs(runDir: string): Record<string, string> {
  const files = readdirSync(runDir).filter((f) => (f.endsWith('.ndjson') && f !== 'progress.ndjson' && f !== 'checkpoints.ndjson') || f === 'order.bin')
  const media = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? media(path.join(dir, e.name)) : [path.join(dir, e.name)]))
  const out: Record<string, string> = Object.fromEntries(files.sort().map((f) => [f, readFileSync(path.join(runDir, f), f === 'order.bin' ? 'base64' : 'utf8')]))
  for (const f of media(path.join(runDir, 'media')).sort()) out[path.relative(runDir, f)] = createHash('sha256').update(readFileSync(f)).digest('hex')
  return out
}

describe('a run over an earlier run (CLI in a child process)', () => {
  let reference: Record<string, string>

  beforeAll(async () => {
    const firstYaml = path.join(work, 'first.yaml')
    writeFileSync(firstYaml, ['name: first', 'records:', `  - path: ${samples}/100`, `  - path: ${samples}/208`, 'stages: [read, annotate, {use: segment, options: {window: 10}}]', ''].join('\n'))
    const r = await runCli(['run', firstYaml, '--out', first])
    expect(r.code, r.stderr).toBe(0)
    writeFileSync(second, [
      'name: over',
      'input:',
      `  run: ${first}`,
      '  kinds: [recording, window, beat]',
      'stages:',
      '  - use: excerpt',
      '    options: {set: pvc, around: {labels: [V], padSec: 5, minGapSec: 0, max: 100000}}',
      '  - use: render-strip',
      '    options: {windows: false, excerpts: pvc}',
      `  - ${pause}`,
      'output: {exclude: [block, window, beat]}',
      '',
    ].join('\n'))
    const ref = path.join(work, 'reference')
    const again = await runCli(['run', second, '--out', ref])
    expect(again.code, again.stderr).toBe(0)
    reference = outputs(ref)
  }, 120_000)

  it('draws every reference V of both records from the first run, and says where its input came from', () => {
    const beats = readFileSync(path.join(first, 'beat.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    const vs = beats.filter((b) => b.source === 'reference' && b.label === 'V')
    expect(vs.length).toBeGreaterThan(900) // record 208's PVCs
    const strips = Object.keys(reference).filter((k) => k.endsWith('.png'))
    expect(strips.sort()).toEqual(vs.map((v) => `media/${v.recordId}/strips/pvc/e${String(v.sample).padStart(9, '0')}-V.png`).sort())
    const manifest = JSON.parse(readFileSync(path.join(work, 'reference', 'manifest.json'), 'utf8'))
    expect(manifest.input).toMatchObject({ run: first, kinds: ['recording', 'window', 'beat'] })
    expect(manifest.stages.map((s: { name: string }) => s.name)).toEqual(['read-run', 'excerpt', 'render-strip', 'test-pause'])
  })

  it('resumes after SIGKILL mid-record with the outputs and media of an uninterrupted run', async () => {
    const dir = path.join(work, 'killed')
    const pauseDir = mkdtempSync(path.join(work, 'pause-'))
    // Paused at record 208's 100th window, then killed.
    const run = startCli(['run', second, '--out', dir], { env: { HP_PAUSE: `208|100|${pauseDir}|window` } })
    let ended = false
    void run.exit.then(() => (ended = true))
    await waitUntil(() => existsSync(path.join(pauseDir, 'paused')), 'the pause at 208', { alive: () => !ended })
    run.child.kill('SIGKILL')
    expect((await run.exit).signal).toBe('SIGKILL')
    const again = await runCli(['run', second, '--out', dir])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toMatch(/1 record was already done before|already done/)
    expect(outputs(dir)).toEqual(reference)
  }, 120_000)

  it('ships a dataset of this shape that reads the demo run (pipelines/demo-pvc-strips.yaml)', () => {
    const file = path.join(ROOT, 'pipelines/demo-pvc-strips.yaml')
    const d = parseDataset(readFileSync(file, 'utf8'), file)
    expect(d.input).toEqual({ run: path.join(ROOT, 'runs/demo'), kinds: ['recording', 'window', 'beat'] })
    expect(d.records).toEqual([])
    expect(d.stages.map((s) => s.use)).toEqual(['read-run', 'excerpt', 'render-strip'])
  })
})
