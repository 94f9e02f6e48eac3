// The run directory's lock (src/run/run-lock.ts), unit layer with real processes: another run
// is a child node process that takes the lock with the same code and holds it until told to
// let go; a dead run is a short child that has exited, whose pid is left in run.lock.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { isProcessAlive } from '../../src/run/process-alive.ts'
import { acquireRunLock, LOCK_FILE } from '../../src/run/run-lock.ts'
import { ROOT } from '../helpers/shared.ts'
import { rejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const lockOf = (dir: string) => path.join(dir, LOCK_FILE)

// The child's side: take the lock, say so on stdout, release when stdin closes.
const HOLDER = `
const { acquireRunLock } = await import(${JSON.stringify(path.join(ROOT, 'src/run/run-lock.ts'))})
const release = await acquireRunLock(process.argv[1])
process.stdout.write('locked\\n')
process.stdin.resume()
process.stdin.on('end', async () => { await release(); process.exit(0) })
`

/** Another process holding `dir`'s lock; resolves once it has it (its "locked" line). */
async function otherRunHolding(dir: string): Promise<{ pid: number; letGo(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOLDER, dir], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] })
  const exited = once(child, 'exit')
  let out = ''
  child.stdout!.setEncoding('utf8')
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: string) => {
      out += d
      if (out.includes('locked\n')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`the lock holder exited (code ${code}) before taking the lock`)))
  })
  return {
    pid: child.pid!,
    async letGo() {
      child.stdin!.end()
      const [code] = await exited
      expect(code).toBe(0)
    },
  }
}

/** The pid of a process that has exited (a short child, waited for). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await once(child, 'exit')
  expect(isProcessAlive(child.pid!)).toBe(false)
  return child.pid!
}

describe('run lock', () => {
  it('acquire writes run.lock holding this pid; release removes it; it can be taken again', async () => {
    const dir = tmpDir('hp-lock-')
    const release = await acquireRunLock(dir)
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid}\n`)
    await release()
    expect(existsSync(lockOf(dir))).toBe(false)
    const again = await acquireRunLock(dir)
    expect(existsSync(lockOf(dir))).toBe(true)
    await again()
    expect(readdirSync(dir)).toEqual([])
  })

  it('refuses with E_RUN_LOCKED while another live process holds the lock, naming its pid and the lock file, and leaves its lock alone', async () => {
    const dir = tmpDir('hp-lock-')
    const other = await otherRunHolding(dir)
    try {
      expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${other.pid}\n`)
      const err = await rejection(acquireRunLock(dir))
      expect(err).toBeInstanceOf(PipelineError)
      expect((err as PipelineError).code).toBe('E_RUN_LOCKED')
      expect(err.message).toContain(`(pid ${other.pid})`)
      expect(err.message).toContain(lockOf(dir))
      expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${other.pid}\n`)
      expect(readdirSync(dir)).toEqual([LOCK_FILE])
    } finally {
      await other.letGo()
    }
    // Released by its owner, the lock is free for this process.
    expect(existsSync(lockOf(dir))).toBe(false)
    const release = await acquireRunLock(dir)
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid}\n`)
    await release()
  })

  it('takes over a stale lock left by a process that has died, leaving no aside file', async () => {
    const dir = tmpDir('hp-lock-')
    const pid = await deadPid()
    writeFileSync(lockOf(dir), `${pid}\n`)
    const release = await acquireRunLock(dir)
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid}\n`)
    expect(readdirSync(dir)).toEqual([LOCK_FILE])
    await release()
    expect(readdirSync(dir)).toEqual([])
  })

  it('takes over a lock without a pid in it once it is some seconds old (a crash of an older version between creating and writing it)', async () => {
    const dir = tmpDir('hp-lock-')
    for (const junk of ['', 'not a pid\n', '-5\n']) {
      writeFileSync(lockOf(dir), junk)
      const old = new Date(Date.now() - 60_000)
      utimesSync(lockOf(dir), old, old)
      const release = await acquireRunLock(dir)
      expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid}\n`)
      await release()
    }
  })

  it('refuses a lock without a pid that is only moments old: a run may be writing it', async () => {
    const dir = tmpDir('hp-lock-')
    writeFileSync(lockOf(dir), '')
    const err = await rejection(acquireRunLock(dir))
    expect(err).toMatchObject({ code: 'E_RUN_LOCKED', message: expect.stringContaining(lockOf(dir)) })
    expect(readFileSync(lockOf(dir), 'utf8')).toBe('')
    expect(readdirSync(dir)).toEqual([LOCK_FILE])
  })

  it('refuses a second acquire by this process while it holds the lock', async () => {
    const dir = tmpDir('hp-lock-')
    const release = await acquireRunLock(dir)
    const err = await rejection(acquireRunLock(dir))
    expect(err).toMatchObject({ code: 'E_RUN_LOCKED', message: expect.stringContaining(`pid ${process.pid}`) })
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid}\n`)
    await release()
    expect(readdirSync(dir)).toEqual([])
  })

  it('takes over a lock holding this pid that was written before this process started (the pid reused after a crash)', async () => {
    const dir = tmpDir('hp-lock-')
    writeFileSync(lockOf(dir), `${process.pid}\n`)
    const before = new Date(Date.now() - process.uptime() * 1000 - 60_000)
    utimesSync(lockOf(dir), before, before)
    const release = await acquireRunLock(dir)
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid}\n`)
    await release()
  })

  it('lets exactly one of several racing acquires have the lock, and never shows an empty lock', async () => {
    const dir = tmpDir('hp-lock-')
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireRunLock(dir)))
    const won = results.filter((r) => r.status === 'fulfilled')
    expect(won).toHaveLength(1)
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'E_RUN_LOCKED' })
    expect(readdirSync(dir)).toEqual([LOCK_FILE])
    await (won[0] as PromiseFulfilledResult<() => Promise<void>>).value()
    expect(readdirSync(dir)).toEqual([])
  })

  it("release leaves a lock that is no longer this process's (another run took it over), and does not throw when the lock is gone", async () => {
    const dir = tmpDir('hp-lock-')
    const release = await acquireRunLock(dir)
    const pid = await deadPid() // any pid but ours: release must only compare, not probe
    writeFileSync(lockOf(dir), `${pid}\n`)
    await release()
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${pid}\n`)

    const dir2 = tmpDir('hp-lock-')
    const release2 = await acquireRunLock(dir2)
    writeFileSync(lockOf(dir2), '')
    await release2()
    expect(readFileSync(lockOf(dir2), 'utf8')).toBe('')
    const old = new Date(Date.now() - 60_000)
    utimesSync(lockOf(dir2), old, old) // an empty lock is stale only once it is some seconds old
    const release3 = await acquireRunLock(dir2)
    await release3()
    await release3() // twice: the lock is gone, nothing to do
    expect(existsSync(lockOf(dir2))).toBe(false)
  })
})
