// `pipeline render <recording> [--text FILE] [--strips DIR] [--video FILE] [--window 10]
// [--step 10] [--lead N] [--raw] [--no-beats]`: renders one recording's modalities without a
// dataset file (issue 4). It streams the stages a dataset would list:
// read -> annotate -> clean -> detect -> segment -> render-text / render-strip / render-video,
// without clean under --raw and without annotate and detect under --no-beats (the strips then
// have no beat markers). Each render stage writes where its flag says (its context's media
// directory is that file's folder); the render items are summed up on stderr.
import path from 'node:path'
import { guessFormat, recordingName } from '../config/dataset.ts'
import { PipelineError } from '../core/errors.ts'
import type { Item, RenderItem } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { resolveStages } from '../config/plugins.ts'
import { streamRecord } from '../run/run-record.ts'
import { BUILTIN_STAGES } from '../stages/index.ts'
import { checkParentFolder, commandContext, leadArg } from './one-recording.ts'

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
}

/** Renders one recording; resolves with the exit code. */
export async function renderCommand(recording: string, opts: RenderOptions): Promise<number> {
  if (!opts.text && !opts.strips && !opts.video) throw new PipelineError('E_USAGE', 'say what to render: --text FILE, --strips DIR and/or --video FILE.mp4')
  if (opts.video && !/\.mp4$/i.test(opts.video)) throw new PipelineError('E_USAGE', `--video ${opts.video}: the video is an MP4 file; give a name ending in .mp4`, { file: opts.video })
  if (opts.text) await checkParentFolder(opts.text, '--text')
  if (opts.video) await checkParentFolder(opts.video, '--video')
  const file = path.resolve(recording)
  const lead = leadArg(opts.lead)
  const record: RecordSpec = { id: recordingName(file), path: file, format: guessFormat(file), annotator: 'atr', annotatorExplicit: false }
  const beats = opts.beats !== false
  const leadOption = lead === undefined ? {} : { leads: [lead] }
  const entries: Entry[] = [
    { use: 'read', options: { annotations: beats } },
    ...(beats ? [{ use: 'annotate', options: {} }] : []),
    ...(opts.raw ? [] : [{ use: 'clean', options: {} }]),
    ...(beats ? [{ use: 'detect', options: lead === undefined ? {} : { lead } }] : []),
    { use: 'segment', options: { window: opts.window, ...(opts.step ? { step: opts.step } : {}) } },
    ...(opts.text ? [{ use: 'render-text', options: { file: path.basename(opts.text), ...leadOption }, dir: path.dirname(path.resolve(opts.text)) }] : []),
    ...(opts.strips ? [{ use: 'render-strip', options: { dir: '.', ...leadOption }, dir: path.resolve(opts.strips) }] : []),
    ...(opts.video ? [{ use: 'render-video', options: { name: path.basename(opts.video).replace(/\.mp4$/i, ''), ...leadOption }, dir: path.dirname(path.resolve(opts.video)) }] : []),
  ]
  // The same checks as a dataset's stages (ffmpeg is looked for here, before anything is read).
  const stages = await resolveStages(entries.map((e, i) => ({ use: e.use, options: e.options, yamlPath: `stages[${i}]` })), '(pipeline render)', BUILTIN_STAGES)
  const totals = new Map<string, { items: number; bytes: number; frames: number; paths: Set<string> }>()
  async function consume(items: AsyncIterable<Item>): Promise<void> {
    for await (const item of items) {
      if (item.kind !== 'render') continue
      const r = item as RenderItem
      const t = totals.get(r.format) ?? { items: 0, bytes: 0, frames: 0, paths: new Set() }
      t.items++
      t.bytes += r.bytes
      t.frames += typeof r.frames === 'number' ? r.frames : 0
      t.paths.add(r.path)
      totals.set(r.format, t)
    }
  }
  await streamRecord(record, stages, commandContext(opts.signal, opts.err, 'render'), consume, entries.map((e) => e.dir))
  const text = totals.get('text')
  if (text) opts.err.write(`text: ${opts.text}, ${text.items} windows, ${text.bytes} bytes\n`)
  const png = totals.get('png')
  if (opts.strips) opts.err.write(`strips: ${png?.items ?? 0} PNG files in ${opts.strips}, ${png?.bytes ?? 0} bytes\n`)
  const mp4 = totals.get('mp4')
  if (opts.video) opts.err.write(`video: ${[...(mp4?.paths ?? [])].map((p) => path.resolve(p)).join(', ') || 'no frames'}, ${mp4?.frames ?? 0} frames, ${mp4?.bytes ?? 0} bytes\n`)
  return 0
}
