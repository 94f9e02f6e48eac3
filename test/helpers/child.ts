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

export interface CliOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
}

/** Starts `pipeline <args>` (from the project root unless `cwd` is given). */
export function startCli(args: string[], opts: CliOptions = {}): Started {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/pipeline.js'), ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exit = new Promise<Exit>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
  return { child, exit }
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

/** Polls until `predicate` holds; fails after `timeoutMs`, or when the watched process has exited first. */
export async function waitUntil(predicate: () => boolean, what: string, opts: { timeoutMs?: number; alive?: () => boolean } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000)
  while (!predicate()) {
    if (opts.alive && !opts.alive()) throw new Error(`process ended before: ${what}`)
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`)
    await sleep(5)
  }
}
