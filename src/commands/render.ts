// `pipeline render <recording> [--text FILE] [--strips DIR] [--video FILE] [--window 10]
// [--step 10] [--lead N] [--raw] [--no-beats]`: renders one recording's modalities without a
// dataset file. It streams the stages a dataset would list:
// read -> annotate -> clean -> detect -> segment -> render-text / render-strip / render-video,
// without clean under --raw and without annotate and detect under --no-beats (the strips then
// have no beat markers). Each render stage writes where its flag says (its context's media
// directory is that file's folder); the render items are summed up on stderr, with every path
// as the flag gave it. The flags become stage options: the stages' errors about them are told
// in flag terms (flag-terms.ts), and --lead is checked against the header before anything is
// read (--window and --step become samples in the segment stage, once the rate is known).
import path from 'node:path'
import { guessFormat, recordingName } from '../formats/recording-name.ts'
import { PipelineError } from '../core/errors.ts'
import type { Item } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { resolveStages } from '../config/plugins.ts'
import { streamRecord } from '../run/run-record.ts'
import { BUILTIN_STAGES } from '../stages/index.ts'
import { checkLeadFlag, inFlagTerms, type FlagOrigin } from './flag-terms.ts'
import { commandContext, leadArg } from './one-recording.ts'
import { prepareOutputFile, prepareOutputFolder } from './output-path.ts'
import { count } from './plural.ts'
import { probeRecording } from './recording-probe.ts'

export interface RenderOptions {
  text?: string
  strips?: string
  video?: string
  window: number
  step?: number
  lead?: string | number
  raw?: boolean
  beats?: boolean
  signal: AbortSignal
  err: NodeJS.WritableStream
}

interface Entry {
  use: string
  options: Record<string, unknown>
  /** Media directory of this stage's context. */
  dir?: string
  /** The options a flag set: [option, flag, value]. */
  flags?: [string, string, unknown][]
}

/** Renders one recording; resolves with the exit code. */
export async function renderCommand(recording: string, opts: RenderOptions): Promise<number> {
  if (!opts.text && !opts.strips && !opts.video) throw new PipelineError('E_USAGE', 'say what to render: --text FILE, --strips DIR and/or --video FILE.mp4')
  if (opts.video && !/\.mp4$/i.test(opts.video)) throw new PipelineError('E_USAGE', `--video ${opts.video}: the video is an MP4 file; give a name ending in .mp4`, { file: opts.video })
  const file = path.resolve(recording)
  const lead = leadArg(opts.lead)
  const record: RecordSpec = { id: recordingName(file), path: file, format: guessFormat(file), annotator: 'atr', annotatorExplicit: false }
  if (lead !== undefined) await checkLead(file, record.format, lead)
  const beats = opts.beats !== false
  const leadOption = lead === undefined ? {} : { leads: [lead] }
  const leadFlag: [string, string, unknown][] = lead === undefined ? [] : [['leads', '--lead', lead]]
  const entries: Entry[] = [
    { use: 'read', options: { annotations: beats } },
    ...(beats ? [{ use: 'annotate', options: {} }] : []),
    ...(opts.raw ? [] : [{ use: 'clean', options: {} }]),
    ...(beats ? [{ use: 'detect', options: lead === undefined ? {} : { lead }, flags: lead === undefined ? [] : [['lead', '--lead', lead]] as [string, string, unknown][] }] : []),
    { use: 'segment', options: { window: opts.window, ...(opts.step ? { step: opts.step } : {}) }, flags: [['window', '--window', opts.window], ...(opts.step ? [['step', '--step', opts.step] as [string, string, unknown]] : [])] },
    ...(opts.text ? [{ use: 'render-text', options: { file: path.basename(opts.text), ...leadOption }, dir: path.dirname(path.resolve(opts.text)), flags: leadFlag }] : []),
    ...(opts.strips ? [{ use: 'render-strip', options: { dir: '.', ...leadOption }, dir: path.resolve(opts.strips), flags: leadFlag }] : []),
    ...(opts.video ? [{ use: 'render-video', options: { name: path.basename(opts.video).replace(/\.mp4$/i, ''), ...leadOption }, dir: path.dirname(path.resolve(opts.video)), flags: leadFlag }] : []),
  ]
  const origins: FlagOrigin[] = entries.flatMap((e, index) => (e.flags ?? []).map(([option, flag, value]) => ({ flag, value, stage: e.use, index, option })))
  const totals = new Map<string, { items: number; bytes: number; frames: number; paths: Set<string> }>()
  async function consume(items: AsyncIterable<Item>): Promise<void> {
    for await (const item of items) {
      if (item.kind !== 'render') continue
      const r = item
      const t = totals.get(r.format) ?? { items: 0, bytes: 0, frames: 0, paths: new Set() }
      t.items++
      t.bytes += r.bytes
      t.frames += typeof r.frames === 'number' ? r.frames : 0
      t.paths.add(r.path)
      totals.set(r.format, t)
    }
  }
  try {
    // The same checks as a dataset's stages (ffmpeg is looked for here, before anything is read).
    const stages = await resolveStages(entries.map((e, i) => ({ use: e.use, options: e.options, yamlPath: `stages[${i}]` })), '(pipeline render)', BUILTIN_STAGES)
    if (opts.text) await prepareOutputFile(opts.text, '--text', `${record.id}.txt`)
    if (opts.video) await prepareOutputFile(opts.video, '--video', `${record.id}.mp4`)
    if (opts.strips) await prepareOutputFolder(opts.strips, '--strips')
    await streamRecord(record, stages, commandContext(opts.signal, opts.err, 'render'), consume, entries.map((e) => e.dir))
  } catch (err) {
    throw inFlagTerms(err, origins)
  }
  const text = totals.get('text')
  if (text) opts.err.write(`text: ${opts.text}, ${count(text.items, 'window')}, ${count(text.bytes, 'byte')}\n`)
  const png = totals.get('png')
  if (opts.strips) opts.err.write(`strips: ${count(png?.items ?? 0, 'PNG file')} in ${opts.strips}, ${count(png?.bytes ?? 0, 'byte')}\n`)
  const mp4 = totals.get('mp4')
  if (opts.video) {
    // The video may be split into parts beside the file named: each shown from the folder as given.
    const given = opts.video
    const shown = [...(mp4?.paths ?? [])].map((p) => path.join(path.dirname(given), path.relative(path.dirname(path.resolve(given)), path.resolve(p))))
    opts.err.write(`video: ${shown.join(', ') || 'no frames'}, ${count(mp4?.frames ?? 0, 'frame')}, ${count(mp4?.bytes ?? 0, 'byte')}\n`)
  }
  return 0
}

/** --lead among the ECG leads the reader picks (their count and labels are in the header). */
async function checkLead(file: string, format: 'edf' | 'wfdb', lead: string | number): Promise<void> {
  const { ecg, file: name } = await probeRecording(file, format, false)
  // Without ECG-like signals the read stage fails the record and says why.
  if (ecg) checkLeadFlag(lead, ecg.map((s, i) => ({ index: i, label: s.label })), { file: name, caseSensitive: true, among: 'ECG lead' })
}
