// In-process timing of the `read` stage alone: items are pulled and counted, nothing is written.
// This is the figure to set beside MNE's read_raw_edf(preload=True), which also only reads.
//   npx tsx bench/read-stage.ts [file.edf|wfdb-record] [--runs 3]
import path from 'node:path'
import read from '../src/stages/read.ts'
import { localStageContext } from '../src/run/local-context.ts'
import { guessFormat } from '../src/formats/recording-name.ts'
import type { Item } from '../src/core/items.ts'

const args = process.argv.slice(2)
const runsAt = args.indexOf('--runs')
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3
const file = path.resolve(args.find((a, i) => !a.startsWith('--') && i !== runsAt + 1) ?? 'bench/data/mitbih100_24h.edf')
const record = { id: 'bench', path: file, format: guessFormat(file), annotator: 'atr' as const, annotatorExplicit: false }
const options = read.parseOptions!({}, { file: 'bench', yamlPath: 'stages[0]' })

async function once(): Promise<{ ms: number; blocks: number; samples: number; annotations: number }> {
  const ctx = localStageContext(record, options, { signal: new AbortController().signal, warn() {}, what: 'bench/read-stage.ts' })
  let blocks = 0
  let samples = 0
  let annotations = 0
  const t0 = performance.now()
  async function* none(): AsyncGenerator<Item> {}
  for await (const item of read.transform(none(), ctx)) {
    if (item.kind === 'block') {
      blocks++
      samples += (item as { leads: Float32Array[] }).leads[0].length
    } else if (item.kind === 'annotation') annotations++
  }
  return { ms: performance.now() - t0, blocks, samples, annotations }
}

const results = []
for (let i = 0; i < runs; i++) results.push(await once())
const ms = results.map((r) => r.ms).sort((a, b) => a - b)
const r = results[0]
console.log(`${path.relative(process.cwd(), file)}: ${r.blocks} blocks, ${r.samples} samples per lead, ${r.annotations} annotations`)
console.log(`read stage: median ${(ms[Math.floor(ms.length / 2)] / 1000).toFixed(3)} s of ${runs} runs (${ms.map((x) => (x / 1000).toFixed(3)).join(', ')}); peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`)
console.log(JSON.stringify({ readSec: ms[Math.floor(ms.length / 2)] / 1000, annotations: r.annotations, samples: r.samples }))
