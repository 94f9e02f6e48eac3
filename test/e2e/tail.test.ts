// `pipeline tail` against a run in progress in another process, a finished run and a killed run.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { linesOf, runCli, startCli, waitUntil } from '../helpers/child.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-tail-')
const dataset = path.join(work, 'tail.yaml')

describe('pipeline tail', () => {
  beforeAll(() => {
    const s = path.join(ROOT, 'samples/mitdb')
    writeFileSync(dataset, `name: tail-test\nconcurrency: { records: 1 }\nrecords:\n  - path: ${s}/100\n  - path: ${s}/101\n  - path: ${s}/208\nstages: [read, segment]\n`)
  })

  it('follows a run from another process and exits when it ends', async () => {
    const dir = path.join(work, 'live')
    const tail = startCli(['tail', dir, '--interval', '50'])
    const run = startCli(['run', dataset, '--out', dir])
    const [t, r] = await Promise.all([tail.exit, run.exit])
    expect(r.code, r.stderr).toBe(0)
    expect(t.code, t.stderr).toBe(0)
    // It saw the run while it was going, then printed the final state.
    expect(t.stdout).toMatch(/run tail-test: running \| records [0-2]\/3 done/)
    const last = t.stdout.slice(t.stdout.lastIndexOf('run tail-test:'))
    expect(last).toMatch(/^run tail-test: finished \| records 3\/3 done/)
    expect(last).toMatch(/signal 1\.50 of 1\.50 h \| \d+x real time/)
    expect(last).toContain('items annotation 7188, recording 3, window 540')
  })

  it('prints the final state of a finished run at once', async () => {
    const dir = path.join(work, 'done')
    expect((await runCli(['run', dataset, '--out', dir])).code).toBe(0)
    const t = await runCli(['tail', dir])
    expect(t.code).toBe(0)
    expect(t.stdout.trim().split('\n')[0]).toBe('run tail-test: finished | records 3/3 done')
  })

  it('reports a run that was killed, and the warnings and errors of a run', async () => {
    const dir = path.join(work, 'killed')
    const run = startCli(['run', dataset, '--out', dir])
    await waitUntil(() => linesOf(path.join(dir, 'checkpoints.ndjson')).length >= 1, 'first record done')
    run.child.kill('SIGKILL')
    await run.exit
    const t = await runCli(['tail', dir])
    expect(t.code).toBe(1)
    expect(t.stdout).toMatch(/interrupted \| records 1\/3 done/)
    expect(t.stdout).toContain('stopped without finishing')

    const bad = path.join(work, 'bad.yaml')
    writeFileSync(bad, `name: bad\nrecords:\n  - path: ${ROOT}/samples/mitdb/100\n  - path: ${work}/missing.edf\nstages: [read]\n`)
    const failedRun = await runCli(['run', bad, '--out', path.join(work, 'bad')])
    expect(failedRun.code).toBe(27)
    const t2 = await runCli(['tail', path.join(work, 'bad')])
    expect(t2.code).toBe(1)
    expect(t2.stdout).toContain('records 1/2 done, 1 failed')
    expect(t2.stdout).toMatch(/errors \(1\):\n  missing: E_FILE_MISSING: .*missing\.edf/)
  })

  it('fails with a clear message when no run appears', async () => {
    const t = await runCli(['tail', path.join(work, 'nothing'), '--wait', '0.2', '--interval', '50'])
    expect(t.code).toBe(10)
    expect(t.stderr).toMatch(/^error: E_FILE_MISSING: .*no run found/)
  })
})
