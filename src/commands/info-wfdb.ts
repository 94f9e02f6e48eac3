// `info` for WFDB records: the header, the .dat sizes against the declared sample count, and a
// streamed count of the annotator file's annotations (beats and other marks by symbol).
import { stat } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'
import { readWfdbHeaderFile, resolveWfdbRecord, wfdbFilePath } from '../formats/wfdb-path.ts'
import { wfdbStartTime } from '../formats/wfdb-header.ts'
import { datFilesOf } from '../formats/wfdb-signal.ts'
import { WFDB_INVALID_SAMPLE, wfdbBytesPerFrame } from '../formats/wfdb-formats.ts'
import { readAnnotationStream } from '../readers/read-wfdb-annotations.ts'
import { isBeatSymbol } from '../formats/wfdb-annotation-codes.ts'
import type { RecordingInfo } from './info.ts'

/** Describes a WFDB record named by its .hea or base path. */
export async function describeWfdb(input: string, annotator = 'atr'): Promise<RecordingInfo> {
  const rec = resolveWfdbRecord(input)
  const h = await readWfdbHeaderFile(input)
  const warnings: string[] = []
  // Samples per signal actually present (as the reader reads them), not only declared.
  let frames = h.nsamples ?? Infinity
  for (const f of datFilesOf(h)) {
    const p = wfdbFilePath(rec, f.fileName)
    const size = await stat(p).then((s) => s.size, () => null)
    const bytesPerFrame = wfdbBytesPerFrame(f.signals.map((i) => h.signals[i]))
    if (size === null) {
      // Like the reader (and wfdbdesc): a record without its samples cannot be described.
      throw new PipelineError('E_WFDB_DAT_MISSING', `${h.file}: the header names signal file ${f.fileName}, which is missing at ${p}; copy the .dat next to the .hea`, { file: h.file, field: 'fileName' })
    }
    const onDisk = Math.floor((size - f.byteOffset) / bytesPerFrame)
    frames = Math.min(frames, onDisk)
    if (h.nsamples !== undefined && onDisk < h.nsamples) warnings.push(`${p} is truncated: ${onDisk} of ${h.nsamples} samples per signal present (${((h.nsamples - onDisk) / h.fs).toFixed(1)} s missing)`)
  }
  if (!Number.isFinite(frames)) frames = 0
  const byType: Record<string, number> = {}
  let count = 0
  let beats = 0
  const ctx = { signal: new AbortController().signal, warn: (_c: string, m: string) => warnings.push(m) }
  const spec = { id: rec.name, path: input, format: 'wfdb' as const, annotator, annotatorExplicit: false }
  const stream = await readAnnotationStream(`${rec.basePath}.${annotator}`, spec, h.fs, ctx)
  for (const a of stream ? await stream.rest() : []) {
    count++
    if (isBeatSymbol(a.symbol)) beats++
    const key = a.aux ? `${a.symbol}${a.aux}` : a.symbol
    byType[key] = (byType[key] ?? 0) + 1
  }
  return {
    file: rec.headerPath, format: 'WFDB', startTime: wfdbStartTime(h), durationSec: frames / h.fs, samples: frames,
    patient: { age: h.age, sex: h.sex },
    signals: h.signals.map((s) => {
      // The ADC's range (resolution and zero), which is what the samples can span.
      const half = 2 ** (s.adcResolution - 1)
      const dmin = Math.max(s.adcZero - half, WFDB_INVALID_SAMPLE[s.format] + 1)
      const dmax = s.adcZero + half - 1
      const phys = (d: number) => Math.round(((d - s.baseline) / s.gain) * 1e6) / 1e6
      return {
        index: s.index, label: s.label, fs: h.fs, units: s.units, physicalMin: phys(dmin), physicalMax: phys(dmax), digitalMin: dmin, digitalMax: dmax,
        file: s.fileName, format: s.format, gain: `${s.gain} adu/${s.units}`, baseline: s.baseline, 'adc resolution': `${s.adcResolution} bits`, 'adc zero': s.adcZero,
      }
    }),
    annotations: { file: stream ? `${rec.basePath}.${annotator}` : null, count, beats, byType: Object.keys(byType).length <= 30 ? byType : undefined },
    details: { record: h.recordName },
    comments: h.comments,
    warnings,
  }
}
