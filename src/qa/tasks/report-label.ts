// report_label (the ECG multi-task benchmark's arrhythmia classification): which of the
// benchmark's 15 rhythm statements describes the excerpt, from its reference rhythm and beats
// (rhythm-class.ts), scored by accuracy. An excerpt no statement describes whole is left out and
// counted by reason.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { pick } from '../phrasing.ts'
import { rhythmClass } from '../rhythm-class.ts'
import { ARRHYTHMIA_CLASSES } from '../../metrics/multitask.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask } from './task-module.ts'

const LIST = ARRHYTHMIA_CLASSES.map((c, i) => `${i} ${c}`).join('; ')
const ASK = [
  `Which one of these rhythm statements describes this ECG? ${LIST}. Answer with the statement.`,
  `Classify the rhythm of this excerpt as one of: ${LIST}. Give the statement.`,
]

/** The answer sentence for a class. */
export function classText(cls: number): string {
  const name = ARRHYTHMIA_CLASSES[cls]
  return `${name[0].toUpperCase()}${name.slice(1)}.`
}

/** An arrhythmia-class item, or the reason the excerpt has no class. */
export function reportLabel(facts: ExcerptFacts, rng: SeededRandom): QaDraft | { leftOut: string } {
  const c = rhythmClass(facts)
  if ('leftOut' in c) return c
  return { task: 'report_label', question: pick(ASK, rng), answer: classText(c.cls), gold: { value: c.cls, className: ARRHYTHMIA_CLASSES[c.cls], evidenceBeats: facts.beats.map((b) => b.sample) } }
}

export const task = defineTask({
  type: 'report_label',
  tier: 'Multitask',
  kind: 'class',
  classes: ARRHYTHMIA_CLASSES,
  metrics: ['accuracy'],
  tellsPatient: false,
  ask: {
    block: 'every',
    make: (facts, a) => {
      const d = reportLabel(facts, a.rng)
      if ('leftOut' in d) return (a.leftOut(d.leftOut), null)
      return d
    },
  },
  answer: (a, q) => { const c = a.classify?.(q, 'report_label', ARRHYTHMIA_CLASSES) ?? null; return c === null ? null : classText(c) },
})
