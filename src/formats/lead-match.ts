// Finds the signal an entry of the dataset's `leads:` (or --lead) names, for EDF and WFDB alike:
// a 0-based index, or a label compared trimmed and case-insensitively. Two signals may share a
// label (PhysioNet SVDB record 800 labels both leads "ECG"); taking the first would silently
// read the wrong lead, so a label that names several signals is an error that lists them.
import { PipelineError } from '../core/errors.ts'

export interface LeadCandidate {
  index: number
  label: string
}

/** The signal `entry` names among `signals` (undefined when none); throws E_LEAD_SELECT when a label names several. */
export function matchLead<S extends LeadCandidate>(signals: readonly S[], entry: string | number, file: string): S | undefined {
  if (typeof entry === 'number') return signals.find((s) => s.index === entry)
  const wanted = entry.trim().toLowerCase()
  const found = signals.filter((s) => s.label.trim().toLowerCase() === wanted)
  if (found.length > 1) {
    const indices = found.map((s) => s.index)
    throw new PipelineError(
      'E_LEAD_SELECT',
      `${file}: lead ${JSON.stringify(entry)} (from leads): expected a label that names one signal, found ${found.length} signals labelled so, at indices ${indices.join(', ')}; select them by index instead, e.g. leads: [${indices.join(', ')}] in the dataset file (--lead ${indices[0]} for pipeline beats)`,
      { file, field: 'leads', label: entry, matches: indices },
    )
  }
  return found[0]
}
