// EDF / EDF+C / EDF+D without gaps -> EDF+C: every data signal in its order, with its header
// fields, data record layout and digital values unchanged (a lossless copy of the samples); the
// TALs of all annotation signals become the one 'EDF Annotations' signal, in the record that held
// them. BDF is refused: its 24-bit samples do not fit EDF's 16 bits without requantising.
import { PipelineError } from '../core/errors.ts'
import { readEdfHeaderFromFile } from '../formats/edf-file.ts'
import type { EdfHeader } from '../formats/edf-header.ts'
import { decodeEdfDigital } from '../formats/edf-decode.ts'
import type { EdfWriteSignal } from '../formats/edf-writer.ts'
import { describeTruncation } from '../readers/read-edf.ts'
import type { ReadContext } from '../readers/read-context.ts'
import { asciiText, edfIdentityOf } from './convert-header.ts'
import { readEdfTals, readFirstOnset, readRecordChunks, recordsToRead } from './convert-edf-read.ts'
import type { ConvertPlan } from './convert-plan.ts'

/** Reads an EDF-family header for conversion: refuses BDF (unless allowed) and files without data; warns on truncation. */
export async function openEdfInput(input: string, allowBdf: boolean, ctx: ReadContext): Promise<EdfHeader> {
  const { header } = await readEdfHeaderFromFile(input)
  if (header.isBdf && !allowBdf) throw new PipelineError('E_USAGE', `${input}: BDF stores 24-bit samples and EDF 16-bit ones, so they cannot be copied unchanged; use convert --clean (writes the cleaned ECG leads, requantised to their range) or keep the BDF file (the pipeline reads it as it is)`, { file: input, field: 'version' })
  if (!header.signals.some((s) => !s.isAnnotation)) throw new PipelineError('E_USAGE', `${input}: expected data signals, found only annotation signals (an annotations-only EDF+ file); there is no signal to convert`, { file: input })
  const truncation = describeTruncation(header)
  if (truncation) ctx.warn('E_TRUNCATED', `${input}: ${truncation}; the EDF holds the complete records`)
  if (recordsToRead(header) === 0) throw new PipelineError('E_TRUNCATED', `${input}: expected at least one complete data record, found none; nothing to convert`, { file: input })
  return header
}

/** Every data signal of an EDF/EDF+ file, digital values unchanged. */
export async function planEdfCopy(input: string, keepAnnotations: boolean, ctx: ReadContext): Promise<ConvertPlan> {
  const h = await openEdfInput(input, false, ctx)
  const data = h.signals.filter((s) => !s.isAnnotation)
  const signals: EdfWriteSignal[] = data.map((s) => ({
    label: asciiText(s.label).slice(0, 16), transducer: asciiText(s.transducer), physicalDimension: asciiText(s.physicalDimension).slice(0, 8),
    physicalMin: s.physicalMin, physicalMax: s.physicalMax, digitalMin: s.digitalMin, digitalMax: s.digitalMax,
    prefiltering: asciiText(s.prefiltering), samplesPerRecord: s.samplesPerRecord,
  }))
  const recordCount = recordsToRead(h)
  const onset0Sec = await readFirstOnset(h, ctx.signal)
  return {
    layout: { recordDurationSec: h.recordDurationSec, recordCount, onset0Sec },
    annotations: (c) => readEdfTals(h, onset0Sec, h.recordDurationSec, keepAnnotations, c),
    header: async () => ({ ...edfIdentityOf(h), recordDurationSec: h.recordDurationSec, recordCount, signals }),
    async *records() {
      for await (const { count, bytes } of readRecordChunks(h, ctx.signal)) {
        const decoded = data.map((s) => decodeEdfDigital(bytes, h, s.index, count))
        for (let k = 0; k < count; k++) yield decoded.map((d, i) => d.subarray(k * data[i].samplesPerRecord, (k + 1) * data[i].samplesPerRecord))
      }
    },
  }
}
