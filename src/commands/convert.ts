// `pipeline convert <input> <output.edf> [--clean] [--powerline 50|60]`: a WFDB record or an
// EDF/EDF+ file as EDF+C, streamed. Without --clean every signal is copied with its digital
// values unchanged (convert-wfdb.ts, convert-edf.ts); with --clean the ECG leads are cleaned by
// the clean stage and requantised (convert-clean.ts, convert-scale.ts). Annotations become TALs
// in the 'EDF Annotations' signal (convert-plan.ts: one pass sizes it, the next writes). The
// output's folder is made when missing (output-path.ts).
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { guessFormat, recordingName } from '../formats/recording-name.ts'
import { writeFileAtomic } from '../sinks/file-writer.ts'
import type { ReadContext } from '../readers/read-context.ts'
import { planWfdbCopy } from './convert-wfdb.ts'
import { planEdfCopy } from './convert-edf.ts'
import { planClean } from './convert-clean.ts'
import { encodePlan, sizeAnnotationSignal, type ConvertPlan } from './convert-plan.ts'
import { prepareOutputFile } from './output-path.ts'
import { count } from './plural.ts'

export interface ConvertOptions {
  /** WFDB annotator extension to carry over, false for none (for EDF input: false drops the TALs). */
  annotator: string | false
  /** Write the cleaned ECG leads instead of copying every signal. */
  clean?: boolean
  /** Mains frequency for --clean (50 or 60 Hz; default 50). */
  powerlineHz?: number
  signal: AbortSignal
  err: NodeJS.WritableStream
}

/** Converts one WFDB record or EDF/EDF+ file to an EDF+C file; resolves with the exit code. */
export async function convertCommand(input: string, output: string, opts: ConvertOptions): Promise<number> {
  if (!/\.edf$/i.test(output)) throw new PipelineError('E_USAGE', `the output file must end in .edf, found ${JSON.stringify(path.basename(output))}`, { file: output })
  if (path.resolve(output) === path.resolve(input)) throw new PipelineError('E_USAGE', `the output ${output} is the input file; name another output file`, { file: output })
  const powerlineHz = opts.powerlineHz ?? 50
  if (powerlineHz !== 50 && powerlineHz !== 60) throw new PipelineError('E_USAGE', `--powerline: expected 50 or 60 (Hz, the mains frequency), found ${powerlineHz}`, { field: 'powerline' })
  const ctx: ReadContext = { signal: opts.signal, warn: (code, message) => opts.err.write(`warning: ${code}: ${message}\n`) }
  const format = guessFormat(input)
  if (format === 'edf' && opts.annotator !== false && opts.annotator !== 'atr') ctx.warn('W_USAGE', `--annotator ${opts.annotator} names a WFDB annotation file; ${input} is EDF, whose own annotations are kept`)
  let plan: ConvertPlan
  if (opts.clean) plan = await planClean(input, format, { annotator: opts.annotator, powerlineHz }, ctx)
  else plan = format === 'edf' ? await planEdfCopy(input, opts.annotator !== false, ctx) : await planWfdbCopy(input, opts.annotator, ctx)
  // Once the input's headers are read, before the passes over its samples.
  await prepareOutputFile(output, 'the output', `${recordingName(input)}.edf`)
  const annotationBytes = await sizeAnnotationSignal(plan, ctx)
  const header = await plan.header()
  const bytes = await writeFileAtomic(output, encodePlan(plan, { ...header, annotationBytesPerRecord: annotationBytes }, opts.signal), opts.signal)
  const { recordCount, recordDurationSec } = plan.layout
  const signals = header.signals.length
  for (const line of plan.report?.() ?? []) opts.err.write(`${line}\n`)
  opts.err.write(`wrote ${output}: ${count(recordCount, 'data record')} of ${recordDurationSec} s, ${count(signals, 'signal')} + EDF Annotations, ${(bytes / 1e6).toFixed(1)} MB\n`)
  return 0
}
