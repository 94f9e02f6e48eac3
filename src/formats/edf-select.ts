// Which signals of an EDF file are the ECG leads. Without a selector, a signal is ECG when its
// label names ECG/EKG or is a standard lead name (MLII, II, V1..V6, aVR, ...), or when its
// transducer names ECG/EKG; signals in a non-voltage unit (e.g. 'ECG HR' in bpm) are excluded so
// derived channels are not taken for leads (when only such signals are left, the error names
// them and their units). A selector (the dataset's `leads:`) names signals by label (exact,
// case-insensitive; a label two signals share is refused, lead-match.ts) or 0-based index.
// Blocks carry one sample rate for all leads.
import { PipelineError } from '../core/errors.ts'
import type { EdfHeader } from './edf-header.ts'
import type { EdfSignal } from './edf-signals.ts'
import { looksLikeEcgLabel, mentionsEcg } from './ecg-label.ts'
import { matchLead } from './lead-match.ts'
import { VOLTAGE_UNITS } from './units.ts'

function isVoltageOrUnknown(s: EdfSignal): boolean {
  return s.toMv !== null || s.physicalDimension === ''
}

/** True when a signal is named like an ECG lead by its label or transducer, whatever its unit. */
function namedEcg(s: EdfSignal): boolean {
  return !s.isAnnotation && (looksLikeEcgLabel(s.label) || mentionsEcg(s.transducer))
}

/** True when a signal looks like an ECG lead by its label or transducer. */
export function looksLikeEcg(s: EdfSignal): boolean {
  return namedEcg(s) && isVoltageOrUnknown(s)
}

function listSignals(header: EdfHeader): string {
  return header.signals
    .filter((s) => !s.isAnnotation)
    .map((s) => `${s.index} ${JSON.stringify(s.label)}`)
    .join(', ')
}

function noEcg(header: EdfHeader, file: string, what: string, example?: string | number): PipelineError {
  const e = example ?? header.signals.find((s) => !s.isAnnotation)?.label ?? 'ECG'
  return new PipelineError(
    'E_NO_ECG',
    `${file}: ${what}; the signals are: ${listSignals(header) || '(none)'}; choose the ECG leads by label or 0-based index (\`leads: [...]\` in a dataset file, --lead for pipeline beats), e.g. leads: [${JSON.stringify(e)}]`,
    { file, field: 'leads' },
  )
}

/** The error for a file whose only ECG-named signals are in units that are not voltages (mmHg, %). */
function noVoltageEcg(header: EdfHeader, file: string, named: EdfSignal[]): PipelineError {
  const list = named.map((s) => `signal ${s.index} ${JSON.stringify(s.label)} in ${JSON.stringify(s.physicalDimension)}`).join(', ')
  const what = `expected an ECG signal in a voltage unit (${VOLTAGE_UNITS.join(', ')}), found ${list}; a signal named ECG in another unit (a rate, a pressure) is not taken for a lead: if it is one, fix its physical dimension in the header, or select it by index to read its values unconverted`
  return noEcg(header, file, what, named[0].index)
}

/** Indices of the ECG signals to read: the selector's, or those that look like ECG; one sample rate. */
export function selectEcgSignals(header: EdfHeader, file: string, selector?: (string | number)[]): number[] {
  let chosen: EdfSignal[]
  if (selector && selector.length > 0) {
    chosen = []
    for (const entry of selector) {
      const s = matchLead(header.signals.filter((x) => !x.isAnnotation), entry, file)
      if (!s) {
        const kind = typeof entry === 'number' ? 'index' : 'label'
        throw noEcg(header, file, `expected a data signal with ${kind} ${JSON.stringify(entry)} (from leads), found none`)
      }
      if (!chosen.includes(s)) chosen.push(s)
    }
  } else {
    chosen = header.signals.filter(looksLikeEcg)
    const named = header.signals.filter(namedEcg)
    if (chosen.length === 0 && named.length > 0) throw noVoltageEcg(header, file, named)
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
