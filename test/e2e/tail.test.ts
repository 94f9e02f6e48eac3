// `pipeline tail` against a run in progress in another process, a finished run, a killed run and
// a run resumed in a second session.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
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
    writeFileSync(dataset, `name: tail-test\nconcurrency: { records: 1 }\nrecords:\n  - path: ${s}/100\n  - path: ${s}/101\n  - path: ${s}/208\nstages: [read, segment, ${path.join(ROOT, 'test/fixtures/pause-stage.mjs')}]\n`)
  })

  it('follows a run from another process and exits when it ends', async () => {
    const dir = path.join(work, 'live')
    const pauseDir = mkdtempSync(path.join(work, 'pause-'))
    const tail = startCli(['tail', dir, '--interval', '50'])
    // The run pauses in its second record until the tail has shown it running.
    const run = startCli(['run', dataset, '--out', dir], { env: { HP_PAUSE: `101|20|${pauseDir}` } })
    let tailOut = ''
    tail.child.stdout!.on('data', (d: string) => (tailOut += d))
    await waitUntil(() => existsSync(path.join(pauseDir, 'paused')) && /run tail-test: running \| records 1\/3 done/.test(tailOut), 'tail showing the paused run')
    writeFileSync(path.join(pauseDir, 'release'), '')
    const [t, r] = await Promise.all([tail.exit, run.exit])
    expect(r.code, r.stderr).toBe(0)
    expect(t.code, t.stderr).toBe(0)
    expect(t.stdout).toMatch(/signal 0\.\d\d of 1\.50 h \| \d+x real time \| elapsed [\d:]+ \| ETA [\d:]+/)
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
    // Paused in the last record, so it is surely still running when killed.
    const run = startCli(['run', dataset, '--out', dir], { env: { HP_PAUSE: `208|10|${mkdtempSync(path.join(work, 'pause-'))}` } })
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
    // The event's message is err.toLine(), which starts with the code: it is printed once.
    const errorLine = t2.stdout.split('\n').find((l) => l.startsWith('  missing: '))!
    expect(errorLine.match(/E_FILE_MISSING/g)).toHaveLength(1)
    expect(errorLine).not.toContain('record missing:')
  })

  it('keeps the warnings and errors of earlier sessions of a resumed run, without counting a record redone twice', async () => {
    // Session 1: "cut" (a truncated .dat) is done with a warning, "late" fails: its files are not there yet.
    const src = path.join(ROOT, 'samples/mitdb')
    const cut = path.join(work, 'cut')
    mkdirSync(cut)
    copyFileSync(path.join(src, '100.hea'), path.join(cut, '100.hea'))
    writeFileSync(path.join(cut, '100.dat'), readFileSync(path.join(src, '100.dat')).subarray(0, 300_000))
    const late = path.join(work, 'late')
    const file = path.join(work, 'sessions.yaml')
    writeFileSync(file, `name: sessions\nrecords:\n  - {id: cut, path: ${cut}/100}\n  - {id: late, path: ${late}/100}\nstages: [read]\n`)
    const dir = path.join(work, 'sessions')
    expect((await runCli(['run', file, '--out', dir])).code).toBe(27)
    const first = await runCli(['tail', dir])
    expect(first.stdout).toContain('records 1/2 done, 1 failed')
    expect(first.stdout).toMatch(/warnings \(1\):\n  cut: E_TRUNCATED: /)
    expect(first.stdout).toMatch(/errors \(1\):\n  late: E_FILE_MISSING: /)
    // Session 2 resumes: "cut" is kept, "late" is redone and now succeeds.
    mkdirSync(late)
    for (const ext of ['hea', 'dat']) copyFileSync(path.join(src, `100.${ext}`), path.join(late, `100.${ext}`))
    const resumed = await runCli(['run', file, '--out', dir])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain('run sessions finished: 1 record done, 1 already done before, 0 failed')
    expect(resumed.stderr).toMatch(/^done late: 0\.50 h of signal; items: recording 1$/m)
    const again = await runCli(['run', file, '--out', dir])
    expect(again.stderr).toContain('run sessions finished: all 2 records were already done (--restart redoes them)')
    const t = await runCli(['tail', dir])
    expect(t.code).toBe(0)
    const lines = t.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('run sessions: finished | records 2/2 done')
    expect(lines.slice(3)).toEqual(['warnings (1, 1 from an earlier session):', expect.stringMatching(/^  \(earlier session\) cut: E_TRUNCATED: .*100\.dat: \.dat is truncated/)])
  })

  it('skips a torn progress line with a warning, and refuses a folder that is not a run at once', async () => {
    const dir = path.join(work, 'torn')
    expect((await runCli(['run', dataset, '--out', dir])).code).toBe(0)
    // A torn last line (a crash mid-write) is an unfinished line: tail ignores it, the next run cuts it off.
    appendFileSync(path.join(dir, 'progress.ndjson'), '{"t":"record-progress","at":"2026-')
    const t = await runCli(['tail', dir])
    expect(t.code).toBe(0)
    expect(t.stdout).not.toContain('skipped a line')
    expect((await runCli(['run', dataset, '--out', dir])).code).toBe(0)
    expect(readFileSync(path.join(dir, 'progress.ndjson'), 'utf8')).not.toContain('"at":"2026-{')
    // A damaged line in the middle is skipped with a warning naming file:line.
    const lines = readFileSync(path.join(dir, 'progress.ndjson'), 'utf8').trimEnd().split('\n')
    writeFileSync(path.join(dir, 'progress.ndjson'), [...lines.slice(0, 2), '{"t":"garbage', ...lines.slice(2), ''].join('\n'))
    const t2 = await runCli(['tail', dir])
    expect(t2.code).toBe(0)
    expect(t2.stdout).toMatch(/warning: .*progress\.ndjson:\d+: skipped a line that is not valid JSON/)
    expect(t2.stdout).toContain('run tail-test: finished | records 3/3 done')

    const started = Date.now()
    const notRun = await runCli(['tail', path.join(ROOT, 'samples')])
    expect(notRun.code).toBe(10)
    expect(notRun.stderr).toMatch(/not a run directory/)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('fails with a clear message when no run appears', async () => {
    const t = await runCli(['tail', path.join(work, 'nothing'), '--wait', '0.2', '--interval', '50'])
    expect(t.code).toBe(10)
    expect(t.stderr).toMatch(/^error: E_FILE_MISSING: .*no run found/)
    // A run that is starting holds only the hidden file its lock is linked from: tail waits for it.
    const starting = path.join(work, 'starting')
    mkdirSync(starting)
    writeFileSync(path.join(starting, '.run.lock-12345-abc'), '12345\n')
    const s = await runCli(['tail', starting, '--wait', '0.2', '--interval', '50'])
    expect(s.stderr).toMatch(/^error: E_FILE_MISSING: .*no run found/)
  })
})
