// `pipeline beats <recording...> [--lead N] [--out FILE] [--score] [--clean]`: detect and classify
// the beats of one recording (several paths: its consecutive parts, read as one record, like
// the 20 Icentia11k segments) without a dataset file, one NDJSON line per beat
// ({"sample","timeMs","label",...}). It streams the same stages a dataset would use
// (read -> quality -> [clean] -> detect), so its beats are the pipeline's beats. With --score
// the beats are compared with the recording's reference annotations like WFDB's bxb: the whole
// record, after the EC57 5-minute skip, and without the windows the quality stage flagged on
// the lead (artifact periods, where a reference exists but no detector can be held to it).
// Scoring keeps the two beat lists in memory (about 2 x 100,000 numbers for 24 h); the signal
// itself streams.
import path from 'node:path'
import { once } from 'node:events'
import { stat } from 'node:fs/promises'
import { guessFormat, recordingName } from '../config/dataset.ts'
import { PipelineError } from '../core/errors.ts'
import type { AnnotationItem, BeatItem, Item, QualityItem, RecordingItem } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { resolveStages } from '../config/plugins.ts'
import { streamRecord } from '../run/run-record.ts'
import { toBeatSeries } from '../formats/aami-classes.ts'
import { scoreBeats } from '../metrics/bxb-stats.ts'
import { formatBeatScore, formatBxbStats } from '../metrics/format-bxb.ts'
import { writeFileAtomic } from '../sinks/file-writer.ts'
import { BUILTIN_STAGES } from '../stages/index.ts'
import { checkParentFolder, commandContext, leadArg } from './one-recording.ts'

export interface BeatsOptions {
  /** Lead index or label (default: the first ECG-like signal); an array means --lead was repeated. */
  lead?: string | number | (string | number)[]
  out?: string
  score?: boolean
  clean?: boolean
  /** WFDB annotator for the reference ("atr"); false for none. */
  annotator?: string | false
  signal: AbortSignal
  stdout: NodeJS.WritableStream
  err: NodeJS.WritableStream
}

/** The NDJSON line of one beat: position and label first, then the classifier's fields. */
function beatLine(b: BeatItem): string {
  const { kind: _k, recordId: _r, source: _s, lead: _l, sample, timeMs, label, ...rest } = b
  return JSON.stringify({ sample, timeMs: Math.round(timeMs), label, ...rest }) + '\n'
}

/** Detects (and scores) the beats of one recording (several paths: its parts); resolves with the exit code. */
export async function beatsCommand(recording: string | string[], opts: BeatsOptions): Promise<number> {
  if (Array.isArray(opts.lead)) throw new PipelineError('E_USAGE', `--lead was given ${opts.lead.length} times; beats are detected on one lead: give --lead once`)
  // Without --lead the reader picks the ECG-like signals (as in a dataset) and detect takes the first.
  const lead = leadArg(opts.lead)
  await checkOut(opts.out)
  const files = (Array.isArray(recording) ? recording : [recording]).map((f) => path.resolve(f))
  const record: RecordSpec = {
    id: recordingName(files[0]),
    path: files[0], ...(files.length > 1 ? { parts: files } : {}), format: guessFormat(files[0]), ...(lead === undefined ? {} : { leads: [lead] }),
    annotator: opts.annotator ?? 'atr', annotatorExplicit: false,
  }
  if (files.some((f) => guessFormat(f) !== record.format)) throw new PipelineError('E_USAGE', 'the parts of one recording must share a format (all EDF or all WFDB)', { file: files.find((f) => guessFormat(f) !== record.format) })
  // The stages a dataset would list, resolved and checked the same way.
  const entries = [{ use: 'read', options: { annotations: opts.score ?? false } }, { use: 'quality', options: {} }, ...(opts.clean ? [{ use: 'clean', options: {} }] : []), { use: 'detect', options: {} }]
  const stages = await resolveStages(entries.map((e, i) => ({ ...e, yamlPath: `stages[${i}]` })), '(pipeline beats)', BUILTIN_STAGES)
  const ref = { samples: [] as number[], symbols: [] as string[] }
  const test = { samples: [] as number[], labels: [] as string[] }
  const flagged: [number, number][] = []
  let fs = 0
  let beatsOut = 0

  // The beats as NDJSON text, collecting what scoring needs on the way.
  async function* lines(items: AsyncIterable<Item>): AsyncGenerator<Uint8Array> {
    for await (const item of items) {
      if (item.kind === 'beat' && (item as BeatItem).source === 'detector') {
        const b = item as BeatItem
        test.samples.push(b.sample)
        test.labels.push(b.label)
        beatsOut++
        yield Buffer.from(beatLine(b))
      } else if (item.kind === 'annotation') {
        const a = item as AnnotationItem
        ref.samples.push(a.sample)
        ref.symbols.push(a.symbol)
      } else if (item.kind === 'quality') {
        const q = item as QualityItem
        if (q.leads[0]?.flags.length) flagged.push([q.startSample, q.endSample])
      } else if (item.kind === 'recording') fs = (item as RecordingItem).fs
    }
  }
  const shared = commandContext(opts.signal, opts.err, 'beats')
  await streamRecord(record, stages, shared, async (items) => {
    if (opts.out) return writeFileAtomic(opts.out, lines(items), opts.signal)
    // Without --out the beats go to stdout, unless the score is what was asked for.
    for await (const chunk of lines(items)) {
      if (opts.score) continue
      if (!opts.stdout.write(chunk)) await once(opts.stdout, 'drain', { signal: opts.signal })
    }
  })
  if (opts.out) opts.err.write(`${beatsOut} beats written to ${opts.out}\n`)
  if (!opts.score) return 0
  if (toBeatSeries(ref.samples, ref.symbols).samples.length === 0) {
    const found = ref.samples.length ? `; its ${ref.samples.length} annotations (${[...new Set(ref.symbols)].slice(0, 8).map((x) => JSON.stringify(x)).join(', ')}) are not beat labels` : ''
    throw new PipelineError('E_USAGE', `--score needs reference beat annotations, and ${files.join(', ')} has none${found} (a WFDB .${record.annotator || 'atr'} file or EDF+ annotations with MIT beat labels); drop --score, or use --annotator to name another WFDB annotator`, { file: files[0] })
  }
  opts.stdout.write(scoreReport(record.id, fs, ref, test, flagged))
  return 0
}

/** The bxb-style report, then the same without the flagged windows. */
function scoreReport(id: string, fs: number, ref: { samples: number[]; symbols: string[] }, test: { samples: number[]; labels: string[] }, flagged: [number, number][]): string {
  const refSeries = toBeatSeries(ref.samples, ref.symbols)
  const testSeries = toBeatSeries(test.samples, test.labels)
  const out = [formatBeatScore(scoreBeats(refSeries, testSeries, { fs }), { recordId: id, refAnnotator: 'reference annotations', testAnnotator: 'pipeline detect', fs })]
  const flaggedSec = flagged.reduce((s, [a, b]) => s + (b - a), 0) / fs
  if (flagged.length === 0) {
    out.push('No window was flagged by the quality stage: the scores above cover the whole signal.\n')
  } else {
    // Both lists lose the beats inside flagged windows.
    const r = outside(ref.samples, ref.symbols, flagged)
    const t = outside(test.samples, test.labels, flagged)
    const score = scoreBeats(toBeatSeries(r.samples, r.labels), toBeatSeries(t.samples, t.labels), { fs })
    out.push(`Without the ${flagged.length} windows (${flaggedSec.toFixed(0)} s) flagged by the quality stage on this lead:\n${formatBxbStats(score.whole)}`)
  }
  return out.join('\n')
}

/** Refuses an --out that cannot be written before any work is done (a missing value, a folder, no parent folder). */
async function checkOut(out: string | undefined): Promise<void> {
  if (out === undefined) return
  if (out === '') throw new PipelineError('E_USAGE', '--out needs a file name (or leave it out to write the beats to stdout)')
  const st = await stat(out).catch(() => null)
  if (st?.isDirectory()) throw new PipelineError('E_USAGE', `--out ${out} is a folder; give a file name such as ${path.join(out, 'beats.ndjson')}`, { file: out })
  await checkParentFolder(out, '--out')
}

/** The beats (sorted) outside the spans (sorted, [start, end) in samples). */
function outside(samples: number[], labels: string[], spans: [number, number][]): { samples: number[]; labels: string[] } {
  const out = { samples: [] as number[], labels: [] as string[] }
  let k = 0
  for (let i = 0; i < samples.length; i++) {
    while (k < spans.length && spans[k][1] <= samples[i]) k++
    if (k < spans.length && samples[i] >= spans[k][0]) continue
    out.samples.push(samples[i])
    out.labels.push(labels[i])
  }
  return out
}
