// QRS detection accuracy (issue 3 targets) with the EC57/bxb scorer of src/metrics: MIT-BIH
// records 100, 101, 102 (paced) and 208, lead 0, and the 23 h Icentia11k recording (its 20
// segments read one after the other through the read stage, sample offsets added, scored as one
// record). Blocks stream straight from the read stage into the detector, so the timing covers
// read + detect; "detect s" is the time spent inside push/finish alone.
//   npx tsx bench/qrs-accuracy.ts        (writes bench/results/qrs-accuracy.md)
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { toBeatSeries } from '../src/metrics/aami-classes.ts'
import { type BxbStats, grossStats, scoreBeats } from '../src/metrics/bxb-stats.ts'
import { detectOverFiles } from '../test/helpers/detect-records.ts'
import { ROOT, sharedPath } from '../test/helpers/shared.ts'

interface Row {
  id: string
  stats: BxbStats
  hours: number
  readDetectS: number
  detectS: number
  /** Median |detection - reference| over matched beats, ms: how well beats sit on the R peak. */
  medianDtMs: number
  afterSkip: BxbStats
}

// Streams the files as one record (test/helpers/detect-records.ts) and scores it.
async function run(id: string, files: string[]): Promise<Row> {
  const t0 = performance.now()
  const d = await detectOverFiles(files)
  const readDetectS = (performance.now() - t0) / 1000
  const ref = toBeatSeries(d.refSamples, d.refSymbols)
  const test = toBeatSeries(d.beats)
  const score = scoreBeats(ref, test, { fs: d.fs })
  const dts = Float64Array.from(Array.from(ref.samples).flatMap((r, i) => (score.match.refToTest[i] < 0 ? [] : [Math.abs(test.samples[score.match.refToTest[i]] - r)]))).sort()
  const medianDtMs = dts.length ? (1000 * dts[dts.length >> 1]) / d.fs : 0
  return { id, stats: score.whole, afterSkip: score.afterSkip, medianDtMs, hours: d.totalSamples / d.fs / 3600, readDetectS, detectS: d.detectMs / 1000 }
}

const pct = (r: { pct: number | null }) => (r.pct === null ? '-' : r.pct.toFixed(2))
const line = (id: string, s: BxbStats, extra = '') =>
  `| ${id} | ${s.refBeats} | ${s.detections} | ${pct(s.qrsSe)} | ${pct(s.qrsPP)} | ${s.missed} | ${s.extra} |${extra}`

const mitdb = ['100', '101', '102', '208']
const rows: Row[] = []
for (const rec of mitdb) rows.push(await run(rec, [sharedPath(`data/mitdb/${rec}`)]))
const icentiaFiles = Array.from({ length: 20 }, (_, i) => sharedPath(`data/icentia11k/p00000_s${String(i).padStart(2, '0')}`))
const icentia = await run('icentia p00000 (s00-s19)', icentiaFiles)

const head = [
  '| record | ref beats | detections | Se % | +P % | FN (miss) | FP (extra) | median \\|dt\\| ms | Se % after 5 min | +P % after 5 min | hours | read+detect s | detect s |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
]
const timed = (r: Row) =>
  ` ${r.medianDtMs.toFixed(1)} | ${pct(r.afterSkip.qrsSe)} | ${pct(r.afterSkip.qrsPP)} | ${r.hours.toFixed(2)} | ${r.readDetectS.toFixed(2)} | ${r.detectS.toFixed(2)} |`
const grossSkip = grossStats(rows.map((r) => r.afterSkip))
const table = [
  ...head,
  ...rows.map((r) => line(r.id, r.stats, timed(r))),
  line('gross 100-208', grossStats(rows.map((r) => r.stats)), ` | ${pct(grossSkip.qrsSe)} | ${pct(grossSkip.qrsPP)} | | | |`),
  line(icentia.id, icentia.stats, timed(icentia)),
].join('\n')
const md = [
  '# QRS detection accuracy',
  '',
  `\`npx tsx bench/qrs-accuracy.ts\` (${new Date().toISOString()}, node ${process.version}). Lead 0, whole records,`,
  'EC57 150 ms match window (src/metrics), detector src/dsp/qrs-detector.ts with default options.',
  'Targets (issue 3): Se and +P >= 99.5 % per record, gross >= 99.7 %, same bars on Icentia11k.',
  '',
  table,
  '',
].join('\n')
console.log(table)
writeFileSync(path.join(ROOT, 'bench/results/qrs-accuracy.md'), md)
