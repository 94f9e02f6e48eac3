// The 24 h streaming benchmark (issue "bench/stream-24h"). Builds the tiled 1 h and 24 h EDF+
// files if absent (build-tiled-edf.ts), then runs `pipeline run` as a child process on each:
//   read     read stage with annotations, blocks excluded: recording + annotation NDJSON
//   segment  read -> segment (10 s windows) -> NDJSON, window lines include the samples
// and, side by side, MNE's preload read of the same files (mne-read.py) when python3-mne is
// installed. Runs are interleaved round by round (median of --runs, default 3) so that drift of
// a noisy machine hits every case alike; results go to bench/results/stream-24h.{json,md}.
//
//   npx tsx bench/stream-24h.ts [--runs 3] [--no-mne]
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DATA_DIR, TILED_FILES, ensureTiledFiles } from './build-tiled-edf.ts'
import { measureChild, median, HAS_GNU_TIME } from './measure-child.ts'
import { renderMarkdown, evaluateTargets, type CaseResult, type Report } from './stream-24h-report.ts'
import { buildBundle, writeBenchDataset } from './bench-setup.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const RESULTS = path.join(here, 'results')
const MNE_PYTHON = process.env.MNE_PYTHON ?? '/usr/bin/python3'

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'no-mne': { type: 'boolean', default: false } } })
const runs = Number(args.runs)

const STAGES = {
  read: ['  - read'],
  segment: ['  - read', '  - use: segment', '    options: {window: 10, step: 10}'],
}
type Mode = keyof typeof STAGES | 'mne' | 'stage'

/** Writes the dataset YAML of one case into bench/data and returns its path. */
function writeDataset(name: string, mode: keyof typeof STAGES, edf: string): Promise<string> {
  return writeBenchDataset({ script: 'stream-24h.ts', name, record: `path: ${path.basename(edf)}`, stages: STAGES[mode], exclude: ['block'] })
}

/** Bytes of the run's NDJSON outputs, its item counts and the runner's own wall time (run-end). */
async function readRun(runDir: string): Promise<{ outputBytes: number; counts: Record<string, number>; inRunSec: number }> {
  let outputBytes = 0
  for (const f of await readdir(runDir)) {
    if (f.endsWith('.ndjson') && f !== 'checkpoints.ndjson' && f !== 'progress.ndjson') outputBytes += (await stat(path.join(runDir, f))).size
  }
  const events = (await readFile(path.join(runDir, 'progress.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { t: string; wallMs?: number; items?: Record<string, number> }).reverse()
  const end = events.find((e) => e.t === 'run-end')
  const done = events.find((e) => e.t === 'record-done')
  return { outputBytes, counts: done?.items ?? {}, inRunSec: (end?.wallMs ?? NaN) / 1000 }
}

function mneAvailable(): string | null {
  try {
    return execFileSync(MNE_PYTHON, ['-c', 'import mne; print(mne.__version__)'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

const log = (s: string) => process.stderr.write(s + '\n')
await ensureTiledFiles(log)
buildBundle() // the runs below measure dist/cli.mjs, built from this tree now
const mneVersion = args['no-mne'] ? null : mneAvailable()
if (!args['no-mne'] && !mneVersion) log(`MNE not found for ${MNE_PYTHON} (apt-get install -y python3-mne, or set MNE_PYTHON); comparing with the anchors' 3.99 s instead`)

const cases: { name: string; mode: Mode; file: (typeof TILED_FILES)[number]; yaml?: string }[] = []
for (const f of TILED_FILES) {
  for (const mode of ['read', 'segment'] as const) {
    const name = `${mode}-${f.name}`
    cases.push({ name, mode, file: f, yaml: await writeDataset(name, mode, f.file) })
  }
  // The read stage alone, in process, items pulled and dropped: what MNE's preload read does.
  cases.push({ name: `stage-${f.name}`, mode: 'stage', file: f })
  if (mneVersion) cases.push({ name: `mne-${f.name}`, mode: 'mne', file: f })
}

const results = new Map<string, CaseResult>()
for (let round = 1; round <= runs; round++) {
  for (const c of cases) {
    const durationSec = 1800 * c.file.tiles
    const inputBytes = (await stat(c.file.file)).size
    const r = results.get(c.name) ?? { name: c.name, mode: c.mode, file: path.relative(root, c.file.file), durationSec, inputBytes, runs: [] }
    results.set(c.name, r)
    if (c.mode === 'mne') {
      const m = await measureChild(MNE_PYTHON, [path.join(here, 'mne-read.py'), c.file.file], root)
      const out = JSON.parse(m.stdout.trim().split('\n').at(-1)!)
      r.runs.push({ wallSec: m.wallSec, peakRssBytes: m.peakRssBytes, readSec: out.readSec[0], counts: { annotation: out.annotations } })
    } else if (c.mode === 'stage') {
      const m = await measureChild(process.execPath, ['--import', 'tsx', path.join(here, 'read-stage.ts'), c.file.file, '--runs', '1'], root)
      const out = JSON.parse(m.stdout.trim().split('\n').at(-1)!)
      r.runs.push({ wallSec: m.wallSec, peakRssBytes: m.peakRssBytes, readSec: out.readSec, counts: { annotation: out.annotations } })
    } else {
      const runDir = path.join(DATA_DIR, 'runs', c.name)
      const m = await measureChild(process.execPath, ['dist/cli.mjs', 'run', path.relative(root, c.yaml!), '--out', path.relative(root, runDir), '--restart'], root)
      const run = await readRun(runDir)
      r.runs.push({ wallSec: m.wallSec, peakRssBytes: m.peakRssBytes, inRunSec: run.inRunSec, outputBytes: run.outputBytes, counts: run.counts })
    }
    const last = r.runs.at(-1)!
    log(`round ${round}/${runs} ${c.name.padEnd(12)} wall ${last.wallSec.toFixed(2)} s, peak RSS ${(last.peakRssBytes / 1e6).toFixed(0)} MB`)
  }
}

for (const r of results.values()) {
  const pick = (f: (x: CaseResult['runs'][number]) => number | undefined) => {
    const xs = r.runs.map(f).filter((x): x is number => typeof x === 'number' && Number.isFinite(x))
    return xs.length ? median(xs) : undefined
  }
  r.median = { wallSec: pick((x) => x.wallSec)!, peakRssBytes: pick((x) => x.peakRssBytes)!, inRunSec: pick((x) => x.inRunSec), readSec: pick((x) => x.readSec), outputBytes: pick((x) => x.outputBytes) }
  r.maxPeakRssBytes = Math.max(...r.runs.map((x) => x.peakRssBytes))
}

const cpu = os.cpus()[0]?.model ?? 'unknown'
const report: Report = {
  date: new Date().toISOString(),
  command: `npx tsx bench/stream-24h.ts${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`,
  machine: { nproc: os.availableParallelism(), cpu, memTotalGB: +(os.totalmem() / 1e9).toFixed(1), node: process.version, platform: `${os.type()} ${os.release()}`, rssMethod: HAS_GNU_TIME ? 'GNU time %M (ru_maxrss of the child)' : '/proc/<pid>/status VmHWM polled every 10 ms', mne: mneVersion },
  runs,
  cases: [...results.values()],
  targets: [],
}
report.targets = evaluateTargets(report)
await mkdir(RESULTS, { recursive: true })
await writeFile(path.join(RESULTS, 'stream-24h.json'), JSON.stringify(report, null, 2) + '\n')
const md = renderMarkdown(report)
await writeFile(path.join(RESULTS, 'stream-24h.md'), md)
process.stdout.write(md)
