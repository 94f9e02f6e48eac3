// Formatting speed of render-text's windows (issue 4): the WebAssembly kernel against the
// JavaScript loop, in one process, alternating, on every window of MIT-BIH record 100 (lead 0,
// then both leads), 3 decimals and a comma, one window per call as the stage formats them.
// Reports the best of the rounds in ns a value and us a window. Writes results/text-format.md.
//
//   npx tsx bench/text-format.ts [--rounds 40]
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createWindowTextWriter, type WindowText } from '../src/render/window-text.ts'
import { windowsOf } from '../test/helpers/render-input.ts'
import { resultsTable } from './side-by-side.ts'
import { writeResultsKeepingNotes } from './results-file.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } })
const rounds = Number(args.rounds)

const windows = await windowsOf('100')
const layouts: [string, WindowText[]][] = [
  ['lead 0 (3,600 values a window)', windows.map((w) => ({ labels: [w.labels[0]], startMs: w.startMs, rate: w.fs, leads: [w.samples[0]] }))],
  ['both leads (7,200 values a window)', windows.map((w) => ({ labels: w.labels, startMs: w.startMs, rate: w.fs, leads: w.samples }))],
]
const sep = Uint8Array.of(44)
const rows: string[] = []
for (const [what, texts] of layouts) {
  const values = texts.reduce((n, t) => n + t.leads.reduce((m, x) => m + x.length, 0), 0)
  const writers = { wasm: createWindowTextWriter(3, sep), js: createWindowTextWriter(3, sep, { wasm: false }) }
  const best = { wasm: Infinity, js: Infinity }
  const bytes = { wasm: 0, js: 0 }
  for (let r = 0; r < rounds; r++) {
    // The order alternates from round to round, so neither always runs first.
    for (const kind of r % 2 ? (['js', 'wasm'] as const) : (['wasm', 'js'] as const)) {
      const t0 = performance.now()
      let n = 0
      for (const t of texts) n += writers[kind].format(t).bytes.length
      best[kind] = Math.min(best[kind], performance.now() - t0)
      bytes[kind] = n
    }
  }
  if (bytes.wasm !== bytes.js) throw new Error(`the two wrote different lengths (${bytes.wasm} and ${bytes.js} bytes)`)
  for (const kind of ['wasm', 'js'] as const) {
    rows.push(`| ${what} | ${kind === 'wasm' ? 'WebAssembly kernel' : 'JavaScript (formatRun3)'} | ${((best[kind] * 1e6) / values).toFixed(2)} | ${((best[kind] * 1e3) / texts.length).toFixed(1)} |`)
  }
  process.stderr.write(`${what}: wasm ${((best.wasm * 1e6) / values).toFixed(2)} ns a value, js ${((best.js * 1e6) / values).toFixed(2)}\n`)
}
const md = resultsTable('Formatting render-text windows', 'bench/text-format.ts', [
  `Every window of MIT-BIH record 100 (180 windows of 10 s, 360 Hz), formatted one per call by createWindowTextWriter (src/render/window-text.ts) at 3 decimals with a comma, with its tokens counted; the best of ${rounds} alternating rounds.`,
  'The time includes the line heads, copying the values into the kernel\'s memory and counting tokens; not the copy into the file\'s chunks.',
], ['layout', 'formatter', 'ns a value', 'us a window'], rows)
await writeResultsKeepingNotes(path.join(here, 'results/text-format.md'), md)
process.stdout.write(md)
