// Physical dimension (EDF) or units (WFDB) -> factor to mV, shared by both readers. Only voltages are converted; anything else (empty, '°',
// 'bpm') gives null and callers keep the values as they are and say so. Case matters for the
// prefix: 'MV' would be megavolts, so it is not taken as mV.

const TO_MV: ReadonlyMap<string, number> = new Map([
  ['mV', 1],
  ['mv', 1],
  ['uV', 0.001],
  ['uv', 0.001],
  ['\u00b5V', 0.001], // micro sign
  ['\u03bcV', 0.001], // Greek mu
  ['V', 1000],
  ['nV', 1e-6],
])

/** The voltage units known, for messages (TO_MV's spellings without the lower-case and Greek-mu variants). */
export const VOLTAGE_UNITS: readonly string[] = ['uV', 'mV', 'V', 'nV', '\u00b5V']

/** Factor that turns a value in `dimension` into mV, or null when the unit is not a known voltage. */
export function toMvFactor(dimension: string): number | null {
  return TO_MV.get(dimension.trim()) ?? null
}
