// QRS detection and beat classification accuracy (issue 3 targets) with the EC57/bxb scorer of
// src/metrics: MIT-BIH records 100, 101, 102 (paced) and 208, lead 0, and the 23 h Icentia11k
// recording (its 20 segments read one after the other through the read stage, sample offsets
// added, scored as one record), once on the raw signal and once on the clean stage's output.
// Blocks stream straight from the read (and clean) stage into the classifier and the detector,
// so the wall time covers read (+ clean) + detect + classify; "detect s" and "classify s" are
// the times spent inside each one's calls alone.
//   npx tsx bench/qrs-accuracy.ts        (writes bench/results/qrs-accuracy.md)
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { toBeatSeries } from '../src/formats/aami-classes.ts'
import { type BxbStats, grossStats, type Ratio, scoreBeats } from '../src/metrics/bxb-stats.ts'
import { detectOverFiles } from '../test/helpers/detect-records.ts'
import { ROOT, sharedPath } from '../test/helpers/shared.ts'

interface Row {
  id: string
  stats: BxbStats
  hours: number
  readDetectS: number
  detectS: number
  classifyS: number
  /** Median |detection - reference| over matched beats, ms: how well beats sit on the R peak. */
  medianDtMs: number
  afterSkip: BxbStats
}

// Streams the files as one record (test/helpers/detect-records.ts) and scores it.
async function run(id: string, files: string[], clean: boolean): Promise<Row> {
  const t0 = performance.now()
  const d = await detectOverFiles(files, { clean, classify: true })
  const readDetectS = (performance.now() - t0) / 1000
  const ref = toBeatSeries(d.refSamples, d.refSymbols)
  const test = toBeatSeries(d.beats, d.classified.map((b) => b.label))
  const score = scoreBeats(ref, test, { fs: d.fs })
  const dts = Float64Array.from(Array.from(ref.samples).flatMap((r, i) => (score.match.refToTest[i] < 0 ? [] : [Math.abs(test.samples[score.match.refToTest[i]] - r)]))).sort()
  const medianDtMs = dts.length ? (1000 * dts[dts.length >> 1]) / d.fs : 0
  return { id, stats: score.whole, afterSkip: score.afterSkip, medianDtMs, hours: d.totalSamples / d.fs / 3600, readDetectS, detectS: d.detectMs / 1000, classifyS: d.classifyMs / 1000 }
}

const pct = (r: { pct: number | null }) => (r.pct === null ? '-' : r.pct.toFixed(2))
// VEB/SVEB: Se and +P with their counts (TP/reference beats of the class, TP/beats called so).
const cls = (se: Ratio, pp: Ratio) => `${pct(se)} (${se.num}/${se.den}) | ${pct(pp)} (${pp.num}/${pp.den})`
const line = (id: string, s: BxbStats, extra = '') =>
  `| ${id} | ${s.refBeats} | ${s.detections} | ${pct(s.qrsSe)} | ${pct(s.qrsPP)} | ${s.missed} | ${s.extra} | ${cls(s.vebSe, s.vebPP)} | ${cls(s.svebSe, s.svebPP)} |${extra}`

const mitdb = ['100', '101', '102', '208']
const icentiaFiles = Array.from({ length: 20 }, (_, i) => sharedPath(`data/icentia11k/p00000_s${String(i).padStart(2, '0')}`))

const head = [
  '| record | ref beats | detections | Se % | +P % | FN (miss) | FP (extra) | VEB Se % | VEB +P % | SVEB Se % | SVEB +P % | median \\|dt\\| ms | Se % after 5 min | +P % after 5 min | hours | wall s | detect s | classify s |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
]
const timed = (r: Row) =>
  ` ${r.medianDtMs.toFixed(1)} | ${pct(r.afterSkip.qrsSe)} | ${pct(r.afterSkip.qrsPP)} | ${r.hours.toFixed(2)} | ${r.readDetectS.toFixed(2)} | ${r.detectS.toFixed(2)} | ${r.classifyS.toFixed(2)} |`

// One table per input signal: the read stage's raw mV, or the clean stage's output.
async function table(clean: boolean): Promise<string> {
  const rows: Row[] = []
  for (const rec of mitdb) rows.push(await run(rec, [sharedPath(`data/mitdb/${rec}`)], clean))
  const icentia = await run('icentia p00000 (s00-s19)', icentiaFiles, clean)
  const grossSkip = grossStats(rows.map((r) => r.afterSkip))
  return [
    ...head,
    ...rows.map((r) => line(r.id, r.stats, timed(r))),
    line('gross 100-208', grossStats(rows.map((r) => r.stats)), ` | ${pct(grossSkip.qrsSe)} | ${pct(grossSkip.qrsPP)} | | | | |`),
    line(icentia.id, icentia.stats, timed(icentia)),
  ].join('\n')
}

const raw = await table(false)
const cleaned = await table(true)
const md = [
  '# QRS detection and beat classification accuracy',
  '',
  `\`npx tsx bench/qrs-accuracy.ts\` (${new Date().toISOString()}, node ${process.version}). Lead 0, whole records,`,
  'EC57 150 ms match window (src/metrics), detector src/dsp/qrs-detector.ts and beat classifier',
  'src/dsp/beat-classifier.ts with default options. VEB and SVEB columns give Se and +P with their counts',
  '(true positives / reference beats of the class, true positives / beats called so); 102 is paced (its',
  'paced beats are class Q, which may be called anything), Icentia11k p00000 has no V and one S beat, so',
  'there its VEB/SVEB +P columns count false calls. Times are wall clock on a shared machine: indicative.',
  'Targets (issue 3): QRS Se and +P >= 99.5 % per record, gross >= 99.7 %, same bars on Icentia11k;',
  'VEB Se and +P >= 90 % on 208.',
  '',
  '## Raw signal (read stage, mV)',
  '',
  raw,
  '',
  '## Cleaned signal (clean stage, NeuroKit2 method)',
  '',
  cleaned,
  '',
].join('\n')
console.log(md)
writeFileSync(path.join(ROOT, 'bench/results/qrs-accuracy.md'), md)
