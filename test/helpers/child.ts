// Runs the CLI in a child process, as a user would (`node bin/pipeline.js ...`; startNode for
// another entry point, such as a bundle built by the test), and lets a test watch a run
// directory's files while it runs, to interrupt it at chosen moments.
// Waiting: watchUntil wakes on the folder's change events (fs.watch); waitUntil polls, for
// conditions that raise no event in this process (another process's state, a child's output
// parsed as it comes). Their timeouts are hang guards that name what never happened, not the
// way a test is ordered.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, watch } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { ROOT } from './shared.ts'

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface Started {
  child: ChildProcess
  exit: Promise<Exit>
}

export interface CliOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
}

/** Starts `node <args>` (a script and its arguments: the CLI, a bundle of it), from the project root unless `cwd` is given, its output collected. */
export function startNode(args: string[], opts: CliOptions = {}): Started {
  const child = spawn(process.execPath, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exit = new Promise<Exit>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
  return { child, exit }
}

/** Starts `pipeline <args>` (from the project root unless `cwd` is given). */
export function startCli(args: string[], opts: CliOptions = {}): Started {
  return startNode([path.join(ROOT, 'bin/pipeline.js'), ...args], opts)
}

/** Runs `pipeline <args>` to the end; never throws on a non-zero exit. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<Exit> {
  return startCli(args, opts).exit
}

/** Lines of an NDJSON file written so far (a torn last line is ignored). */
export function linesOf(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return []
  const text = readFileSync(file, 'utf8')
  return text.split('\n').slice(0, -1).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
}

/** Polls until `predicate` holds (no event needed); fails after `timeoutMs` (a hang guard), or when the watched process has exited first. */
export async function waitUntil(predicate: () => boolean, what: string, opts: { timeoutMs?: number; alive?: () => boolean } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000)
  while (!predicate()) {
    if (opts.alive && !opts.alive()) throw new Error(`process ended before: ${what}`)
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`)
    await sleep(5)
  }
}

/**
 * Resolves once `predicate` holds, checking it now and again after each change in folder `dir`
 * (a file created, written, renamed or removed there); fails after `timeoutMs` (a hang guard).
 * The watcher starts before the first check, so a change between the two is never missed.
 */
export function watchUntil(dir: string, predicate: () => boolean | Promise<boolean>, what: string, opts: { timeoutMs?: number } = {}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let done = false
    let checking = false
    let again = false
    const watcher = watch(dir, () => void check())
    const guard = setTimeout(() => end(new Error(`timed out waiting for: ${what}`)), opts.timeoutMs ?? 30_000)
    watcher.on('error', (err) => end(err))
    function end(err?: unknown) {
      if (done) return
      done = true
      clearTimeout(guard)
      watcher.close()
      if (err) reject(err)
      else resolve()
    }
    // One check at a time; a change during a check makes it run once more.
    async function check() {
      if (checking) return void (again = true)
      checking = true
      try {
        do {
          again = false
          if (await predicate()) return end()
        } while (again && !done)
      } catch (err) {
        end(err)
      } finally {
        checking = false
      }
    }
    void check()
  })
}
