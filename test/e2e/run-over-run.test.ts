// A run over an earlier run from the command line (issue 12, "Done when"): strips of excerpts
// around the reference Vs of the first run's records (at least 20 s apart, so record 208's ~990
// Vs make ~80 strips), from its windows and beats, without reading a recording; killed with
// SIGKILL mid-record and run again, it ends with the outputs and media of an uninterrupted run.
// The dataset shipped in pipelines/ has the same shape (every V: minGapSec 0).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseDataset } from '../../src/config/dataset.ts'
import { runCli, startCli, waitUntil } from '../helpers/child.ts'
import { runOutputs } from '../helpers/run-outputs.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-over-')
const samples = path.join(ROOT, 'samples/mitdb')
const first = path.join(work, 'first')
const second = path.join(work, 'over.yaml')
const pause = path.join(ROOT, 'test/fixtures/pause-stage.mjs')

const MIN_GAP_SEC = 20
const outputs = (runDir: string) => runOutputs(runDir, { media: true })

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
      `    options: {set: pvc, around: {labels: [V], padSec: 5, minGapSec: ${MIN_GAP_SEC}, max: 100000}}`,
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

  it('draws the reference Vs of both records from the first run, minGapSec apart, and says where its input came from', () => {
    const beats = readFileSync(path.join(first, 'beat.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { recordId: string; sample: number; source: string; label: string })
    const vs = beats.filter((b) => b.source === 'reference' && b.label === 'V')
    expect(vs.length).toBeGreaterThan(900) // record 208's PVCs
    // Each record's Vs thinned as the excerpt stage does: the first, then each at least minGapSec after the last one kept.
    const kept: typeof vs = []
    const lastKept = new Map<string, number>()
    for (const v of vs) {
      const last = lastKept.get(v.recordId)
      if (last === undefined || v.sample - last >= MIN_GAP_SEC * 360) {
        kept.push(v)
        lastKept.set(v.recordId, v.sample)
      }
    }
    expect(kept.length).toBeGreaterThan(50)
    const strips = Object.keys(reference).filter((k) => k.endsWith('.png'))
    expect(strips.sort()).toEqual(kept.map((v) => `media/${v.recordId}/strips/pvc/e${String(v.sample).padStart(9, '0')}-V.png`).sort())
    const manifest = JSON.parse(readFileSync(path.join(work, 'reference', 'manifest.json'), 'utf8'))
    expect(manifest.input).toMatchObject({ run: first, kinds: ['recording', 'window', 'beat'] })
    expect(manifest.stages.map((s: { name: string }) => s.name)).toEqual(['read-run', 'excerpt', 'render-strip', 'test-pause'])
  })

  it('resumes after SIGKILL mid-record with the outputs and media of an uninterrupted run', async () => {
    const dir = path.join(work, 'killed')
    const pauseDir = mkdtempSync(path.join(work, 'pause-'))
    // One record at a time: 100 is done when the run pauses at record 208's 100th window and is killed.
    const run = startCli(['run', second, '--out', dir, '--concurrency', '1'], { env: { HP_PAUSE: `208|100|${pauseDir}|window` } })
    let ended = false
    void run.exit.then(() => (ended = true))
    await waitUntil(() => existsSync(path.join(pauseDir, 'paused')), 'the pause at 208', { alive: () => !ended })
    run.child.kill('SIGKILL')
    expect((await run.exit).signal).toBe('SIGKILL')
    const again = await runCli(['run', second, '--out', dir])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('run over finished: 1 record done, 1 already done before, 0 failed; ')
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
