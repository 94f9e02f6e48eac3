// What `pipeline beats` and `pipeline render` check in a recording's header before any signal
// is read: its data signals (to check --lead), the ECG leads the reader picks without a
// selector (render's --lead counts among those, and their rate turns --window into samples),
// and whether it holds embedded reference annotations (beats --score).
import { stat } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'
import { readEdfHeaderFromFile } from '../formats/edf-file.ts'
import { selectEcgSignals } from '../formats/edf-select.ts'
import { readWfdbHeaderFile, resolveWfdbRecord } from '../formats/wfdb-path.ts'
import { selectWfdbSignals } from '../formats/wfdb-select.ts'

export interface ProbedSignal {
  /** The index a dataset's `leads:` (and beats' --lead) gives it. */
  index: number
  label: string
  fs: number
}

export interface RecordingProbe {
  /** The recording as messages name it. */
  file: string
  /** Data signals, in file order (EDF annotation signals left out). */
  signals: ProbedSignal[]
  /** The signals the reader takes without a selector, in order; null when it would refuse (no ECG-like signal). */
  ecg: ProbedSignal[] | null
  /** An EDF+ annotation signal, or the WFDB annotator file, is there. */
  embedded: boolean
}

/** Reads the header of one recording (the reader's errors for a bad or missing header). */
export async function probeRecording(file: string, format: 'edf' | 'wfdb', annotator: string | false): Promise<RecordingProbe> {
  if (format === 'edf') {
    const { header } = await readEdfHeaderFromFile(file)
    const signals = header.signals.filter((s) => !s.isAnnotation).map((s) => ({ index: s.index, label: s.label, fs: s.sampleRate }))
    const ecg = selected(() => selectEcgSignals(header, file), signals)
    return { file, signals, ecg, embedded: header.signals.some((s) => s.isAnnotation) }
  }
  const header = await readWfdbHeaderFile(file)
  const signals = header.signals.map((s) => ({ index: s.index, label: s.label, fs: header.fs }))
  const ecg = selected(() => selectWfdbSignals(header), signals)
  const annotations = annotator ? `${resolveWfdbRecord(file).basePath}.${annotator}` : null
  const embedded = annotations !== null && (await stat(annotations).then((s) => s.isFile(), () => false))
  return { file: header.file, signals, ecg, embedded }
}

/** The reader's default choice; null where it refuses (the run then reports why, as a dataset run would). */
function selected(select: () => number[], signals: ProbedSignal[]): ProbedSignal[] | null {
  try {
    return select().map((i) => signals.find((s) => s.index === i)!)
  } catch (err) {
    if (err instanceof PipelineError) return null
    throw err
  }
}
