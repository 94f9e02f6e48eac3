// The render benchmark of issue 4: `pipeline run` on lead 0 of the 24 h benchmark file
// (build-tiled-edf.ts) with read -> segment (10 s) -> one render stage: (a) render-text, (b)
// render-strip with one PNG per window (8,640), (c) render-video with one MP4 of a frame per
// window (8,640 frames), and read -> segment alone as the yardstick for (a) ("text for 24 h at
// least as fast as reading the file"). Each case is a child process (wall time, CPU time of it
// and its children, ffmpeg included, from GNU time; peak RSS of the pipeline process, of ffmpeg
// and of the two together, sampled from /proc every 50 ms by measure-child.ts); rounds are
// interleaved and the median is reported; (a)-(c) also run on the 1 h file, to show that peak
// RSS does not grow with duration. Writes results/render-24h.md, keeping its notes.
//
//   npx tsx bench/render-24h.ts [--runs 1] [--cases read,text,png,mp4,text-1h,png-1h,mp4-1h] [--threads 1] [--before <rev>]
// With --before, every case also runs on that revision's bundle right after the current one.
import { readFile, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DATA_DIR, TILED_FILES, ensureTiledFiles } from './build-tiled-edf.ts'
import { measurePipelineRun, median } from './measure-child.ts'
import { resultsTable } from './side-by-side.ts'
import { writeResultsKeepingNotes } from './results-file.ts'
import { buildBundle, writeBenchDataset } from './bench-setup.ts'
import { revisionBundle } from './side-by-side.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '1' }, cases: { type: 'string', default: 'read,text,png,mp4,clips,text-1h,png-1h,mp4-1h,clips-1h' }, threads: { type: 'string', default: '1' }, before: { type: 'string' } } })
const runs = Number(args.runs)
const threads = Number(args.threads)
const log = (s: string) => process.stderr.write(s + '\n')

// `before`: the stage lines for a revision before the excerpt stage (issue 12), whose render-video took clip options of its own.
const CASES: { name: string; what: string; stage: string | null; annotate?: boolean; before?: string[] }[] = [
  { name: 'read', what: 'read -> segment (no render: the yardstick for text)', stage: null },
  { name: 'text', what: '(a) read -> segment -> render-text (lead 0, mV, 3 decimals)', stage: '  - render-text' },
  { name: 'png', what: '(b) read -> segment -> render-strip (one PNG per 10 s window)', stage: `  - {use: render-strip, options: {markers: none, threads: ${threads}}}` },
  { name: 'mp4', what: '(c) read -> segment -> render-video (one MP4, a frame per 10 s window)', stage: `  - {use: render-video, options: {markers: none, threads: ${threads}}}` },
  // Each clip has an ffmpeg of its own beside the record's: two encoders at once.
  // Clips of 10 s strips stepping by 0.5 s over +-10 s of each V: 21 frames, in both versions.
  { name: 'clips', what: '(c) with a clip around each reference V (read -> annotate -> segment -> excerpt -> render-video with clips)', stage: `  - {use: excerpt, options: {set: v, around: {labels: [V], padSec: 10}}}\n  - {use: render-video, options: {markers: none, threads: ${threads}, clips: {excerpts: v}}}`, annotate: true, before: [`  - {use: render-video, options: {markers: none, threads: ${threads}, clips: {labels: [V], padSec: 5}}}`] },
]
// The same on the 1 h file: peak RSS should not depend on the duration.
const ALL = [...CASES.map((c) => ({ ...c, file: '24h', frames: 8640 })), ...CASES.filter((c) => c.stage).map((c) => ({ ...c, name: `${c.name}-1h`, what: `${c.what}, 1 h file`, file: '1h', frames: 360 }))]
const SELECTED = ALL.filter((c) => args.cases!.split(',').includes(c.name))

await ensureTiledFiles(log)
buildBundle()
const before = args.before ? revisionBundle(args.before) : null
if (before) process.once('exit', () => before.remove())
for (const c of SELECTED) {
  const file = path.basename(TILED_FILES.find((f) => f.name === c.file)!.file)
  const head = [`  - {use: read, options: {annotations: ${c.annotate === true}}}`, ...(c.annotate ? ['  - annotate'] : []), '  - segment']
  await writeBenchDataset({ script: 'render-24h.ts', name: `render-${c.name}`, record: `{id: day, path: ${file}, leads: [0]}`, stages: [...head, ...(c.stage ? [c.stage] : [])], exclude: ['block', 'window'] })
  if (before) await writeBenchDataset({ script: 'render-24h.ts', name: `render-${c.name}-before`, record: `{id: day, path: ${file}, leads: [0]}`, stages: [...head, ...(c.before ?? (c.stage ? [c.stage] : []))], exclude: ['block', 'window'] })
}

interface Measured { inRun: number[]; wall: number[]; cpu: number[]; rss: number[]; ffmpeg: number[]; sum: number[]; pss: number[]; outputs: string }
const results = new Map<string, Measured>()
for (let round = 1; round <= runs; round++) {
  for (const c of SELECTED) for (const version of before ? ['', '-before'] : ['']) {
    const out = path.join(DATA_DIR, 'runs', `render-${c.name}${version}`)
    const m = await measurePipelineRun(version ? before!.dir : root, path.join(DATA_DIR, `render-${c.name}${version}.yaml`), out, { tree: true })
    const key = `${c.name}${version}`
    const r = results.get(key) ?? { inRun: [], wall: [], cpu: [], rss: [], ffmpeg: [], sum: [], pss: [], outputs: '' }
    r.inRun.push(m.inRunSec)
    r.wall.push(m.wallSec)
    r.cpu.push(m.cpuSec)
    r.rss.push(m.tree!.peakByName.node ?? m.tree!.peakByName.MainThread ?? NaN)
    r.ffmpeg.push(m.tree!.peakByName.ffmpeg ?? 0)
    r.sum.push(m.tree!.peakSumBytes)
    r.pss.push(m.tree!.peakPssSumBytes)
    r.outputs = await describeOutputs(out)
    results.set(key, r)
    log(`round ${round}/${runs} ${key.padEnd(14)} in run ${r.inRun.at(-1)!.toFixed(2)} s, peak RSS ${mb(r.rss.at(-1)!)} MB (ffmpeg ${mb(r.ffmpeg.at(-1)!)}, together ${mb(r.sum.at(-1)!)}, PSS ${mb(r.pss.at(-1)!)}); ${r.outputs}`)
  }
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(0)
}

/** What a run wrote under media/: files, bytes, and the render items' frames. */
async function describeOutputs(runDir: string): Promise<string> {
  const media = path.join(runDir, 'media', 'day')
  const files = await readdir(media, { recursive: true }).catch(() => [] as string[])
  let bytes = 0
  let count = 0
  for (const f of files) {
    const s = await stat(path.join(media, f))
    if (s.isFile()) {
      bytes += s.size
      count++
    }
  }
  const renders = await readFile(path.join(runDir, 'render.ndjson'), 'utf8').catch(() => '')
  const frames = renders.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { frames?: number }).reduce((s, r) => s + (r.frames ?? 0), 0)
  return count ? `${count} files, ${(bytes / 1e6).toFixed(1)} MB${frames ? `, ${frames} frames` : ''}` : 'no media files'
}

const rows = SELECTED.flatMap((c) => (before ? [c, { ...c, name: `${c.name}-before`, what: `${c.what}, ${before.name}` }] : [c])).map((c) => {
  const r = results.get(c.name)!
  const inRun = median(r.inRun)
  const perSec = /^(png|mp4)/.test(c.name) ? (c.frames / inRun).toFixed(1) : ''
  const range = r.inRun.length > 1 ? ` (${Math.min(...r.inRun).toFixed(2)}-${Math.max(...r.inRun).toFixed(2)})` : ''
  return `| ${c.what} | ${inRun.toFixed(2)}${range} | ${median(r.wall).toFixed(1)} | ${median(r.cpu).toFixed(1)} | ${perSec} | ${mb(Math.max(...r.rss))} / ${mb(Math.max(...r.ffmpeg))} / ${mb(Math.max(...r.sum))} | ${mb(Math.max(...r.pss))} | ${r.outputs} |`
})
// The text target: render-text's own time (the text run less read -> segment) against read -> segment's.
const text = results.get('text')
const read = results.get('read')
if (text && read) {
  const own = median(text.inRun) - median(read.inRun)
  rows.push(`| render-text's own time: (a) less read -> segment, medians | ${own.toFixed(2)} | | | | | | ${own <= median(read.inRun) ? 'at most' : 'more than'} read -> segment's ${median(read.inRun).toFixed(2)} s |`)
}
const md = resultsTable('Rendering the 24 h benchmark file', 'bench/render-24h.ts', [
  `Median of ${runs} interleaved round(s) (in run: with the lowest and highest). Lead 0 of the 24 h file (360 Hz), raw signal, 10 s windows (8,640), no beat markers. "In run" is run-start to run-end;`,
  '"CPU" is user + system time of the pipeline process (all threads) and of ffmpeg, its child (GNU time). Peak RSS (the largest over the rounds): the pipeline process\'s own and ffmpeg\'s (the larger of two when a clip is encoded) are their kernel high-water marks (VmHWM); "together" is the largest sum of their VmRSS in samples every 50 ms, so it can miss a short peak and read below the pipeline\'s own mark. That sum counts the pages the processes share (ffmpeg\'s libraries) once per process; "peak PSS" is the largest sum of their proportional set sizes (smaps_rollup, same samples), which counts them once: the memory taken. The sampler runs on the same 2 cores during the timed runs.',
  'Targets (issue 4): the MP4 in under 3 minutes; peak RSS under 300 MB and independent of duration; text at least as fast as reading the file (here: render-text\'s own time at most that of read -> segment).',
], ['case', 'in run s', 'wall s', 'CPU s', 'frames/s', 'peak RSS MB: pipeline / ffmpeg / together', 'peak PSS MB, together', 'outputs'], rows)
await writeResultsKeepingNotes(path.join(here, 'results/render-24h.md'), md)
process.stdout.write(md)
