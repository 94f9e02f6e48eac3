// Reads only a record's header(s): its duration (for progress and ETA) and the files it is made
// of with their size and mtime (for the run manifest, which detects changed inputs on resume),
// an annotation sidecar found beside it by name included.
import { stat } from 'node:fs/promises'
import type { InputFile, RecordProbe, RecordSpec } from '../core/record.ts'
import { readEdfHeaderFromFile } from '../formats/edf-file.ts'
import { readWfdbHeaderFile, resolveWfdbRecord, wfdbFilePath } from '../formats/wfdb-path.ts'
import { datFilesOf } from '../formats/wfdb-signal.ts'
import { autoSidecarFiles } from '../formats/annotation-sidecar.ts'

/** Header-only facts of a record; throws the reader's error for a bad header. */
export async function probeRecord(spec: RecordSpec): Promise<RecordProbe> {
  if (spec.parts) {
    const probes = []
    for (const part of spec.parts) probes.push(await probeRecord({ ...spec, path: part, parts: undefined }))
    return { durationSec: probes.reduce((s, p) => s + p.durationSec, 0), files: probes.flatMap((p) => p.files) }
  }
  if (spec.format === 'edf') {
    const { header } = await readEdfHeaderFromFile(spec.path)
    const n = Math.min(header.recordCount, header.recordsOnDisk)
    return { durationSec: n * header.recordDurationSec, files: await describeFiles([spec.path, ...autoSidecarFiles(spec.path)]) }
  }
  const rec = resolveWfdbRecord(spec.path)
  const header = await readWfdbHeaderFile(spec.path)
  const paths = [rec.headerPath, ...datFilesOf(header).map((f) => wfdbFilePath(rec, f.fileName))]
  if (spec.annotator) paths.push(`${rec.basePath}.${spec.annotator}`)
  paths.push(...autoSidecarFiles(spec.path))
  return { durationSec: (header.nsamples ?? 0) / header.fs, files: await describeFiles(paths) }
}

async function describeFiles(paths: string[]): Promise<InputFile[]> {
  const out: InputFile[] = []
  for (const p of paths) {
    const s = await stat(p).catch(() => null)
    if (s) out.push({ path: p, size: s.size, mtimeMs: s.mtimeMs })
  }
  return out
}
