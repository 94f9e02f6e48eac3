// Which signals of a WFDB record are the ECG leads: the selector's (labels = signal
// descriptions, case-insensitive, a description two signals share refused (lead-match.ts), or
// 0-based indices), else those whose description names an ECG lead; a record whose signals have
// no descriptions at all is taken whole.
import { PipelineError } from '../core/errors.ts'
import type { WfdbHeader } from './wfdb-header.ts'
import { looksLikeEcgLabel } from './ecg-label.ts'
import { matchLead } from './lead-match.ts'

/** Indices of the signals to read. */
export function selectWfdbSignals(header: WfdbHeader, selector?: (string | number)[]): number[] {
  const list = () => header.signals.map((s) => `${s.index} ${JSON.stringify(s.label)}`).join(', ')
  const fail = (what: string) =>
    new PipelineError('E_NO_ECG', `${header.file}: ${what}; the signals are: ${list()}; choose the ECG leads by description or 0-based index (\`leads: [...]\` in a dataset file, --lead for pipeline beats)`, { file: header.file, field: 'leads' })
  if (selector && selector.length > 0) {
    const out: number[] = []
    for (const entry of selector) {
      const s = matchLead(header.signals, entry, header.file)
      if (!s) throw fail(`expected a signal with ${typeof entry === 'number' ? 'index' : 'description'} ${JSON.stringify(entry)} (from leads), found none`)
      if (!out.includes(s.index)) out.push(s.index)
    }
    return out
  }
  const ecg = header.signals.filter((s) => looksLikeEcgLabel(s.label)).map((s) => s.index)
  if (ecg.length > 0) return ecg
  if (header.signals.every((s) => s.description === '')) return header.signals.map((s) => s.index)
  throw fail('expected a signal described as ECG/EKG or a lead name (MLII, V1...), found none')
}
