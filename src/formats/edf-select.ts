// Which signals of an EDF file are the ECG leads. Without a selector, a signal is ECG when its
// label names ECG/EKG or is a standard lead name (MLII, II, V1..V6, aVR, ...), or when its
// transducer names ECG/EKG; signals in a non-voltage unit (e.g. 'ECG HR' in bpm) are excluded so
// derived channels are not taken for leads. A selector (the dataset's `leads:`) names signals by
// label (exact, case-insensitive) or 0-based index. Blocks carry one sample rate for all leads.
import { PipelineError } from '../core/errors.ts'
import type { EdfHeader } from './edf-header.ts'
import type { EdfSignal } from './edf-signals.ts'
import { looksLikeEcgLabel, mentionsEcg } from './ecg-label.ts'


function isVoltageOrUnknown(s: EdfSignal): boolean {
  return s.toMv !== null || s.physicalDimension === ''
}

/** True when a signal looks like an ECG lead by its label or transducer. */
export function looksLikeEcg(s: EdfSignal): boolean {
  if (s.isAnnotation || !isVoltageOrUnknown(s)) return false
  return looksLikeEcgLabel(s.label) || mentionsEcg(s.transducer)
}

function listSignals(header: EdfHeader): string {
  return header.signals
    .filter((s) => !s.isAnnotation)
    .map((s) => `${s.index} ${JSON.stringify(s.label)}`)
    .join(', ')
}

function noEcg(header: EdfHeader, file: string, what: string): PipelineError {
  return new PipelineError(
    'E_NO_ECG',
    `${file}: ${what}; the signals are: ${listSignals(header) || '(none)'}; choose the ECG leads by label or 0-based index (\`leads: [...]\` in a dataset file, --lead for pipeline beats), e.g. leads: [${JSON.stringify(header.signals.find((s) => !s.isAnnotation)?.label ?? 'ECG')}]`,
    { file, field: 'leads' },
  )
}

function findSignal(header: EdfHeader, entry: string | number): EdfSignal | undefined {
  if (typeof entry === 'number') {
    const s = header.signals[entry]
    return Number.isInteger(entry) && s && !s.isAnnotation ? s : undefined
  }
  const wanted = entry.trim().toLowerCase()
  return header.signals.find((s) => !s.isAnnotation && s.label.trim().toLowerCase() === wanted)
}

/** Indices of the ECG signals to read: the selector's, or those that look like ECG; one sample rate. */
export function selectEcgSignals(header: EdfHeader, file: string, selector?: (string | number)[]): number[] {
  let chosen: EdfSignal[]
  if (selector && selector.length > 0) {
    chosen = []
    for (const entry of selector) {
      const s = findSignal(header, entry)
      if (!s) {
        const kind = typeof entry === 'number' ? 'index' : 'label'
        throw noEcg(header, file, `expected a data signal with ${kind} ${JSON.stringify(entry)} (from leads), found none`)
      }
      if (!chosen.includes(s)) chosen.push(s)
    }
  } else {
    chosen = header.signals.filter(looksLikeEcg)
    if (chosen.length === 0) throw noEcg(header, file, 'expected a signal labelled ECG/EKG or with a lead name (MLII, V1...), found none')
  }
  const rates = new Set(chosen.map((s) => s.sampleRate))
  if (rates.size > 1) {
    const list = chosen.map((s) => `${JSON.stringify(s.label)} at ${s.sampleRate} Hz`).join(', ')
    throw new PipelineError(
      'E_LEAD_SELECT',
      `${file}: expected the selected ECG signals to share one sample rate, found ${list}; list only leads with the same rate in \`leads: [...]\` in the dataset file`,
      { file, field: 'leads' },
    )
  }
  return chosen.map((s) => s.index)
}
