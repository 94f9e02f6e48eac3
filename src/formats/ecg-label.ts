// Whether a signal label names an ECG lead, shared by the EDF and WFDB readers: the words ECG or
// EKG, or a standard lead name (MLII, II, V1..V6, aVR, ...).

const ECG_WORD = /(^|[^a-z])(ecg|ekg)/i
const LEAD_NAME = /^(lead\s*)?(ml\s*)?(i|ii|iii|avr|avl|avf|v[1-6])$/i

/** True when `label` (or a transducer text) names an ECG signal. */
export function looksLikeEcgLabel(label: string): boolean {
  const t = label.trim()
  return ECG_WORD.test(t) || LEAD_NAME.test(t)
}

/** True when `text` mentions ECG/EKG anywhere (for EDF transducer fields). */
export function mentionsEcg(text: string): boolean {
  return ECG_WORD.test(text)
}
