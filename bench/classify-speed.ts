// Speed of the streaming beat classifier (src/dsp/beat-classifier.ts), before and after, in one
// run. The "before" version is the revision's src/ (`git archive` into bench/data/rev-*, never
// into src/: side-by-side.ts, revisionSources) and runs side by side with the current one on the
// same stream: read (-> clean) -> QRS detector, then every block and every beat goes to both
// classifiers, in alternating order, each call timed on its own (side-by-side.ts, alternating).
// Both see the same samples and beats under the
// same machine load, so their ratio holds even when the shared machine is busy (the old version's
// garbage is also collected during the new one's calls: --before none gives the new one's own
// time); their outputs (sample, label, RR, span, correlation) are compared beat by beat.
// Records: MIT-BIH 100, 101, 102, 208 (360 Hz, 30 min), the 23 h Icentia11k recording (20
// segments as one record, 250 Hz) and the tiled 24 h EDF+ file (record 100 at 360 Hz,
// bench/build-tiled-edf.ts), on the raw and the cleaned signal. Each figure is the median of
// the runs.
//
//   npx tsx bench/classify-speed.ts [--before <rev>|none] [--runs 3] [--signal raw|clean|both]
//                                   [--no-24h]
//   (writes bench/results/classify-speed.md, keeping its hand-written part from "## Notes" on;
//   --before defaults to the last commit before the speed work)
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type { Item, SampleBlock } from '../src/core/items.ts'
import { type BeatClassifier, type BeatClassifierOptions, type ClassifiedBeat, createBeatClassifier } from '../src/dsp/beat-classifier.ts'
import { createQrsDetector, type QrsDetector } from '../src/dsp/qrs-detector.ts'
import clean from '../src/stages/clean.ts'
import read from '../src/stages/read.ts'
import { readContext, recordSpec } from '../test/helpers/read-record.ts'
import { ROOT } from '../test/helpers/shared.ts'
import { testContext } from '../test/helpers/stage-context.ts'
import { median } from './measure-child.ts'
import { writeResultsKeepingNotes } from './results-file.ts'
import { alternating, replayCases, resultsTable, revisionSources } from './side-by-side.ts'

const BEFORE_REV = 'eb39c68d9af0ed19a70f12c9194f5d7409fe63e7' // the classifier before the speed work

const { values: args } = parseArgs({
  options: { before: { type: 'string', default: BEFORE_REV }, runs: { type: 'string', default: '3' }, signal: { type: 'string', default: 'both' }, 'no-24h': { type: 'boolean', default: false } },
})
const runs = Number(args.runs)
const log = (s: string) => process.stderr.write(s + '\n')

type Create = (o: BeatClassifierOptions) => BeatClassifier

interface Version {
  name: string
  create: Create
}

interface Pass {
  beats: number
  samples: number
  fs: number
  /** Seconds inside each version's push/beat/finish, and inside the detector. */
  seconds: number[]
  detectS: number
  /** First differing beat between the versions, if any. */
  differs: string | null
}

const same = (a: ClassifiedBeat, b: ClassifiedBeat) =>
  a.sample === b.sample && a.label === b.label && Object.is(a.rrMs, b.rrMs) && Object.is(a.qrsSpanMs, b.qrsSpanMs) && Object.is(a.templateCorr, b.templateCorr)

/** Streams `files` as one record into the detector and every version's classifier. */
async function pass(files: string[], cleaned: boolean, versions: Version[]): Promise<Pass> {
  const out: Pass = { beats: 0, samples: 0, fs: 0, seconds: versions.map(() => 0), detectS: 0, differs: null }
  let det: QrsDetector | undefined
  let cls: BeatClassifier[] = []
  // Beats labelled by each version and not yet compared with the others.
  const queues: ClassifiedBeat[][] = versions.map(() => [])
  const compare = () => {
    while (queues.every((q) => q.length > 0)) {
      const first = queues.map((q) => q.shift()!)
      out.beats++
      if (out.differs === null && !first.every((b) => same(b, first[0]))) out.differs = `beat ${out.beats}: ${first.map((b) => JSON.stringify(b)).join(' vs ')}`
    }
  }
  const timed = alternating(out.seconds)
  const each = (f: (c: BeatClassifier) => ClassifiedBeat[] | void) => {
    timed(cls, f).forEach((labelled, v) => {
      if (labelled) for (const b of labelled) queues[v].push(b)
    })
    compare()
  }
  const found = (beats: number[]) => {
    if (beats.length > 0) each((c) => beats.flatMap((s) => c.beat(s)))
  }
  let offset = 0
  for (const file of files) {
    let length = 0
    const spec = recordSpec(file)
    let items = read.transform((async function* () {})(), readContext(spec)) as AsyncIterable<Item>
    if (cleaned) items = clean.transform(items, testContext(clean, {}, spec, [])) as AsyncIterable<Item>
    for await (const item of items) {
      if (item.kind !== 'block') continue
      const block = item as SampleBlock
      if (!det) {
        out.fs = block.fs
        det = createQrsDetector({ fs: block.fs })
        cls = versions.map((v) => v.create({ fs: block.fs }))
      }
      const x = block.leads[0]
      const start = offset + block.startSample
      each((c) => c.push(x, start))
      const t = performance.now()
      const beats = det.push(x, start)
      out.detectS += (performance.now() - t) / 1000
      found(beats)
      length = Math.max(length, block.startSample + x.length)
    }
    offset += length
  }
  out.samples = offset
  if (det) {
    const t = performance.now()
    const last = det.finish()
    out.detectS += (performance.now() - t) / 1000
    found(last)
    each((c) => c.finish())
  }
  if (out.differs === null && queues.some((q) => q.length > 0)) out.differs = `beat counts differ: ${queues.map((q) => q.length).join(' vs ')} left over`
  return out
}

const cases = await replayCases(args['no-24h'], log)
const signals = args.signal === 'both' ? [false, true] : [args.signal === 'clean']

const rev = args.before === 'none' ? null : revisionSources(args.before)
const rows: string[] = []
try {
  const versions: Version[] = [{ name: 'after', create: createBeatClassifier }]
  if (rev) versions.unshift({ name: `before (${rev.name})`, create: (await rev.load<{ createBeatClassifier: Create }>('src/dsp/beat-classifier.ts')).createBeatClassifier })
  for (const cleaned of signals) {
    for (const c of cases) {
      const results: Pass[] = []
      for (let r = 0; r < runs; r++) {
        results.push(await pass(c.files, cleaned, versions))
        const last = results[results.length - 1]
        log(`${c.id} ${cleaned ? 'clean' : 'raw'} run ${r + 1}: ${versions.map((v, i) => `${v.name} ${last.seconds[i].toFixed(3)} s`).join(', ')}, detector ${last.detectS.toFixed(3)} s${last.differs ? `; DIFFERS at ${last.differs}` : ''}`)
      }
      const p = results[0]
      const s = versions.map((_, i) => median(results.map((x) => x.seconds[i])))
      const after = s[s.length - 1]
      const cells = [
        c.id, cleaned ? 'clean' : 'raw', p.fs, (p.samples / p.fs / 3600).toFixed(2), p.beats,
        ...s.map((x) => x.toFixed(3)),
        ...(s.length > 1 ? [`${(s[0] / after).toFixed(1)}x`] : []),
        ((after * 1e6) / p.beats).toFixed(2), ((after * 1e9) / p.samples).toFixed(1),
        median(results.map((x) => x.detectS)).toFixed(3),
        ...(s.length > 1 ? [results.every((x) => x.differs === null) ? 'yes' : `**no**: ${results.find((x) => x.differs)!.differs}`] : []),
      ]
      rows.push(`| ${cells.join(' | ')} |`)
    }
  }
  const both = versions.length > 1
  const head = [
    'record', 'signal', 'Hz', 'hours', 'beats', ...versions.map((v) => `${v.name} s`), ...(both ? ['speed-up'] : []),
    'after µs/beat', 'after ns/sample', 'detector s', ...(both ? ['identical output'] : []),
  ]
  const md = resultsTable('Beat classifier speed', 'bench/classify-speed.ts', [
    `Seconds spent inside the classifiers' push/beat/finish calls, median of ${runs} runs; both versions are fed the same`,
    'blocks and detector beats in one stream, in alternating order, so both see the same machine load. µs/beat and',
    'ns/sample divide the current version\'s seconds by the beats and by the samples. "Identical output" compares',
    'every beat\'s sample, label, rrMs, qrsSpanMs and templateCorr between the versions. The detector column is the',
    'QRS detector on the same stream, for scale. Timings on this shared machine vary by 20-50 % between runs.',
  ], head, rows)
  console.log(md)
  await writeResultsKeepingNotes(path.join(ROOT, 'bench/results/classify-speed.md'), md)
} finally {
  rev?.remove()
}
