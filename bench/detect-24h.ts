// The signal-stage benchmark of issue 3: `pipeline run` with read -> clean -> detect -> summarize
// on lead 0 of the tiled 24 h and 1 h EDF+ files (build-tiled-edf.ts; record 100, 360 Hz) and on
// the 23 h Icentia11k recording (its 20 WFDB segments in ../shared, 250 Hz, as one record of 20
// parts), plus the 24 h file through read alone and read -> clean, to show
// where the time goes, and side by side the reference's first two steps on the 24 h file
// (mne-clean.py: MNE's preload read, then NeuroKit2 ecg_clean's scipy calls on lead 0; the
// whole reference is 10.4 s in ../shared/docs/anchors.md: MNE read 3.99 s + ecg_clean 2.50 s +
// ecg_peaks 3.55 s + overhead, and NeuroKit2 itself cannot be installed here). Each case is a child
// process (wall time and peak RSS, measure-child.ts); cases are interleaved round by round and
// the median is reported. Blocks and annotation lines are not written (exclude), beats and
// summaries are. The current tree's bundle is built first, so `pipeline run` never runs stale or
// from the sources. With --before <rev>, each pipeline case also runs on that revision's bundle
// (built in bench/data), right after the current one in every round, with the speed-up and a
// check that both wrote the same beat and summary lines: this shared machine's speed drifts by
// 12-38 % within an hour (0170d71: 2.46-2.77 s, then 3.11-3.40 s), so only side-by-side ratios
// compare across sessions.
//
//   npx tsx bench/detect-24h.ts [--runs 3] [--no-mne] [--before <rev>]   (writes bench/results/detect-24h.md)
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DATA_DIR, TILED_FILES, ensureTiledFiles } from './build-tiled-edf.ts'
import { measureChild, measurePipelineRun, median } from './measure-child.ts'
import { writeResultsKeepingNotes } from './results-file.ts'
import { revisionBundle } from './side-by-side.ts'
import { buildBundle, writeBenchDataset } from './bench-setup.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const MNE_PYTHON = process.env.MNE_PYTHON ?? '/usr/bin/python3'
const ICENTIA = path.resolve(root, '../shared/data/icentia11k')
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'no-mne': { type: 'boolean', default: false }, before: { type: 'string' } } })
const runs = Number(args.runs)
const log = (s: string) => process.stderr.write(s + '\n')

const STAGES = {
  read: ['  - read'],
  clean: ['  - read', '  - clean'],
  full: ['  - read', '  - clean', '  - detect', '  - summarize'],
  // The signal path alone: the 108,768 reference annotations are not read.
  bare: ['  - {use: read, options: {annotations: false}}', '  - clean', '  - detect', '  - summarize'],
}

interface Case {
  name: string
  what: string
  hours: number
  yaml?: string
  mne?: string
}

/** Writes a dataset file for one record of `parts` (paths relative to bench/data) and the stages of `mode`. */
function dataset(name: string, parts: string[], mode: keyof typeof STAGES): Promise<string> {
  const record = `{id: ${name}, path: ${JSON.stringify(parts.length === 1 ? parts[0] : parts)}, leads: [0]}`
  return writeBenchDataset({ script: 'detect-24h.ts', name: `detect-${name}`, record, stages: STAGES[mode], exclude: ['block', 'annotation'] })
}

function mneVersion(): string | null {
  if (args['no-mne']) return null
  try {
    return execFileSync(MNE_PYTHON, ['-c', 'import mne; print(mne.__version__)'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

await ensureTiledFiles(log)
buildBundle()
const before = args.before ? revisionBundle(args.before) : null
// Removed however the script ends (a failed round too), not left in bench/data.
if (before) process.once('exit', () => before.remove())
const [h1, h24] = [TILED_FILES.find((f) => f.tiles === 2)!, TILED_FILES.find((f) => f.tiles === 48)!]
const cases: Case[] = [
  { name: '24h-read', what: '24 h file: read only', hours: 24, yaml: await dataset('24h-read', [path.basename(h24.file)], 'read') },
  { name: '24h-clean', what: '24 h file: read -> clean', hours: 24, yaml: await dataset('24h-clean', [path.basename(h24.file)], 'clean') },
  { name: '24h-full', what: '24 h file: read -> clean -> detect -> summarize', hours: 24, yaml: await dataset('24h-full', [path.basename(h24.file)], 'full') },
  { name: '24h-bare', what: '24 h file: the same without reading the reference annotations', hours: 24, yaml: await dataset('24h-bare', [path.basename(h24.file)], 'bare') },
  { name: '1h-full', what: '1 h file: read -> clean -> detect -> summarize', hours: 1, yaml: await dataset('1h-full', [path.basename(h1.file)], 'full') },
]
const segments = Array.from({ length: 20 }, (_, i) => path.relative(DATA_DIR, path.join(ICENTIA, `p00000_s${String(i).padStart(2, '0')}`)))
cases.push({ name: 'icentia-full', what: 'Icentia11k p00000, 20 segments as one record (23.3 h, 250 Hz): read -> clean -> detect -> summarize', hours: 23.3, yaml: await dataset('icentia-full', segments, 'full') })
const mne = mneVersion()
if (mne) cases.push({ name: 'mne-24h', what: `MNE ${mne} read_raw_edf(preload=True) + scipy sosfiltfilt/filtfilt as ecg_clean, lead 0, 24 h file`, hours: 24, mne: h24.file })
else log('MNE not found (apt-get install -y python3-mne, or set MNE_PYTHON): no side-by-side read')

interface Measured { wall: number[]; rss: number[]; inRun: number[]; cpu: number[]; beats?: number; split?: { read: number; clean: number }[] }
const results = new Map<string, Measured>()

/** Runs case `c` with the `pipeline` of the tree at `tree` into runs/detect-<case><suffix>, adding to `r`. */
async function runPipeline(c: Case, r: Measured, tree: string, suffix: string): Promise<void> {
  const runDir = path.join(DATA_DIR, 'runs', `detect-${c.name}${suffix}`)
  const m = await measurePipelineRun(tree, c.yaml!, runDir)
  r.wall.push(m.wallSec)
  r.rss.push(m.peakRssBytes)
  r.cpu.push(m.cpuSec)
  r.inRun.push(m.inRunSec)
  const beats = await readFile(path.join(runDir, 'beat.ndjson'), 'utf8').catch(() => '')
  r.beats = beats ? beats.split('\n').length - 1 : undefined
}

function withoutIds(text: string): string {
  return text.split('\n').map((l) => (l ? JSON.stringify(JSON.parse(l, (k, v) => (k === 'id' || k === 'from' || k === 'of' ? undefined : v))) : l)).join('\n')
}

/** Whether the current and the --before runs of case `name` wrote the same beat and summary lines (null: neither wrote any). */
async function sameLines(name: string): Promise<boolean | null> {
  let any = false
  for (const kind of ['beat', 'summary']) {
    // Ids and provenance fields (id, from, of) came with issue 12: lines equal but for them are the same lines.
    const [a, b] = await Promise.all(['', '-before'].map(async (s) => withoutIds(await readFile(path.join(DATA_DIR, 'runs', `detect-${name}${s}`, `${kind}.ndjson`), 'utf8').catch(() => ''))))
    if (a !== b) return false
    any ||= a !== ''
  }
  return any ? true : null
}
for (let round = 1; round <= runs; round++) {
  for (const c of cases) {
    const r = results.get(c.name) ?? { wall: [], rss: [], inRun: [], cpu: [] }
    results.set(c.name, r)
    if (c.mne) {
      const m = await measureChild(MNE_PYTHON, [path.join(here, 'mne-clean.py'), c.mne], root)
      const out = JSON.parse(m.stdout.trim().split('\n').at(-1)!) as { readSec: number; cleanSec: number; totalSec: number }
      r.wall.push(m.wallSec)
      r.rss.push(m.peakRssBytes)
      r.cpu.push(m.cpuSec)
      r.inRun.push(out.totalSec)
      ;(r.split ??= []).push({ read: out.readSec, clean: out.cleanSec })
    } else {
      await runPipeline(c, r, root, '')
      if (before) {
        const b = results.get(`${c.name}@before`) ?? { wall: [], rss: [], inRun: [], cpu: [] }
        results.set(`${c.name}@before`, b)
        await runPipeline(c, b, before.dir, '-before')
        log(`round ${round}/${runs} ${c.name.padEnd(13)} before (${before.name}): in run ${b.inRun.at(-1)!.toFixed(2)} s`)
      }
    }
    log(`round ${round}/${runs} ${c.name.padEnd(13)} wall ${r.wall.at(-1)!.toFixed(2)} s, in run ${r.inRun.at(-1)!.toFixed(2)} s, peak RSS ${(r.rss.at(-1)! / 1e6).toFixed(0)} MB`)
  }
}

const same = new Map<string, boolean | null>()
if (before) for (const c of cases) if (c.yaml) same.set(c.name, await sameLines(c.name))
const row = (c: Case) => {
  const r = results.get(c.name)!
  const inRun = median(r.inRun)
  const b = results.get(`${c.name}@before`)
  const side = !before ? '' : b ? ` ${median(b.inRun).toFixed(2)} | ${(median(b.inRun) / inRun).toFixed(2)}x | ${same.get(c.name) === null ? '-' : same.get(c.name) ? 'yes' : 'NO'} |` : ' | | |'
  return `| ${c.what} | ${inRun.toFixed(2)} | ${median(r.wall).toFixed(2)} | ${median(r.cpu).toFixed(2)} | ${(median(r.rss) / 1e6).toFixed(0)} (max ${(Math.max(...r.rss) / 1e6).toFixed(0)}) | ${r.beats ?? ''} | ${((c.hours * 3600) / inRun).toFixed(0)}x |${side}`
}
const md = [
  '# Signal stages: read -> clean -> detect -> summarize',
  '',
  `\`npx tsx bench/detect-24h.ts${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}\` (${new Date().toISOString()}, node ${process.version}, ${os.availableParallelism()} CPUs, ${os.cpus()[0]?.model ?? ''}).`,
  `Median of ${runs} interleaved rounds. Lead 0 only (NeuroKit2's ecg_clean and ecg_peaks take one signal); blocks and annotation lines not written.`,
  '"in run" is the runner\'s own time (run-start to run-end); "wall" adds node startup; for MNE + scipy, "in run" is the read and clean calls, imports excluded.',
  '"CPU" is the whole process\'s user + system time over all its threads (GNU time; startup included): on 2 cores the wall time cannot go below half of it.',
  ...(before ? [`"before" is ${before.name}'s bundle, run right after the current one in every round; "same lines": both wrote the same beat and summary lines (last round).`] : []),
  '',
  `| case | in run s | wall s | CPU s | peak RSS MB | beats | real time |${before ? ` ${before.name} in run s | speed-up | same lines |` : ''}`,
  `|---|---|---|---|---|---|---|${before ? '---|---|---|' : ''}`,
  ...cases.map(row),
  ...(results.get('mne-24h')?.split ? ['', `MNE + scipy split (median): read ${median(results.get('mne-24h')!.split!.map((x) => x.read)).toFixed(2)} s, clean ${median(results.get('mne-24h')!.split!.map((x) => x.clean)).toFixed(2)} s.`] : []),
  '',
  'Reference (../shared/docs/anchors.md, same kind of machine): MNE read 3.99 s + NeuroKit2 ecg_clean 2.50 s + ecg_peaks 3.55 s = 10.4 s for the 24 h file, 2,446 MiB peak; the issue\'s target is 10x faster (about 1.04 s) under 150 MB.',
  '',
].join('\n')
await writeResultsKeepingNotes(path.join(here, 'results', 'detect-24h.md'), md)
process.stdout.write(md)
