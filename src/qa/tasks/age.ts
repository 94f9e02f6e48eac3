// age (the ECG multi-task benchmark's age estimation): the patient's age in years from the
// record's header, asked only where the header has it, scored by MAE. The question never says
// the age (the patient sentence is left out of these tasks).
import type { QaDraft } from '../draft.ts'
import type { Patient } from '../phrasing.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask } from './task-module.ts'

const ASK = [
  "Estimate the patient's age in years from this ECG. Answer with a number.",
  'How old is the patient whose ECG this is (years)?',
  'From the ECG alone, what is the age of this patient in years?',
]

/** The answer sentence for an age. */
export function ageText(years: number): string {
  return `The patient is ${Math.round(years)} years old.`
}

/** An age item, or null when the header does not give the age. */
export function ageItem(patient: Patient, rng: SeededRandom): QaDraft | null {
  if (patient.age === undefined) return null
  return { task: 'age', question: pick(ASK, rng), answer: ageText(patient.age), gold: { value: patient.age, unit: 'years', evidenceBeats: [] } }
}

export const task = defineTask({
  type: 'age',
  tier: 'Multitask',
  kind: 'number',
  unit: 'years',
  metrics: ['mae'],
  tellsPatient: false,
  ask: { block: 'every', make: (_facts, a) => (a.patient.age === undefined ? (a.leftOut('age not in the header'), null) : ageItem(a.patient, a.rng)) },
  answer: (a, q) => { const v = a.estimate?.(q, 'age') ?? null; return v === null ? null : ageText(v) },
})
