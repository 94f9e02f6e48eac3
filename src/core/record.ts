// What a stage knows of the record it is streaming: the dataset entry after defaults and path
// resolution (src/config/dataset.ts makes it).

/** A record after defaults and path resolution. */
export interface RecordSpec {
  id: string
  /** Absolute path (EDF file, WFDB header or base path); the first part of a multi-part record. */
  path: string
  /** Absolute paths of every part, in order, when the record is made of several files. */
  parts?: string[]
  /** The path as the dataset file wrote it (relative to the dataset file), for outputs. */
  source?: string
  format: 'edf' | 'wfdb'
  leads?: (string | number)[]
  annotator: string | false
  /** True when the dataset named the annotator (a missing file is then worth a warning). */
  annotatorExplicit: boolean
  patient?: { age?: number; sex?: 'M' | 'F'; history?: string }
}
