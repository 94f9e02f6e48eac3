// What a recording's path says: its name (a record's default id, the {name} of a sidecar
// template) and its format by extension.
import path from 'node:path'

/** A recording's name from its file: the base name without .hea, .edf, .bdf or .rec (a record's default id). */
export function recordingName(p: string): string {
  return path.basename(p).replace(/\.(hea|edf|bdf|rec)$/i, '')
}

/** EDF-family extensions read as EDF; anything else (.hea, no extension) names a WFDB record. */
export function guessFormat(p: string): 'edf' | 'wfdb' {
  return /\.(edf|bdf|rec)$/i.test(p) ? 'edf' : 'wfdb'
}
