// By-hand benchmark of the per-lead DSP kernels of issue 3: `clean` (createLeadCleaner: zero-phase
// 0.5 Hz high-pass + powerline moving average) and the QRS detector (createQrsDetector), each over
// 24 h of MIT-BIH record 100 lead 0 at 360 Hz (its first 1800 s repeated 48 times, like
// bench/data/mitbih100_24h.edf), fed in blocks of 3600 samples as the read stage yields them.
// A third row runs the whole `clean` stage over both leads (Float32 blocks in and out, as in a
// pipeline), per lead. The 30 min tile is read once through the read stage (mV) and fed
// cyclically, so the benchmark itself holds 10 MB, not a 24 h array.
// `--baseline <rev>` extracts src/ of that git revision into bench/data/rev-* (side-by-side.ts)
// and runs its kernels too, interleaved round by round in the same process: timing on these shared 2-vCPU machines varies by 2x with other people's load, so
// compare the columns of one run, not runs with each other. "best" is the fastest round (the
// least disturbed one). It also checks that both revisions give the same beats and how far
// their clean outputs differ.
//   npx tsx bench/dsp-kernels.ts [--baseline <rev>] [--rounds 3] [--hours 24] [--no-write]
//   (writes bench/results/dsp-kernels.md, keeping its hand-written part from "## Notes" on)
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import read from '../src/stages/read.ts'
import type { Item, SampleBlock } from '../src/core/items.ts'
import type { Stage } from '../src/core/stage.ts'
import { readContext, recordSpec } from '../test/helpers/read-record.ts'
import { ROOT, sharedPath } from '../test/helpers/shared.ts'
import { testContext } from '../test/helpers/stage-context.ts'
import { writeResultsKeepingNotes } from './results-file.ts'
import { revisionSources } from './side-by-side.ts'

const FS = 360
const TILE = 1800 * FS
const BLOCK = 3600
const OPTIONS = { method: 'neurokit' as const, highpassHz: 0.5, order: 5, powerlineHz: 50, zeroPhase: true }

const args = process.argv.slice(2)
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const rounds = Number(arg('--rounds') ?? 3)
const hours = Number(arg('--hours') ?? 24)
const baselineRev = arg('--baseline')
const total = Math.round(hours * 3600 * FS)

interface Kernels {
  name: string
  createLeadCleaner(options: typeof OPTIONS, fs: number): { push(x: Float64Array): Float64Array; finish(): Float64Array }
  createQrsDetector(options: { fs: number }): { push(x: Float32Array, start: number): number[]; finish(): number[] }
  clean: Stage<unknown>
}

type Load = <T>(rel: string) => Promise<T>

async function loadKernels(name: string, load: Load): Promise<Kernels> {
  const { default: clean, createLeadCleaner: inStage } = await load<{ createLeadCleaner?: Kernels['createLeadCleaner']; default: Stage<unknown> }>('src/stages/clean.ts')
  // Revisions before the filter chain moved to src/dsp exported it from the stage.
  const createLeadCleaner = inStage ?? (await load<{ createLeadCleaner: Kernels['createLeadCleaner'] }>('src/dsp/ecg-clean.ts')).createLeadCleaner
  const { createQrsDetector } = await load<{ createQrsDetector: Kernels['createQrsDetector'] }>('src/dsp/qrs-detector.ts')
  return { name, createLeadCleaner, createQrsDetector, clean }
}

// The first 1800 s of both leads in mV, as Float32 (what the read stage yields), and lead 0 as Float64 (what the cleaner takes).
async function readTile(): Promise<{ leads: Float32Array[]; f64: Float64Array }> {
  const leads = [new Float32Array(TILE), new Float32Array(TILE)]
  let n = 0
  for await (const item of read.transform((async function* () {})(), readContext(recordSpec(sharedPath('data/mitdb/100'))))) {
    if ((item as Item).kind !== 'block' || n >= TILE) continue
    const k = Math.min((item as SampleBlock).leads[0].length, TILE - n)
    leads.forEach((lead, l) => lead.set((item as SampleBlock).leads[l].subarray(0, k), n))
    n += k
  }
  if (n < TILE) throw new Error(`record 100 gave ${n} samples, expected at least ${TILE}`)
  return { leads, f64: Float64Array.from(leads[0]) }
}

// Calls fn(block, startSample) for `samples` samples of the tile repeated, in blocks of BLOCK.
function feed<T extends Float32Array | Float64Array>(tile: T, samples: number, fn: (x: T, at: number) => void): void {
  for (let at = 0; at < samples; at += BLOCK) {
    const o = at % TILE
    fn(tile.subarray(o, o + Math.min(BLOCK, samples - at, TILE - o)) as T, at)
  }
}

// Cleans `samples` samples of lead 0; `sink` sees every output block (for the comparison pass only).
function timeClean(k: Kernels, tile: Float64Array, samples: number, sink?: (y: Float64Array) => void): number {
  const cleaner = k.createLeadCleaner(OPTIONS, FS)
  let out = 0
  const t = performance.now()
  feed(tile, samples, (x) => {
    const y = cleaner.push(x)
    out += y.length
    sink?.(y)
  })
  const rest = cleaner.finish()
  sink?.(rest)
  const ms = performance.now() - t
  if (out + rest.length !== samples) throw new Error(`${k.name} clean returned ${out + rest.length} samples for ${samples}`)
  return ms
}

// The clean stage over both leads; returns ms per lead (the time divided by 2).
async function timeCleanStage(k: Kernels, leads: Float32Array[], samples: number): Promise<number> {
  async function* blocks(): AsyncGenerator<Item> {
    for (let at = 0; at < samples; at += BLOCK) {
      const o = at % TILE
      const n = Math.min(BLOCK, samples - at, TILE - o)
      yield { kind: 'block', recordId: 'bench', fs: FS, startSample: at, labels: ['MLII', 'V5'], leads: leads.map((l) => l.subarray(o, o + n)) } as SampleBlock
    }
  }
  const ctx = testContext(k.clean, {}, recordSpec(sharedPath('data/mitdb/100')), [])
  let out = 0
  const t = performance.now()
  for await (const item of k.clean.transform(blocks(), ctx)) if ((item as Item).kind === 'block') out += (item as SampleBlock).leads[0].length
  const ms = performance.now() - t
  if (out !== samples) throw new Error(`${k.name} clean stage returned ${out} samples for ${samples}`)
  return ms / 2
}

function timeDetect(k: Kernels, tile: Float32Array, samples: number): { ms: number; beats: number[] } {
  const det = k.createQrsDetector({ fs: FS })
  const beats: number[] = []
  const t = performance.now()
  feed(tile, samples, (x, at) => {
    for (const b of det.push(x, at)) beats.push(b)
  })
  for (const b of det.finish()) beats.push(b)
  return { ms: performance.now() - t, beats }
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]

const tile = await readTile()
const kernels = [await loadKernels('current', async (rel) => await import(pathToFileURL(path.join(ROOT, rel)).href))]
const baseline = baselineRev ? revisionSources(baselineRev) : null
if (baseline) kernels.unshift(await loadKernels(`baseline ${baseline.name}`, baseline.load))

const WHAT = ['clean (lead 0)', 'clean stage (2 leads, per lead)', 'detect (lead 0)'] as const
try {
  // Agreement first (1 h of clean output; all beats of the timed span, from the first round).
  const checks: string[] = []
  if (kernels.length === 2) {
    const outs = kernels.map((k) => {
      const y = new Float32Array(3600 * FS)
      let o = 0
      timeClean(k, tile.f64, y.length, (b) => {
        y.set(b, o)
        o += b.length
      })
      return y
    })
    let maxDiff = 0
    for (let i = 0; i < outs[0].length; i++) maxDiff = Math.max(maxDiff, Math.abs(outs[0][i] - outs[1][i]))
    checks.push(`clean, first hour as Float32: max |current - baseline| = ${maxDiff.toExponential(2)} mV`)
  }

  const times = kernels.map(() => WHAT.map(() => [] as number[]))
  const beatSets: number[][] = []
  for (let r = 0; r < rounds; r++) {
    for (const [i, k] of kernels.entries()) {
      times[i][0].push(timeClean(k, tile.f64, total))
      times[i][1].push(await timeCleanStage(k, tile.leads, total))
      const d = timeDetect(k, tile.leads[0], total)
      times[i][2].push(d.ms)
      if (r === 0) beatSets[i] = d.beats
    }
    console.log(`round ${r + 1}: ${kernels.map((k, i) => `${k.name} ${WHAT.map((w, j) => `${w.split(' ')[0]}${j === 1 ? ' stage' : ''} ${(times[i][j][r] / 1000).toFixed(2)} s`).join(', ')}`).join('; ')}`)
  }
  if (beatSets.length === 2) {
    const same = beatSets[0].length === beatSets[1].length && beatSets[0].every((b, i) => b === beatSets[1][i])
    checks.push(`detector beats over ${hours} h: ${beatSets[1].length} current, ${beatSets[0].length} baseline, ${same ? 'identical' : 'DIFFERENT'}`)
  }

  const ns = (ms: number) => ((ms * 1e6) / total).toFixed(1)
  const perDay = (ms: number) => (((ms / total) * 86400 * FS) / 1000).toFixed(2)
  const rows = WHAT.flatMap((what, j) =>
    kernels.map((k, i) => {
      const m = median(times[i][j])
      const best = Math.min(...times[i][j])
      const ratio = kernels.length === 2 && i === 1 ? `${(median(times[0][j]) / m).toFixed(1)}x (best ${(Math.min(...times[0][j]) / best).toFixed(1)}x)` : ''
      return `| ${what} | ${k.name} | ${ns(m)} | ${perDay(m)} | ${ns(best)} | ${perDay(best)} | ${times[i][j].map((t) => (t / 1000).toFixed(2)).join(', ')} | ${ratio} |`
    }),
  )
  const table = [
    '| kernel | code | ns/sample (median) | s per 24 h lead (median) | ns/sample (best) | s per 24 h lead (best) | each round, s | speed-up |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n')
  console.log(`\n${table}\n\n${checks.join('\n')}`)
  if (!args.includes('--no-write')) {
    const md = [
      '# DSP kernels: clean and QRS detection per lead',
      '',
      `\`npx tsx bench/dsp-kernels.ts ${args.join(' ')}\` (${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} vCPU ${os.cpus()[0]?.model ?? ''}).`,
      `${hours} h of MIT-BIH record 100 (first 1800 s tiled), ${FS} Hz, blocks of ${BLOCK}; ${rounds} interleaved rounds.`,
      '"s per 24 h lead" scales to 86,400 s at 360 Hz (31.1 M samples); "best" is the fastest round.',
      '',
      table,
      '',
      ...checks.map((c) => `- ${c}`),
      '',
    ].join('\n')
    await writeResultsKeepingNotes(path.join(ROOT, 'bench/results/dsp-kernels.md'), md)
  }
} finally {
  baseline?.remove()
}
