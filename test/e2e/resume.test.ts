// Issue 2, point 4: interrupt a run at any moment (SIGKILL, SIGTERM, SIGINT) and run the same
// command again: the outputs hold exactly the lines of an uninterrupted run.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { linesOf, runCli, startCli, waitUntil } from '../helpers/child.ts'
import { runOutputs as outputs } from '../helpers/run-outputs.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-resume-')
const dataset = path.join(work, 'samples.yaml')
const samples = path.join(ROOT, 'samples/mitdb')

const progress = (dir: string) => linesOf(path.join(dir, 'progress.ndjson'))
const checkpoints = (dir: string) => linesOf(path.join(dir, 'checkpoints.ndjson'))

/**
 * A moment to interrupt at: the run pauses (test/fixtures/pause-stage.mjs) after block `block`
 * of record `record`, and `ready` (when given) must also hold. The pause guarantees that the
 * process is still running, mid-record, when the signal is sent, whatever the machine's speed.
 */
interface Moment { name: string; record: string; block: number; ready?: (runDir: string) => boolean }
const MOMENTS: Moment[] = [
  { name: 'at the first block of the first record', record: '100', block: 1 },
  { name: 'in the middle of a record', record: '101', block: 100 },
  { name: 'right after the first checkpoint', record: '208', block: 170, ready: (d) => checkpoints(d).length >= 1 },
  { name: 'after two records', record: '208', block: 170, ready: (d) => checkpoints(d).length >= 2 },
]

async function interrupt(runDir: string, moment: Moment, signal: NodeJS.Signals) {
  const pauseDir = mkdtempSync(path.join(work, 'pause-'))
  const run = startCli(['run', dataset, '--out', runDir], { env: { HP_PAUSE: `${moment.record}|${moment.block}|${pauseDir}` } })
  let ended = false
  void run.exit.then(() => (ended = true))
  const paused = path.join(pauseDir, 'paused')
  // With `ready`, the kill comes when it holds (the pause only keeps the run from ending first).
  await waitUntil(() => (moment.ready ? moment.ready(runDir) : existsSync(paused)), moment.name, { alive: () => !ended })
  run.child.kill(signal)
  return run.exit
}

describe('resume after interruption (CLI in a child process, bundled samples)', () => {
  let reference: Record<string, string>

  beforeAll(async () => {
    writeFileSync(dataset, [
      'name: resume-test',
      'concurrency: { records: 2 }',
      'records:',
      `  - path: ${samples}/100`,
      `  - path: ${samples}/101.hea`,
      `  - path: ${samples}/208`,
      'stages:',
      '  - read',
      '  - use: segment',
      '    options: { window: 10, step: 5 }',
      `  - ${path.join(ROOT, 'test/fixtures/pause-stage.mjs')}`,
      '',
    ].join('\n'))
    const dir = path.join(work, 'reference')
    const r = await runCli(['run', dataset, '--out', dir])
    expect(r.code, r.stderr).toBe(0)
    reference = outputs(dir)
    expect(Object.keys(reference)).toEqual(['annotation.ndjson', 'order.bin', 'recording.ndjson', 'window.ndjson'])
    expect(reference['window.ndjson'].split('\n')).toHaveLength(3 * 360 + 1) // 360 overlapping windows per record
  })

  it.each(MOMENTS.map((m, i) => [m.name, i] as const))('SIGKILL %s, then the same command finishes with identical outputs', async (_name, i) => {
    const dir = path.join(work, `kill-${i}`)
    const killed = await interrupt(dir, MOMENTS[i], 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    const again = await runCli(['run', dataset, '--out', dir])
    expect(again.code, again.stderr).toBe(0)
    expect(outputs(dir)).toEqual(reference)
    expect(existsSync(path.join(dir, '.parts'))).toBe(false)
    const done = checkpoints(dir).filter((c) => c.status === 'done').map((c) => c.recordId)
    expect(done).toEqual(['100', '101', '208'])
  })

  it('survives being killed several times in a row', async () => {
    const dir = path.join(work, 'kill-many')
    const afterANewCheckpoint = (): Moment => {
      const before = checkpoints(dir).length
      return { name: 'after a checkpoint of this session', record: '208', block: 170, ready: (d) => checkpoints(d).length > before }
    }
    for (const next of [() => MOMENTS[1], afterANewCheckpoint, () => ({ name: 'early in the last record', record: '208', block: 10 })]) {
      const m = next()
      const sessions = progress(dir).filter((e) => e.t === 'run-start').length
      const killed = await interrupt(dir, m, 'SIGKILL')
      expect(killed.signal).toBe('SIGKILL')
      // Each kill landed in a session of its own, after that session had started.
      expect(progress(dir).filter((e) => e.t === 'run-start').length).toBe(sessions + 1)
    }
    const again = await runCli(['run', dataset, '--out', dir])
    expect(again.code, again.stderr).toBe(0)
    expect(outputs(dir)).toEqual(reference)
  })

  it.each(['SIGTERM', 'SIGINT'] as const)('%s stops the run with a resume hint and exit code 130', async (signal) => {
    const dir = path.join(work, `term-${signal}`)
    const stopped = await interrupt(dir, MOMENTS[1], signal)
    expect(stopped.code).toBe(130)
    expect(stopped.stderr).toContain('run the same command again to resume')
    expect(progress(dir).at(-1)).toMatchObject({ t: 'run-end', status: 'interrupted' })
    const again = await runCli(['run', dataset, '--out', dir])
    expect(again.code, again.stderr).toBe(0)
    expect(outputs(dir)).toEqual(reference)
  })

  it('refuses to resume with a changed dataset file unless --restart is given', async () => {
    const dir = path.join(work, 'changed')
    expect((await runCli(['run', dataset, '--out', dir])).code).toBe(0)
    const changed = path.join(work, 'changed.yaml')
    writeFileSync(changed, readFileSync(dataset, 'utf8').replace('step: 5', 'step: 10'))
    const refused = await runCli(['run', changed, '--out', dir])
    expect(refused.code).toBe(26)
    expect(refused.stderr).toMatch(/^error: E_CONFIG_CHANGED: .*different dataset config.*--restart/)
    expect(outputs(dir)).toEqual(reference)
    const restarted = await runCli(['run', changed, '--out', dir, '--restart'])
    expect(restarted.code, restarted.stderr).toBe(0)
    expect(outputs(dir)['window.ndjson'].split('\n')).toHaveLength(3 * 180 + 1)
  })
})
