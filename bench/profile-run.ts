// Where a pipeline run spends its CPU, thread by thread: runs `node --cpu-prof dist/cli.mjs run
// <dataset>` (the bundle, built first) and reads the V8 CPU profiles of the main thread and of
// each worker thread. For each thread it reports busy and idle time, the self time per source
// file (the bundle's `// src/...` markers map its lines back to files; WebAssembly kernels,
// garbage collection and V8's own work are their own rows) and the functions with the most self
// time. The profiler's sampling adds some time of its own; compare rows within a profile.
//
//   npx tsx bench/profile-run.ts [dataset.yaml] [--top 25]
//   (default dataset: bench/data/detect-24h-full.yaml, written by bench/detect-24h.ts;
//   writes bench/results/profile-<dataset name>.md, keeping its hand-written notes)
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { writeResultsKeepingNotes } from './results-file.ts'
import { buildBundle } from './bench-setup.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } })
const dataset = path.resolve(positionals[0] ?? path.join(here, 'data/detect-24h-full.yaml'))
const top = Number(args.top)

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]
  samples: number[]
  timeDeltas: number[]
}

/** Maps a line of a bundle to the source file it came from, by esbuild's `// src/...` comments. */
function fileMapper(bundle: string): (line: number) => string {
  const marks: [number, string][] = []
  readFileSync(bundle, 'utf8').split('\n').forEach((l, i) => {
    const m = /^\/\/ ((?:src|node_modules)\/\S+)/.exec(l)
    if (m) marks.push([i, m[1]])
  })
  return (line) => {
    let found = '(bundle)'
    for (let lo = 0, hi = marks.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >> 1
      if (marks[mid][0] <= line) {
        found = marks[mid][1]
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
  }
}

/** Self time (ms) per key, from one profile. */
function selfTimes(p: CpuProfile, key: (frame: CpuProfile['nodes'][number]['callFrame']) => string): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n.callFrame]))
  const out = new Map<string, number>()
  p.samples.forEach((id, i) => {
    const k = key(byId.get(id)!)
    out.set(k, (out.get(k) ?? 0) + p.timeDeltas[i] / 1000)
  })
  return out
}

buildBundle()
const dir = mkdtempSync(path.join(os.tmpdir(), 'profile-run-'))
try {
  execFileSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, path.join(root, 'dist/cli.mjs'), 'run', dataset, '--out', path.join(dir, 'run')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  const runEnd = readFileSync(path.join(dir, 'run', 'progress.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: string; wallMs?: number }).find((e) => e.t === 'run-end')
  // Profiles are named CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread.
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort((a, b) => Number(a.split('.')[4]) - Number(b.split('.')[4]))
  const lines: string[] = [
    `# Profile of \`pipeline run ${path.relative(root, dataset)}\``,
    '',
    `\`npx tsx bench/profile-run.ts ${process.argv.slice(2).join(' ')}\` (${new Date().toISOString()}, node ${process.version}, ${os.availableParallelism()} CPUs). In run (with the profiler): ${((runEnd?.wallMs ?? NaN) / 1000).toFixed(2)} s.`,
    'Self time in ms from V8 CPU profiles (`node --cpu-prof`); "(idle)" is time the thread waited, "wasm" the WebAssembly kernels.',
  ]
  for (const f of files) {
    const p = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CpuProfile
    const thread = Number(f.split('.')[4]) === 0 ? 'main thread' : `worker thread ${f.split('.')[4]}`
    const bundles = new Map<string, (line: number) => string>()
    const fileOf = (frame: CpuProfile['nodes'][number]['callFrame']): string => {
      if (frame.url.startsWith('wasm')) return 'wasm'
      if (frame.url.includes('/dist/') && frame.url.endsWith('.mjs')) {
        const bundle = fileURLToPath(frame.url)
        if (!bundles.has(bundle)) bundles.set(bundle, fileMapper(bundle))
        return bundles.get(bundle)!(frame.lineNumber)
      }
      return frame.url ? `node: ${frame.url.split('/').slice(-2).join('/')}` : frame.functionName || '(native)'
    }
    const byFile = selfTimes(p, fileOf)
    const byFunction = selfTimes(p, (fr) => {
      const where = fr.url.startsWith('wasm') ? fr.url.replace('wasm://', '') : fileOf(fr)
      const name = fr.functionName || '(anonymous)'
      return where === name ? name : `${name} (${where})`
    })
    const total = [...byFile.values()].reduce((a, b) => a + b, 0)
    const idle = byFile.get('(idle)') ?? 0
    const rows = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `| ${k} | ${v.toFixed(0)} |`)
    lines.push('', `## ${thread}: ${total.toFixed(0)} ms profiled, ${(total - idle).toFixed(0)} busy, ${idle.toFixed(0)} idle`, '', '| file | self ms |', '|---|---|', ...rows(byFile), '', '| function | self ms |', '|---|---|', ...rows(byFunction))
  }
  const name = path.basename(dataset).replace(/\.ya?ml$/, '')
  const md = lines.join('\n') + '\n'
  await writeResultsKeepingNotes(path.join(here, 'results', `profile-${name}.md`), md)
  process.stdout.write(md)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
