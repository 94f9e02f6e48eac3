// Issue 2, point 4: interrupt a run at any moment (SIGKILL, SIGTERM, SIGINT) and run the same
// command again: the outputs hold exactly the lines of an uninterrupted run.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { linesOf, runCli, startCli, waitUntil } from '../helpers/child.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-resume-')
const dataset = path.join(work, 'samples.yaml')
const samples = path.join(ROOT, 'samples/mitdb')

/** Output files of a run (progress, checkpoints and manifest hold times and are compared apart). */
function outputs(runDir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(runDir).filter((f) => f.endsWith('.ndjson') && f !== 'progress.ndjson' && f !== 'checkpoints.ndjson').sort().map((f) => [f, readFileSync(path.join(runDir, f), 'utf8')]))
}

type Moment = { name: string; ready: (runDir: string) => boolean }
const progress = (dir: string) => linesOf(path.join(dir, 'progress.ndjson'))
const checkpoints = (dir: string) => linesOf(path.join(dir, 'checkpoints.ndjson'))
const MOMENTS: Moment[] = [
  { name: 'as the first record starts', ready: (d) => progress(d).some((e) => e.t === 'record-start') },
  { name: 'in the middle of a record', ready: (d) => progress(d).some((e) => e.t === 'record-progress' && (e.seconds as number) > 600) },
  { name: 'right after the first checkpoint', ready: (d) => checkpoints(d).length >= 1 },
  { name: 'after two records', ready: (d) => checkpoints(d).length >= 2 },
]

async function interrupt(runDir: string, moment: Moment, signal: NodeJS.Signals) {
  const run = startCli(['run', dataset, '--out', runDir])
  let ended = false
  void run.exit.then(() => (ended = true))
  await waitUntil(() => moment.ready(runDir), moment.name, { alive: () => !ended })
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
      '',
    ].join('\n'))
    const dir = path.join(work, 'reference')
    const r = await runCli(['run', dataset, '--out', dir])
    expect(r.code, r.stderr).toBe(0)
    reference = outputs(dir)
    expect(Object.keys(reference)).toEqual(['annotation.ndjson', 'recording.ndjson', 'window.ndjson'])
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
    for (const m of [MOMENTS[1], MOMENTS[2], MOMENTS[0]]) {
      // A moment already passed in an earlier session holds at once: then the kill comes at the start.
      await interrupt(dir, { name: m.name, ready: (d) => m.ready(d) && progress(d).filter((e) => e.t === 'run-start').length > 0 }, 'SIGKILL')
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
