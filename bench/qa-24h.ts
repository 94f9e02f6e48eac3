// The QA benchmark of issue 13: `pipeline run` on the 24 h benchmark file (build-tiled-edf.ts:
// record 100 tiled to 24 h, beats as TALs) building QA items with inputs in all three
// modalities: read -> annotate -> quality -> clean -> excerpt (1-minute tiles, stratified, 3 an
// hour; and 1-hour tiles for the reports, one in four hours) -> render-text (100 Hz) ->
// render-strip (10 s tiles) -> render-video (a clip per excerpt, both sets) -> qa; beside read -> annotate
// -> summarize in the same rounds, and the same QA case on the 1 h file (peak RSS must not grow
// with the record's length). Each case is a child process measured as in render-24h.ts; rounds
// are interleaved and the median is reported. Writes results/qa-24h.md, keeping its notes.
//
//   npx tsx bench/qa-24h.ts [--runs 1] [--cases summarize,qa,qa-1h]
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DATA_DIR, TILED_FILES, ensureTiledFiles } from './build-tiled-edf.ts'
import { measurePipelineRun, median } from './measure-child.ts'
import { resultsTable } from './side-by-side.ts'
import { writeResultsKeepingNotes } from './results-file.ts'
import { buildBundle, writeBenchDataset } from './bench-setup.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '1' }, cases: { type: 'string', default: 'summarize,qa,qa-1h' } } })
const runs = Number(args.runs)
const log = (s: string) => process.stderr.write(s + '\n')

const QA_STAGES = [
  '  - quality',
  '  - clean',
  '  - {use: excerpt, options: {set: q, stratified: {lengthSec: 60, perHour: 3, seed: 1}}}',
  '  - {use: render-text, options: {windows: false, excerpts: [q], rate: 100, leads: [0]}}',
  '  - {use: render-strip, options: {windows: false, excerpts: [q], excerptTileSec: 10, leads: [0], markers: none}}',
  // After the text and strip renderers, so they do not hold the signal back to the hour tiles' stretch.
  '  - {use: excerpt, options: {set: r, stratified: {lengthSec: 3600, perHour: 0.25, seed: 1, artifacts: allow}}}',
  // One render-video for both sets (one worker, one ring), each with its own step.
  '  - {use: render-video, options: {windows: false, clips: [{excerpts: [q], stepSec: 2}, {excerpts: [r], stepSec: 30}], fps: 5, leads: [0], markers: none}}',
  '  - {use: qa, options: {seed: 1, sets: {q: {tasks: [closed_presence, closed_event_counting, closed_event_timing, closed_HR_extremum_timing, closed_diagnosis, open_event_counting, open_HR_extremum_timing, open_event_timing, open_diagnosis, open_evidence_reasoning], inputs: [text, images, video]}, r: {tasks: [report_statistical_overview, report_general_summary], inputs: [video]}}}}',
]
const CASES = [
  { name: 'summarize', what: 'read -> annotate -> summarize (the yardstick)', file: '24h', stages: ['  - summarize'] },
  { name: 'qa', what: 'read -> annotate -> quality -> clean -> excerpt, render-text, render-strip, excerpt, render-video -> qa', file: '24h', stages: QA_STAGES },
  { name: 'qa-1h', what: 'the same QA case on the 1 h file', file: '1h', stages: QA_STAGES },
].filter((c) => args.cases!.split(',').includes(c.name))

await ensureTiledFiles(log)
buildBundle()
for (const c of CASES) {
  const file = path.basename(TILED_FILES.find((f) => f.name === c.file)!.file)
  await writeBenchDataset({ script: 'qa-24h.ts', name: `qa24-${c.name}`, record: `{id: day, path: ${file}}`, stages: ['  - read', '  - annotate', ...c.stages], exclude: ['block', 'annotation', 'beat'] })
}

interface Measured { inRun: number[]; wall: number[]; cpu: number[]; rss: number[]; pss: number[]; items: string }
const results = new Map<string, Measured>()
for (let round = 1; round <= runs; round++) {
  for (const c of CASES) {
    const out = path.join(DATA_DIR, 'runs', `qa24-${c.name}`)
    const m = await measurePipelineRun(root, path.join(DATA_DIR, `qa24-${c.name}.yaml`), out, { tree: true })
    const r = results.get(c.name) ?? { inRun: [], wall: [], cpu: [], rss: [], pss: [], items: '' }
    r.inRun.push(m.inRunSec)
    r.wall.push(m.wallSec)
    r.cpu.push(m.cpuSec)
    r.rss.push(m.tree!.peakByName.node ?? m.tree!.peakByName.MainThread ?? NaN)
    r.pss.push(m.tree!.peakPssSumBytes)
    r.items = await describeQa(out)
    results.set(c.name, r)
    log(`round ${round}/${runs} ${c.name.padEnd(10)} in run ${r.inRun.at(-1)!.toFixed(2)} s, peak RSS ${mb(r.rss.at(-1)!)} MB (PSS with ffmpeg ${mb(r.pss.at(-1)!)}); ${r.items}`)
  }
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(0)
}

/** The qa items a run wrote, by tier, and the excerpts. */
async function describeQa(runDir: string): Promise<string> {
  const lines = (await readFile(path.join(runDir, 'qa.ndjson'), 'utf8').catch(() => '')).split('\n').filter(Boolean)
  if (!lines.length) return 'no qa items'
  const tiers = new Map<string, number>()
  for (const l of lines) {
    const t = (JSON.parse(l) as { tier: string }).tier
    tiers.set(t, (tiers.get(t) ?? 0) + 1)
  }
  const excerpts = (await readFile(path.join(runDir, 'excerpt.ndjson'), 'utf8')).split('\n').filter(Boolean).length
  return `${lines.length} qa items (${[...tiers].map(([t, n]) => `${t} ${n}`).join(', ')}) over ${excerpts} excerpts`
}

const rows = CASES.map((c) => {
  const r = results.get(c.name)!
  const range = r.inRun.length > 1 ? ` (${Math.min(...r.inRun).toFixed(2)}-${Math.max(...r.inRun).toFixed(2)})` : ''
  return `| ${c.what}, ${c.file} file | ${median(r.inRun).toFixed(2)}${range} | ${median(r.wall).toFixed(1)} | ${median(r.cpu).toFixed(1)} | ${mb(Math.max(...r.rss))} | ${mb(Math.max(...r.pss))} | ${r.items} |`
})
const md = resultsTable('QA generation on the 24 h benchmark file', 'bench/qa-24h.ts', [
  `Median of ${runs} interleaved round(s) (in run: with the lowest and highest). Both leads of the 24 h file (360 Hz), reference beats from its TALs; the inputs are lead 0. "In run" is run-start to run-end; "CPU" is user + system time of the pipeline process and its ffmpeg children (GNU time). Peak RSS is the pipeline process's own high-water mark (VmHWM, the largest over the rounds); peak PSS sums the pipeline's and every ffmpeg's proportional set size, sampled every 50 ms.`,
  'Targets (issue 13): QA with inputs in all three modalities for the 24 h file, at least 100 items, in under 60 s and 300 MB, memory independent of the record\'s length.',
], ['case', 'in run s', 'wall s', 'CPU s', 'peak RSS MB', 'peak PSS MB with ffmpeg', 'outputs'], rows)
await writeResultsKeepingNotes(path.join(here, 'results/qa-24h.md'), md)
process.stdout.write(md)
