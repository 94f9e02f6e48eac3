// `info` for EDF/EDF+/BDF: the header, plus a scan of the annotation signal only (chunks of
// whole data records) to count annotations; truncation is reported as the reader reports it.
import { open } from 'node:fs/promises'
import { readEdfHeaderFromFile } from '../formats/edf-file.ts'
import { looksLikeEcg } from '../formats/edf-select.ts'
import { describeTruncation, parseTalsOfRecord } from '../readers/read-edf.ts'
import type { RecordingInfo } from './info.ts'

/** Describes an EDF-family file. */
export async function describeEdf(file: string): Promise<RecordingInfo> {
  const { header: h, fileSize } = await readEdfHeaderFromFile(file)
  const n = Math.min(h.recordCount, h.recordsOnDisk)
  const tals = h.signals.filter((s) => s.isAnnotation).map((s) => s.index)
  let count = 0
  const byType: Record<string, number> = {}
  if (tals.length) {
    const fh = await open(file, 'r')
    try {
      const per = Math.max(1, Math.floor((4 << 20) / h.recordBytes))
      for (let r0 = 0; r0 < n; r0 += per) {
        const k = Math.min(per, n - r0)
        const buf = Buffer.allocUnsafe(k * h.recordBytes)
        await fh.read(buf, 0, buf.length, h.headerBytes + r0 * h.recordBytes)
        for (let r = 0; r < k; r++) {
          for (const t of tals) {
            for (const a of parseTalsOfRecord(buf, h, t, r, r0 + r).annotations) {
              for (const text of a.texts) {
                count++
                byType[text] = (byType[text] ?? 0) + 1
              }
            }
          }
        }
      }
    } finally {
      await fh.close()
    }
  }
  const truncation = describeTruncation(h)
  const p = h.patientFields
  return {
    file, format: h.format, startTime: h.startTime, durationSec: n * h.recordDurationSec,
    // Signals may have different rates: the headline count is the ECG's (or the first signal's).
    samples: n * ((h.signals.find((s) => !s.isAnnotation && looksLikeEcg(s)) ?? h.signals.find((s) => !s.isAnnotation))?.samplesPerRecord ?? 0),
    patient: p ? { code: p.code, sex: p.sex, birthdate: p.birthdate, name: p.name } : { identification: h.patient },
    signals: h.signals.filter((s) => !s.isAnnotation).map((s) => ({
      index: s.index, label: s.label, fs: s.sampleRate, units: s.physicalDimension, samples: n * s.samplesPerRecord, physicalMin: s.physicalMin, physicalMax: s.physicalMax,
      digitalMin: s.digitalMin, digitalMax: s.digitalMax, ...(s.transducer ? { transducer: s.transducer } : {}), ...(s.prefiltering ? { prefiltering: s.prefiltering } : {}),
    })),
    annotations: { file: tals.length ? file : null, count, byType: Object.keys(byType).length <= 30 ? byType : undefined },
    details: {
      recording: h.recording, 'data records': `${h.recordCountDeclared}${h.recordCountDeclared === -1 ? ` (unknown; ${h.recordsOnDisk} on disk)` : ''} x ${h.recordDurationSec} s`,
      'header bytes': h.headerBytes, 'file size': `${fileSize} bytes`,
    },
    warnings: truncation ? [truncation] : [],
  }
}
