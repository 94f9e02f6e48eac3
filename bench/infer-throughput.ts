// The infer stage's throughput against an API model (issue 14's bench): `pipeline run` children
// evaluating N QA items with text inputs (N = 500, 1000, 2000) on one openai-compatible model
// (concurrency 16, retries 0) served by the real chat-completions test server on 127.0.0.1
// (test/helpers/chat-server.ts), in this process, answering each request after 200 ms. At 16 in
// flight and 200 ms a call, 80 items/s is the ceiling; the target is at least 70, never more than
// 16 requests in flight (the server counts them) and a peak RSS that does not grow from 500 to
// 2,000 items.
// The items are real: the bundled MIT-BIH records (samples/) through read -> annotate -> quality
// -> clean -> detect -> excerpt (1-minute tiles, stratified, 60 an hour: every clean tile) ->
// render-text (lead 0, 100 Hz) -> qa (the ten question tasks, text inputs), each recording listed
// `--copies` times under other ids, so the excerpt stage's seeded offset (seed:recordId) and the
// qa stage's choices differ and no two items send the same request (a repeat would be answered
// from the run's cache and flatter the figure; the server's repeatedCompleted() checks it). That
// run is exported (`pipeline qa export`), and the input of size N is the export's first N items
// (records in the folder's order, a copy of each recording in turn, the last record cut), written
// as an exported folder of its own: items and input files as exported, none changed.
// Each measurement has a fresh server and a fresh cache folder, so every item is a call. The
// infer phase's items/s is N over the time from the first request's arrival to the last answer
// sent, both taken at the server; the run's is N over its run-start..run-end time. The benchmark
// run's own directory as the input (every item it holds) is measured beside them.
//
//   npx tsx bench/infer-throughput.ts [--runs 3] [--sizes 500,1000,2000] [--copies 5] [--delay 200] [--records 2] [--rev <rev> | --tree <dir>]
// --rev measures that revision's bundle (extracted and built in bench/data, while src/ is being
// edited); --tree another checkout whose dist/ is built (a patched copy, for an experiment).
import { execFileSync } from 'node:child_process'
import { copyFile, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startChatServer } from '../test/helpers/chat-server.ts'
import { buildBundle } from './bench-setup.ts'
import { measurePipelineRun, median } from './measure-child.ts'
import { writeResultsKeepingNotes } from './results-file.ts'
import { resultsTable, revisionBundle } from './side-by-side.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const DIR = path.join(here, 'data/infer')
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, sizes: { type: 'string', default: '500,1000,2000' }, copies: { type: 'string', default: '5' }, delay: { type: 'string', default: '200' }, records: { type: 'string', default: '2' }, rev: { type: 'string' }, tree: { type: 'string' } } })
const runs = Number(args.runs)
const sizes = args.sizes!.split(',').map(Number)
const delayMs = Number(args.delay)
const CONCURRENCY = 16
const log = (s: string) => process.stderr.write(s + '\n')
// The tree whose bundle builds the items and is measured; a revision is pinned to its commit
// first, as the branch may move while the benchmark runs.
const tree = args.rev ? revisionBundle(execFileSync('git', ['rev-parse', args.rev], { cwd: root, encoding: 'utf8' }).trim()) : { name: args.tree ? path.resolve(args.tree) : 'the working tree', dir: path.resolve(args.tree ?? root), remove: () => undefined }
if (!args.rev && !args.tree) buildBundle()
const cli = (argv: string[]) => execFileSync(process.execPath, [path.join(tree.dir, 'dist/cli.mjs'), ...argv], { cwd: tree.dir, stdio: ['ignore', 'ignore', 'inherit'] })

const RECORDINGS = [['100', 'mitdb/100'], ['101', 'mitdb/101'], ['102', 'edf/mitdb102.edf'], ['208', 'mitdb/208']]
const TASKS = 'closed_presence, closed_event_counting, closed_event_timing, closed_HR_extremum_timing, closed_diagnosis, open_event_counting, open_HR_extremum_timing, open_event_timing, open_diagnosis, open_evidence_reasoning'

/** The benchmark run (every recording `copies` times) and its export; returns the export folder. */
async function buildItems(copies: number): Promise<string> {
  // The dataset refuses a path listed twice: each copy reads samples/ through a link of its own.
  await mkdir(path.join(DIR, 'copies'), { recursive: true })
  for (let k = 1; k <= copies; k++) {
    const link = path.join(DIR, 'copies', `c${k}`)
    await rm(link, { force: true })
    await symlink(path.join(root, 'samples'), link)
  }
  const records = Array.from({ length: copies }, (_, k) => RECORDINGS.map(([id, p]) => `  - {id: c${k + 1}-${id}, path: ${path.join(DIR, 'copies', `c${k + 1}`, p)}}`)).flat()
  const yaml = path.join(DIR, 'infer-base.yaml')
  await writeFile(yaml, [
    '# written by bench/infer-throughput.ts', 'name: infer-base', 'records:', ...records, 'stages:',
    '  - read', '  - annotate', '  - quality', '  - clean', '  - detect',
    '  - {use: excerpt, options: {set: q, stratified: {lengthSec: 60, perHour: 60, seed: 1}}}',
    '  - {use: render-text, options: {windows: false, excerpts: [q], rate: 100, leads: [0], file: qa-text.txt}}',
    `  - {use: qa, options: {seed: 1, sets: {q: {tasks: [${TASKS}], inputs: [text]}}, budgets: {maxTextTokens: 32000}}}`,
    'output: {exclude: [block, annotation, beat, window, quality, excerpt, rhythm, render]}',
  ].join('\n') + '\n')
  cli(['run', yaml, '--out', path.join(DIR, 'base'), '--restart'])
  cli(['qa', 'export', path.join(DIR, 'base'), path.join(DIR, 'export'), '--inputs', 'copy'])
  return path.join(DIR, 'export')
}

interface Gold { id: string; recordId: string; excerpt: { startSample: number }; inputs: { text: string } }

/** An exported folder of the first `n` items of `src` (its replay order); returns it with the items' records. */
async function subsetFolder(src: string, n: number): Promise<{ dir: string; records: number; excerpts: number }> {
  const taskFiles: string[] = []
  for (const split of await readdir(src)) {
    if (split === 'inputs') continue
    for (const tier of await readdir(path.join(src, split))) {
      for (const f of await readdir(path.join(src, split, tier))) if (f.endsWith('.gold.ndjson')) taskFiles.push(`${split}/${tier}/${f.slice(0, -'.gold.ndjson'.length)}`)
    }
  }
  const all: Gold[] = []
  for (const t of taskFiles) all.push(...(await readFile(path.join(src, `${t}.gold.ndjson`), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Gold))
  // The order input-qa-folder.ts replays: records by id (numeric), then excerpt start, then id.
  all.sort((a, b) => a.recordId.localeCompare(b.recordId, 'en', { numeric: true }) || a.excerpt.startSample - b.excerpt.startSample || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  if (all.length < n) throw new Error(`the export holds ${all.length} items, fewer than ${n}: give more --copies`)
  const kept = new Set(all.slice(0, n).map((g) => g.id))
  const dir = path.join(DIR, `items-${n}`)
  await rm(dir, { recursive: true, force: true })
  for (const t of taskFiles) {
    const gold = (await readFile(path.join(src, `${t}.gold.ndjson`), 'utf8')).trim().split('\n')
    const elements = JSON.parse(await readFile(path.join(src, `${t}.json`), 'utf8')) as unknown[]
    const keep = gold.map((l) => kept.has((JSON.parse(l) as Gold).id))
    if (!keep.includes(true)) continue
    await mkdir(path.dirname(path.join(dir, t)), { recursive: true })
    // The layout qa-export.ts writes: 2-space JSON elements, indented by 2, one per line group.
    await writeFile(path.join(dir, `${t}.json`), `[\n${elements.filter((_, i) => keep[i]).map((e) => JSON.stringify(e, null, 2).replace(/^/gm, '  ')).join(',\n')}\n]\n`)
    await writeFile(path.join(dir, `${t}.gold.ndjson`), gold.filter((_, i) => keep[i]).join('\n') + '\n')
  }
  const items = all.slice(0, n)
  const texts = new Set(items.map((g) => g.inputs.text))
  const manifest = JSON.parse(await readFile(path.join(src, 'inputs/manifest.json'), 'utf8')) as { files: { path: string }[] }
  for (const p of texts) {
    await mkdir(path.dirname(path.join(dir, p)), { recursive: true })
    await copyFile(path.join(src, p), path.join(dir, p))
  }
  await writeFile(path.join(dir, 'inputs/manifest.json'), JSON.stringify({ ...manifest, files: manifest.files.filter((f) => texts.has(f.path)) }, null, 2) + '\n')
  return { dir, records: new Set(items.map((g) => g.recordId)).size, excerpts: texts.size }
}

interface Measured { wall: number[]; inRun: number[]; inferRate: number[]; runRate: number[]; maxInFlight: number[]; meanInFlight: number[]; rss: number[]; cpu: number[] }

/** One `pipeline run` of the infer stage over `input` against a fresh server and cache. */
async function measure(name: string, input: string, n: number, into: Measured): Promise<string> {
  const arrived: number[] = []
  const answered: number[] = []
  const server = await startChatServer({
    delayMs,
    behave: () => void arrived.push(performance.now()),
    answer: () => (answered.push(performance.now()), 'B. The excerpt shows it.'),
  })
  try {
    const cache = path.join(DIR, `cache-${name}`)
    const out = path.join(DIR, `runs/infer-${name}`)
    await rm(cache, { recursive: true, force: true })
    const yaml = path.join(DIR, `infer-${name}.yaml`)
    await writeFile(yaml, [
      '# written by bench/infer-throughput.ts', `name: infer-${name}`, `concurrency: {records: ${Number(args.records)}}`,
      `input: {run: ${input}, kinds: [qa]}`, `cache: ${cache}`, 'stages:', '  - use: infer', '    options:', '      models:',
      `        - {name: bench, kind: openai-compatible, baseURL: "${server.url}", model: test-model, modality: text, concurrency: ${CONCURRENCY}, retries: 0, onError: item}`,
    ].join('\n') + '\n')
    const m = await measurePipelineRun(tree.dir, yaml, out)
    const predictions = (await readFile(path.join(out, 'prediction.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { error?: unknown; cached?: boolean })
    const bad = predictions.filter((p) => p.error || p.cached).length
    if (predictions.length !== n || bad || server.requests.length !== n || server.repeatedCompleted().length) {
      throw new Error(`infer-${name}: ${predictions.length} predictions (${bad} failed or cached), ${server.requests.length} requests (${server.repeatedCompleted().length} repeated); expected ${n} answered calls`)
    }
    const span = (Math.max(...answered) - Math.min(...arrived)) / 1000
    into.wall.push(m.wallSec)
    into.inRun.push(m.inRunSec)
    into.inferRate.push(n / span)
    into.runRate.push(n / m.inRunSec)
    into.maxInFlight.push(server.maxInFlight)
    // Time spent at the server summed over requests (no pairing needed), over the phase: the mean in flight.
    const busy = (answered.reduce((a, t) => a + t, 0) - arrived.reduce((a, t) => a + t, 0)) / 1000
    into.meanInFlight.push(busy / span)
    into.rss.push(m.peakRssBytes)
    into.cpu.push(m.cpuSec)
    return `${name} (${n} items): in run ${m.inRunSec.toFixed(2)} s, infer phase ${span.toFixed(2)} s = ${(n / span).toFixed(1)} items/s, in flight max ${server.maxInFlight} mean ${(busy / span).toFixed(1)}, CPU ${m.cpuSec.toFixed(1)} s, peak RSS ${(m.peakRssBytes / 1e6).toFixed(0)} MB`
  } finally {
    await server.close()
  }
}

interface Case { name: string; input: string; n: number; records: number; excerpts: number; label: string }
const cases: Case[] = []
const results = new Map<string, Measured>()
try {
  log('building the benchmark run and its export...')
  const exported = await buildItems(Number(args.copies))
  for (const n of sizes) {
    const sub = await subsetFolder(exported, n)
    cases.push({ name: String(n), ...sub, input: sub.dir, n, label: `${n}: exported folder` })
  }
  // Beside them, the benchmark run itself as the input (its run directory, every item it holds).
  const baseItems = (await readFile(path.join(DIR, 'base/qa.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { recordId: string; excerpt: { id: string } })
  cases.push({ name: 'run-dir', input: path.join(DIR, 'base'), n: baseItems.length, records: new Set(baseItems.map((q) => q.recordId)).size, excerpts: new Set(baseItems.map((q) => q.excerpt.id)).size, label: `${baseItems.length}: the run directory itself` })
  for (const c of cases) results.set(c.name, { wall: [], inRun: [], inferRate: [], runRate: [], maxInFlight: [], meanInFlight: [], rss: [], cpu: [] })
  for (let round = 1; round <= runs; round++) {
    for (const c of cases) log(`round ${round}/${runs} ${await measure(c.name, c.input, c.n, results.get(c.name)!)}`)
  }
} finally {
  tree.remove()
}

const range = (xs: number[], d: number) => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(d)}-${Math.max(...xs).toFixed(d)})` : '')
const rows = cases.map((c) => {
  const r = results.get(c.name)!
  return `| ${c.label} (${c.records} records, ${c.excerpts} excerpts) | ${median(r.inferRate).toFixed(1)}${range(r.inferRate, 1)} | ${median(r.runRate).toFixed(1)} | ${median(r.inRun).toFixed(2)} | ${median(r.wall).toFixed(2)} | ${median(r.cpu).toFixed(2)} | ${Math.max(...r.maxInFlight)} | ${median(r.meanInFlight).toFixed(1)} | ${(median(r.rss) / 1e6).toFixed(0)}${range(r.rss.map((b) => b / 1e6), 0)} |`
})
const md = resultsTable('Infer throughput against a 200 ms chat-completions server', 'bench/infer-throughput.ts', [
  `Code measured: ${args.rev ? `revision ${tree.name} (--rev ${args.rev})` : tree.name}. Median of ${runs} interleaved round(s) (with the lowest and highest), ${os.availableParallelism()} CPUs (nproc). Each case is \`pipeline run\` (the bundle, dist/cli.mjs) of the infer stage alone over an exported QA folder of N items with text inputs (input: {run, kinds: [qa]}, concurrency.records ${Number(args.records)}), one openai-compatible model (modality text, concurrency ${CONCURRENCY}, retries 0), a fresh cache folder (every item is a call; checked: N requests, none repeated, N predictions without error), and test/helpers/chat-server.ts in the bench process answering every request after ${delayMs} ms. "Infer items/s" is N over first request arrival to last answer at the server; "run items/s" is N over run-start..run-end; CPU is the child's user + system time; peak RSS is its VmHWM (GNU time %M). The mean in flight is the requests' summed time at the server over that span. Ceiling: ${CONCURRENCY} in flight / ${delayMs} ms = ${((CONCURRENCY * 1000) / delayMs).toFixed(0)} items/s.`,
  `Items: the bundled MIT-BIH records 100, 101, 102 (EDF) and 208, each listed ${Number(args.copies)} times under other ids, through read -> annotate -> quality -> clean -> detect -> excerpt (1-minute tiles, stratified, perHour 60) -> render-text (lead 0, 100 Hz, about 24,000 tokens an item) -> qa (the ten question tasks); exported with \`pipeline qa export\`; the input of size N is the export's first N items in replay order (copies of the four recordings in turn, the last record cut), with their files as exported. The last row reads the benchmark run's own directory instead (input.run = the run, every item it holds).`,
  'Targets (issue): at least 70 items/s (near the 80 the latency allows), never more than 16 in flight, peak RSS flat between 500 and 2,000 items.',
], ['items (input)', 'infer items/s', 'run items/s', 'in run s', 'wall s', 'CPU s', 'max in flight', 'mean in flight', 'peak RSS MB'], rows)
await writeResultsKeepingNotes(path.join(here, 'results/infer-throughput.md'), md)
process.stdout.write(md)
