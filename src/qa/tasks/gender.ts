// gender (the ECG multi-task benchmark's sex classification): male (class 0) or female (class 1)
// from the record's header, asked only where the header has it, scored by binary F1 with
// female as the positive class, as that benchmark scores it.
import type { QaDraft } from '../draft.ts'
import type { Patient } from '../phrasing.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask } from './task-module.ts'

export const SEX_CLASSES = ['male', 'female'] as const

const ASK = [
  'Is this ECG from a male or a female patient? Answer male or female.',
  "What is the patient's sex, judging from this ECG: male or female?",
  'Male or female: whose ECG is this?',
]

/** The answer sentence for a sex class. */
export function sexText(cls: number): string {
  return cls === 1 ? 'The patient is female.' : 'The patient is male.'
}

/** A sex item, or null when the header does not give the sex. */
export function genderItem(patient: Patient, rng: SeededRandom): QaDraft | null {
  if (patient.sex === undefined) return null
  const value = patient.sex === 'F' ? 1 : 0
  return { task: 'gender', question: pick(ASK, rng), answer: sexText(value), gold: { value, className: SEX_CLASSES[value], evidenceBeats: [] } }
}

export const task = defineTask({
  type: 'gender',
  tier: 'Multitask',
  kind: 'class',
  classes: SEX_CLASSES,
  metrics: ['binaryF1'],
  tellsPatient: false,
  ask: { block: 'every', make: (_facts, a) => (a.patient.sex === undefined ? (a.leftOut('sex not in the header'), null) : genderItem(a.patient, a.rng)) },
  answer: (a, q) => { const c = a.classify?.(q, 'gender', SEX_CLASSES) ?? null; return c === null ? null : sexText(c) },
})
