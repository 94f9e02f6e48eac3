// Speed of the streaming QRS detector (src/dsp/qrs-*.ts), before and after, in one run. The
// "before" version is the revision's src/ (`git archive` into bench/data/rev-*, never into src/:
// side-by-side.ts, revisionSources) and runs side by side with the current one on the same
// stream: every block the read stage yields (lead 0, raw signal) goes to both detectors, in
// alternating order, each call timed on its own (side-by-side.ts, alternating), so both
// see the same machine load and their ratio holds even on a busy shared machine. The current
// version runs once per front-end kernel named by --kernels (qrs-front-end.ts: 'js' is the
// fallback where WebAssembly SIMD is missing, 'wasm' the default). All
// versions' beats are compared sample for sample. Records: MIT-BIH 100, 101, 102, 208 (360 Hz, 30 min), the 23 h
// Icentia11k recording (20 segments as one record, 250 Hz) and the tiled 24 h EDF+ file
// (record 100 at 360 Hz, bench/build-tiled-edf.ts). Each figure is the median of the runs.
//
//   npx tsx bench/qrs-speed.ts [--before <rev>] [--kernels js,wasm] [--runs 3] [--no-24h]
//   (writes bench/results/qrs-speed.md, keeping its hand-written part from "## Notes" on;
//   --before defaults to the last commit before the speed work)
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { Item, SampleBlock } from '../src/core/items.ts'
import { createQrsDetector, type QrsDetector, type QrsDetectorOptions } from '../src/dsp/qrs-detector.ts'
import type { QrsKernel } from '../src/dsp/qrs-front-end.ts'
import read from '../src/stages/read.ts'
import { readContext, recordSpec } from '../test/helpers/read-record.ts'
import { ROOT } from '../test/helpers/shared.ts'
import { median } from './measure-child.ts'
import { writeResultsKeepingNotes } from './results-file.ts'
import { alternating, replayCases, resultsTable, revisionSources } from './side-by-side.ts'

const BEFORE_REV = '1a935e34c93f90a327adfd5f1a06c6de2fb1522f' // the detector before the speed work

const { values: args } = parseArgs({
  options: { before: { type: 'string', default: BEFORE_REV }, kernels: { type: 'string', default: 'js,wasm' }, runs: { type: 'string', default: '3' }, 'no-24h': { type: 'boolean', default: false } },
})
const runs = Number(args.runs)
const kernels = args.kernels.split(',') as QrsKernel[]
const log = (s: string) => process.stderr.write(s + '\n')

type Create = (o: QrsDetectorOptions) => QrsDetector

interface Pass {
  samples: number
  fs: number
  beats: number
  /** Seconds inside each version's push/finish. */
  seconds: number[]
  /** First differing beat between the versions, if any. */
  differs: string | null
}

/** Streams `files` as one record into every version's detector. */
async function pass(files: string[], creates: Create[]): Promise<Pass> {
  const out: Pass = { samples: 0, fs: 0, beats: 0, seconds: creates.map(() => 0), differs: null }
  const beats: number[][] = creates.map(() => [])
  let dets: QrsDetector[] = []
  const timed = alternating(out.seconds)
  const each = (f: (d: QrsDetector) => number[]) => timed(dets, f).forEach((found, v) => beats[v].push(...found))
  let offset = 0
  for (const file of files) {
    let length = 0
    for await (const item of read.transform((async function* () {})(), readContext(recordSpec(file))) as AsyncIterable<Item>) {
      if (item.kind !== 'block') continue
      const block = item as SampleBlock
      if (dets.length === 0) {
        out.fs = block.fs
        dets = creates.map((c) => c({ fs: block.fs }))
      }
      const x = block.leads[0]
      const start = offset + block.startSample
      each((d) => d.push(x, start))
      length = Math.max(length, block.startSample + x.length)
    }
    offset += length
  }
  if (dets.length > 0) each((d) => d.finish())
  out.samples = offset
  out.beats = beats[beats.length - 1].length
  for (let v = 0; v < beats.length - 1 && out.differs === null; v++) {
    const a = beats[v], b = beats[beats.length - 1]
    const i = a.findIndex((s, k) => s !== b[k])
    if (i >= 0) out.differs = `beat ${i + 1}: ${a[i]} vs ${b[i]}`
    else if (a.length !== b.length) out.differs = `beat counts ${a.length} vs ${b.length}`
  }
  return out
}

const cases = await replayCases(args['no-24h'], log)

const rev = revisionSources(args.before)
const rows: string[] = []
try {
  const before = (await rev.load<{ createQrsDetector: Create }>('src/dsp/qrs-detector.ts')).createQrsDetector
  const name = rev.name
  for (const c of cases) {
    const results: Pass[] = []
    for (let r = 0; r < runs; r++) {
      results.push(await pass(c.files, [before, ...kernels.map((kernel): Create => (o) => createQrsDetector({ ...o, kernel }))]))
      const last = results[results.length - 1]
      log(`${c.id} run ${r + 1}: before ${last.seconds[0].toFixed(3)} s, ${kernels.map((k, i) => `${k} ${last.seconds[i + 1].toFixed(3)} s`).join(', ')}${last.differs ? `; DIFFERS at ${last.differs}` : ''}`)
    }
    const p = results[0]
    const [b, ...a] = [0, ...kernels.map((_, i) => i + 1)].map((i) => median(results.map((x) => x.seconds[i])))
    const ns = (s: number) => ((s * 1e9) / p.samples).toFixed(1)
    const same = results.every((x) => x.differs === null) ? 'yes' : `**no**: ${results.find((x) => x.differs)!.differs}`
    const cells = [b.toFixed(3), ...a.map((s) => s.toFixed(3)), ns(b), ...a.map(ns), ...a.map((s) => `${(b / s).toFixed(2)}x`)]
    rows.push(`| ${[c.id, p.fs, (p.samples / p.fs / 3600).toFixed(2), p.beats, ...cells, same].join(' | ')} |`)
  }
  const after = (what: string) => kernels.map((k) => `${k} ${what}`)
  const head = ['record', 'Hz', 'hours', 'beats', `before (${name}) s`, ...after('s'), 'before ns/sample', ...after('ns/sample'), ...after('speed-up'), 'identical beats']
  const md = resultsTable('QRS detector speed', 'bench/qrs-speed.ts', [
    `Seconds spent inside the detectors' push/finish calls, median of ${runs} runs; all versions (before, and the`,
    `current one with each front-end kernel: ${kernels.join(', ')}) are fed the same blocks (read stage, lead 0, raw`,
    'signal) in one stream, in alternating order, so they see the same machine load. ns/sample divides by the',
    'samples; the speed-up is against before. "Identical beats" compares every beat sample between all versions.',
    'Timings on this shared machine vary by 20-50 % between runs; the speed-up is the figure to read.',
  ], head, rows)
  console.log(md)
  await writeResultsKeepingNotes(path.join(ROOT, 'bench/results/qrs-speed.md'), md)
} finally {
  rev.remove()
}
