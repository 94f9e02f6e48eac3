// Runs the CLI in a child process, as a user would (`node bin/pipeline.js ...`), and lets a
// test watch a run directory's files while it runs, to interrupt it at chosen moments.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
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

/** Starts `pipeline <args>` in the project root. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/pipeline.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d) => (stdout += d))
  child.stderr!.on('data', (d) => (stderr += d))
  const exit = new Promise<Exit>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
  return { child, exit }
}

/** Runs `pipeline <args>` to the end. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  return startCli(args, env).exit
}

/** Lines of an NDJSON file written so far (a torn last line is ignored). */
export function linesOf(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return []
  const text = readFileSync(file, 'utf8')
  return text.split('\n').slice(0, -1).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
}

/** Polls until `predicate` holds; fails after `timeoutMs`, or when the watched process has exited first. */
export async function waitUntil(predicate: () => boolean, what: string, opts: { timeoutMs?: number; alive?: () => boolean } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000)
  while (!predicate()) {
    if (opts.alive && !opts.alive()) throw new Error(`process ended before: ${what}`)
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`)
    await sleep(5)
  }
}
