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
  patient?: { id?: string; age?: number; sex?: 'M' | 'F'; history?: string }
}

/** A file a record is read from, as the run manifest keeps it to tell a changed input on resume. */
export interface InputFile {
  path: string
  size: number
  mtimeMs: number
}

/** A record's header facts: its duration (for the ETA) and the files it is read from. */
export interface RecordProbe {
  durationSec: number
  files: InputFile[]
}
