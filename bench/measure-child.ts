// Runs one command as a child process and measures its wall time, peak RSS and (with GNU time)
// CPU time. With GNU time
// (/usr/bin/time) the peak is the kernel's ru_maxrss of the command itself (time execs it, so
// it is the node/python process, not a shell); without it, the child is spawned directly and
// /proc/<pid>/status VmHWM is polled every 10 ms (the last value read before it exits).
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

export const GNU_TIME = '/usr/bin/time'
export const HAS_GNU_TIME = existsSync(GNU_TIME)

export interface ChildMeasure {
  wallSec: number
  /** Peak resident set size in bytes. */
  peakRssBytes: number
  /** CPU seconds (user + system, all threads) with GNU time; NaN without it. */
  cpuSec: number
  rssMethod: 'gnu-time' | 'proc-vmhwm'
  /**
   * With `tree`: the largest sum of VmRSS over the child and all its descendants (pipeline plus
   * ffmpeg), sampled every 50 ms, and each process name's own VmHWM. GNU time's %M is the largest
   * single process among a child and its waited-for children, not their sum. The VmRSS sum counts
   * pages the processes share (two ffmpegs map the same libav and x264 libraries, about 45 MB
   * each) once per process; peakPssSumBytes is the largest sum of their PSS (/proc/<pid>/
   * smaps_rollup), which counts a shared page once in all: the memory the tree takes.
   */
  tree?: { peakSumBytes: number; peakPssSumBytes: number; peakByName: Record<string, number> }
  stdout: string
  stderr: string
}

/** Runs `cmd args` in `cwd`; rejects with the child's stderr when it exits non-zero. */
export async function measureChild(cmd: string, args: string[], cwd: string, opts: { tree?: boolean } = {}): Promise<ChildMeasure> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-time-'))
  const timeFile = path.join(tmp, 'time.txt')
  try {
    const argv = HAS_GNU_TIME ? [GNU_TIME, '-f', '%e %M %U %S', '-o', timeFile, cmd, ...args] : [cmd, ...args]
    const t0 = performance.now()
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s))
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s))
    let hwm = 0
    const poll = HAS_GNU_TIME ? null : setInterval(() => {
      readFile(`/proc/${child.pid}/status`, 'utf8').then((s) => {
        const m = /VmHWM:\s+(\d+) kB/.exec(s)
        if (m) hwm = Math.max(hwm, Number(m[1]) * 1024)
      }, () => undefined)
    }, 10)
    const tree = opts.tree ? { peakSumBytes: 0, peakPssSumBytes: 0, peakByName: {} as Record<string, number> } : undefined
    let sampling = false
    const treePoll = tree ? setInterval(() => {
      if (sampling) return
      sampling = true
      sampleTree(child.pid!, tree).finally(() => (sampling = false))
    }, 50) : null
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject)
      child.once('close', resolve)
    })
    const wallSec = (performance.now() - t0) / 1000
    if (poll) clearInterval(poll)
    if (treePoll) clearInterval(treePoll)
    if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${stderr.slice(-2000)}`)
    let peakRssBytes = hwm
    let cpuSec = NaN
    if (HAS_GNU_TIME) {
      // The last line: GNU time writes "Command exited with non-zero status" lines before it.
      const [, kb, user, sys] = (await readFile(timeFile, 'utf8')).trim().split('\n').at(-1)!.split(/\s+/).map(Number)
      peakRssBytes = kb * 1024
      cpuSec = user + sys
    }
    return { wallSec, peakRssBytes, cpuSec, rssMethod: HAS_GNU_TIME ? 'gnu-time' : 'proc-vmhwm', stdout, stderr, tree }
  } finally {
    await rm(tmp, { recursive: true, force: true })
  }
}

/** A `pipeline run` child (the bundle `dist/cli.mjs` of `tree`) with its measures and the runner's own time (run-end's wallMs), in s. */
export async function measurePipelineRun(tree: string, dataset: string, runDir: string, opts: { tree?: boolean } = {}): Promise<ChildMeasure & { inRunSec: number }> {
  // The bundle itself, never bin/pipeline.js (which may choose the sources); one older than the
  // sources (edited during the benchmark) would measure code that is no longer there.
  if (!bundleIsFresh(tree)) throw new Error(`${tree}/dist/cli.mjs is older than a file of ${tree}/src (edited during the benchmark?): rebuild (npm run build) and run the benchmark again`)
  const m = await measureChild(process.execPath, [path.join(tree, 'dist/cli.mjs'), 'run', dataset, '--out', runDir, '--restart'], tree, opts)
  const events = (await readFile(path.join(runDir, 'progress.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { t: string; wallMs?: number })
  return { ...m, inRunSec: (events.find((e) => e.t === 'run-end')?.wallMs ?? NaN) / 1000 }
}

function bundleIsFresh(tree: string): boolean {
  const newest = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((n, e) => Math.max(n, e.isDirectory() ? newest(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).mtimeMs), 0)
  try {
    return statSync(path.join(tree, 'dist/cli.mjs')).mtimeMs >= newest(path.join(tree, 'src'))
  } catch {
    return false
  }
}

/** Median of a non-empty list. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Adds one sample of the RSS of `root` and its descendants to `tree` (Linux /proc). */
async function sampleTree(root: number, tree: NonNullable<ChildMeasure['tree']>): Promise<void> {
  const parent = new Map<number, number>()
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '')
    const m = /\) \S (\d+)/.exec(stat) // the ppid follows the ")" that ends the command name
    if (m) parent.set(Number(name), Number(m[1]))
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === root) return true
    return false
  }
  let sum = 0
  let pssSum = 0
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '')
    pssSum += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
    const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
    const name = /Name:\s+(\S+)/.exec(status)?.[1] ?? '?'
    sum += rss
    tree.peakByName[name] = Math.max(tree.peakByName[name] ?? 0, hwm)
  }
  tree.peakSumBytes = Math.max(tree.peakSumBytes, sum)
  tree.peakPssSumBytes = Math.max(tree.peakPssSumBytes, pssSum)
}
