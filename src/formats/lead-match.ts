// Finds the signal an entry of the dataset's `leads:` (or --lead) names, for EDF and WFDB alike:
// a 0-based index, or a label compared trimmed and case-insensitively. Two signals may share a
// label (PhysioNet SVDB record 800 labels both leads "ECG"); taking the first would silently
// read the wrong lead, so a label that names several signals is an error that lists them.
import { PipelineError } from '../core/errors.ts'

export interface LeadCandidate {
  index: number
  label: string
}

/** The positions in `labels` that `label` names, compared trimmed and case-insensitively. */
export function labelMatches(labels: readonly string[], label: string): number[] {
  const wanted = label.trim().toLowerCase()
  const out: number[] = []
  labels.forEach((l, i) => {
    if (l.trim().toLowerCase() === wanted) out.push(i)
  })
  return out
}

/** The signal `entry` names among `signals` (undefined when none); throws E_LEAD_SELECT when a label names several. */
export function matchLead<S extends LeadCandidate>(signals: readonly S[], entry: string | number, file: string): S | undefined {
  if (typeof entry === 'number') return signals.find((s) => s.index === entry)
  const found = labelMatches(signals.map((s) => s.label), entry).map((i) => signals[i])
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

/**
 * The index of the lead `wanted` names among `labels` (an index, or a label compared as the
 * dataset's `leads:` are), for a stage's option `option`: a label two leads share (SVDB 800's
 * "ECG", "ECG") is an error listing their indices, not the first of them.
 */
export function leadIndex(stage: string, option: string, wanted: number | string, labels: readonly string[]): number {
  const found = typeof wanted === 'number' ? (wanted < labels.length ? [wanted] : []) : labelMatches(labels, wanted)
  if (found.length === 1) return found[0]
  const fix = found.length ? `select one of them by index (${found.join(' or ')})` : `use those labels or indices from 0 to ${labels.length - 1}`
  const what = found.length ? `names ${found.length} leads of the record [${labels.join(', ')}], at indices ${found.join(', ')}` : `is not among the record's leads [${labels.join(', ')}]`
  throw new PipelineError('E_CONFIG_VALUE', `${stage}: option "${option}": lead ${JSON.stringify(wanted)} ${what}; ${fix}`, { field: option })
}
