// The floor that the item design puts under `read -> clean -> detect -> summarize` on the 24 h
// benchmark file (issue 3's speed target): the same pipeline run, the same record sink and the
// same items (8,640 blocks, 108,768 annotations, 108,720 beats through four stages, beats
// written as NDJSON, blocks and annotations excluded), with every stage replaced by a plugin
// that does no signal processing (flow-floor/stage.mjs). Run beside the real chain in the same
// rounds, so the two compare on this machine's speed of the moment. Cases: all items; without
// the annotations (as `read: {annotations: false}`); blocks alone.
//
//   npx tsx bench/flow-floor.ts [--runs 5]        (writes bench/results/flow-floor.md)
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
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } })
const runs = Number(args.runs)
const log = (s: string) => process.stderr.write(s + '\n')

const floor = (role: string, options = '') => `  - {use: ../flow-floor/stage.mjs, options: {role: ${role}${options}}}`
const CASES = [
  { name: 'floor', what: 'no signal processing: all items (blocks, annotations, beats)', stages: [floor('source'), floor('pass'), floor('beats'), floor('pass')] },
  { name: 'floor-noann', what: 'no signal processing: blocks and beats', stages: [floor('source', ', annotations: 0'), floor('pass'), floor('beats'), floor('pass')] },
  { name: 'floor-blocks', what: 'no signal processing: blocks alone', stages: [floor('source', ', annotations: 0'), floor('pass'), floor('beats', ', beats: 0'), floor('pass')] },
  { name: 'chain', what: 'read -> clean -> detect -> summarize (the real stages)', stages: ['  - read', '  - clean', '  - detect', '  - summarize'] },
  { name: 'chain-noann', what: 'the same, annotations not read', stages: ['  - {use: read, options: {annotations: false}}', '  - clean', '  - detect', '  - summarize'] },
]

await ensureTiledFiles(log)
buildBundle()
const file24 = path.basename(TILED_FILES.find((f) => f.name === '24h')!.file)
for (const c of CASES) {
  await writeBenchDataset({ script: 'flow-floor.ts', name: `flow-${c.name}`, record: `{id: 24h, path: ${file24}, leads: [0]}`, stages: c.stages, exclude: ['block', 'annotation'] })
}

const results = new Map<string, { inRun: number[]; cpu: number[]; rss: number[]; beats: number }>()
for (let round = 1; round <= runs; round++) {
  for (const c of CASES) {
    const out = path.join(DATA_DIR, 'runs', `flow-${c.name}`)
    const m = await measurePipelineRun(root, path.join(DATA_DIR, `flow-${c.name}.yaml`), out)
    const events = (await readFile(path.join(out, 'progress.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { t: string; items?: Record<string, number> })
    const r = results.get(c.name) ?? { inRun: [], cpu: [], rss: [], beats: 0 }
    r.inRun.push(m.inRunSec)
    r.cpu.push(m.cpuSec)
    r.rss.push(m.peakRssBytes)
    r.beats = events.find((e) => e.t === 'record-done')?.items?.beat ?? 0
    results.set(c.name, r)
    log(`round ${round}/${runs} ${c.name.padEnd(12)} in run ${r.inRun.at(-1)!.toFixed(2)} s, CPU ${m.cpuSec.toFixed(2)} s`)
  }
}

const rows = CASES.map((c) => {
  const r = results.get(c.name)!
  return `| ${c.what} | ${median(r.inRun).toFixed(2)} (${Math.min(...r.inRun).toFixed(2)}-${Math.max(...r.inRun).toFixed(2)}) | ${median(r.cpu).toFixed(2)} | ${(median(r.rss) / 1e6).toFixed(0)} | ${r.beats} |`
})
const md = resultsTable("The item flow's floor under the 24 h chain", 'bench/flow-floor.ts', [
  `Median (min-max) of ${runs} interleaved rounds. "In run" is run-start to run-end; "CPU" is user + system over all threads, startup included (GNU time).`,
  'The floor cases run the same pipeline, sink and items as the chain with plugin stages that do no signal processing (bench/flow-floor/stage.mjs).',
], ['case', 'in run s', 'CPU s', 'peak RSS MB', 'beats written'], rows)
await writeResultsKeepingNotes(path.join(here, 'results/flow-floor.md'), md)
process.stdout.write(md)
