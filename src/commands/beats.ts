// `pipeline beats <recording...> [--lead N] [--out FILE] [--score] [--clean]`: detect and classify
// the beats of one recording (several paths: its consecutive parts, read as one record, like
// the 20 Icentia11k segments) without a dataset file, one NDJSON line per beat
// ({"sample","timeMs","label",...}). It streams the same stages a dataset would use
// (read -> [annotate] -> quality -> [clean] -> detect), so its beats are the pipeline's beats.
// With --score the beats are compared with the recording's reference beats like WFDB's bxb (see
// beats-score.ts); the reference comes through the annotate stage, as in `pipeline render` and a
// dataset run: the annotation sidecar beside the recording when there is one, else the
// embedded annotations. Whether a reference exists is checked in the headers, before any signal
// is read. Scoring keeps the two beat lists in memory (about 2 x 100,000 numbers for 24 h); the
// signal itself streams.
import path from 'node:path'
import { once } from 'node:events'
import { guessFormat, recordingName } from '../formats/recording-name.ts'
import { PipelineError } from '../core/errors.ts'
import type { BeatItem, Item } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { resolveStages } from '../config/plugins.ts'
import { findSidecar } from '../formats/annotation-sidecar.ts'
import { toBeatSeries } from '../formats/aami-classes.ts'
import { streamRecord } from '../run/run-record.ts'
import { writeFileAtomic } from '../sinks/file-writer.ts'
import { BUILTIN_STAGES } from '../stages/index.ts'
import { scoreReport, type BeatList } from './beats-score.ts'
import { checkLeadFlag, inFlagTerms } from './flag-terms.ts'
import { commandContext, leadArg } from './one-recording.ts'
import { prepareOutputFile } from './output-path.ts'
import { count } from './plural.ts'
import { probeRecording } from './recording-probe.ts'

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
  if (opts.out === '') throw new PipelineError('E_USAGE', '--out needs a file name (or leave it out to write the beats to stdout)')
  // Without --lead the reader picks the ECG-like signals (as in a dataset) and detect takes the first.
  const lead = leadArg(opts.lead)
  const files = (Array.isArray(recording) ? recording : [recording]).map((f) => path.resolve(f))
  const record: RecordSpec = {
    id: recordingName(files[0]),
    path: files[0], ...(files.length > 1 ? { parts: files } : {}), format: guessFormat(files[0]), ...(lead === undefined ? {} : { leads: [lead] }),
    annotator: opts.annotator ?? 'atr', annotatorExplicit: false,
  }
  if (files.some((f) => guessFormat(f) !== record.format)) throw new PipelineError('E_USAGE', 'the parts of one recording must share a format (all EDF or all WFDB)', { file: files.find((f) => guessFormat(f) !== record.format) })
  // The headers, before any signal is read: the lead asked for, and a reference to score against.
  const probes = await Promise.all(files.map((f) => probeRecording(f, record.format, record.annotator)))
  if (lead !== undefined) checkLeadFlag(lead, probes[0].signals, { file: probes[0].file, caseSensitive: false })
  const sidecar = opts.score && files.length === 1 ? await findSidecar('auto', files[0]) : null
  if (opts.score && !sidecar && !probes.some((p) => p.embedded)) throw noReference(files, record.annotator, [])
  if (opts.out) await prepareOutputFile(opts.out, '--out', 'beats.ndjson')
  // The stages a dataset would list, resolved and checked the same way.
  const entries = [
    { use: 'read', options: { annotations: opts.score ?? false } },
    ...(opts.score ? [{ use: 'annotate', options: { rhythms: false } }] : []),
    { use: 'quality', options: {} }, ...(opts.clean ? [{ use: 'clean', options: {} }] : []), { use: 'detect', options: {} },
  ]
  const stages = await resolveStages(entries.map((e, i) => ({ ...e, yamlPath: `stages[${i}]` })), '(pipeline beats)', BUILTIN_STAGES)
  const ref: BeatList = { samples: [], labels: [] }
  const test: BeatList = { samples: [], labels: [] }
  const notes: string[] = []
  const flagged: [number, number][] = []
  let fs = 0
  let beatsOut = 0

  // The beats as NDJSON text, collecting what scoring needs on the way.
  async function* lines(items: AsyncIterable<Item>): AsyncGenerator<Uint8Array> {
    for await (const item of items) {
      if (item.kind === 'beat') {
        const b = item
        const list = b.source === 'detector' ? test : ref
        list.samples.push(b.sample)
        list.labels.push(b.source === 'detector' ? b.label : (b.symbol ?? b.label))
        if (b.source !== 'detector') continue
        beatsOut++
        yield Buffer.from(beatLine(b))
      } else if (item.kind === 'annotation') {
        notes.push(item.symbol)
      } else if (item.kind === 'quality') {
        const q = item
        if (q.leads[0]?.flags.length) flagged.push([q.startSample, q.endSample])
      } else if (item.kind === 'recording') fs = item.fs
    }
  }
  const shared = commandContext(opts.signal, opts.err, 'beats')
  try {
    await streamRecord(record, stages, shared, async (items) => {
      if (opts.out) return writeFileAtomic(opts.out, lines(items), opts.signal)
      // Without --out the beats go to stdout, unless the score is what was asked for.
      for await (const chunk of lines(items)) {
        if (opts.score) continue
        if (!opts.stdout.write(chunk)) await once(opts.stdout, 'drain', { signal: opts.signal })
      }
    })
  } catch (err) {
    throw inFlagTerms(err, lead === undefined ? [] : [{ flag: '--lead', value: lead, stage: 'read', index: 0, option: 'leads' }])
  }
  if (opts.out) opts.err.write(`${count(beatsOut, 'beat')} written to ${opts.out}\n`)
  if (!opts.score) return 0
  // A reference with no beat in it (only rhythm or event marks) is found out only now.
  if (toBeatSeries(ref.samples, ref.labels).samples.length === 0) throw noReference(files, record.annotator, notes)
  opts.stdout.write(scoreReport(record.id, fs, ref, test, flagged))
  return 0
}

/** --score without reference beats; `notes` are the symbols of the annotations found, if any. */
function noReference(files: string[], annotator: string | false, notes: string[]): PipelineError {
  const found = notes.length ? `; its ${count(notes.length, 'annotation')} (${[...new Set(notes)].slice(0, 8).map((x) => JSON.stringify(x)).join(', ')}) ${notes.length === 1 ? 'is not a beat label' : 'are not beat labels'}` : ''
  const sidecar = `${recordingName(files[0])}.annotations.csv|json|ndjson`
  return new PipelineError('E_USAGE', `--score needs reference beat annotations, and ${files.join(', ')} has none${found} (a WFDB .${annotator || 'atr'} file, EDF+ annotations with MIT beat labels, or a sidecar ${sidecar} beside the recording); drop --score, add a sidecar, or use --annotator to name another WFDB annotator`, { file: files[0] })
}
