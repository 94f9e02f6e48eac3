// open_evidence_reasoning: is the event present, and what in the tracing supports that? Made in
// pairs like closed_presence (one excerpt with the event, one without), so yes and no are equally
// often right; the gold text states the measured evidence (evidence-text.ts).
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { absentEvidence, presentEvidence } from '../evidence-text.ts'
import { inText } from '../vocabulary.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask, TEXT_METRICS } from './task-module.ts'
import { evidenceText } from '../answer-text.ts'

const ASK = [
  (e: string) => `Is ${e} present in this excerpt, and which features of the tracing support your answer (beat timing, intervals, QRS shape)?`,
  (e: string) => `Decide whether this segment shows ${e} and explain which waveform and rhythm features your decision rests on.`,
  (e: string) => `Does the excerpt contain ${e}? Give the evidence from the ECG for your answer.`,
]

/** An evidence item about `event` in this excerpt. */
export function openEvidenceReasoning(facts: ExcerptFacts, event: string, group: string, rng: SeededRandom): QaDraft {
  const found = eventIn(facts, event)
  const e = inText(event)
  const answer = found ? `Yes, ${e} is present: ${presentEvidence(facts, found)}.` : `No, ${e} is not present: ${absentEvidence(facts, event)}.`
  return {
    task: 'open_evidence_reasoning',
    question: pick(ASK, rng)(e),
    answer,
    gold: { value: found ? 'yes' : 'no', event, evidenceBeats: found ? found.occurrences.flatMap((o) => o.beats) : [], design: { distractors: 'pair', group } },
  }
}

export const task = defineTask({
  type: 'open_evidence_reasoning',
  tier: 'Open-QA',
  kind: 'yesno',
  metrics: ['yesNoAccuracy', ...TEXT_METRICS],
  ask: { block: 'pair', make: (facts, a) => openEvidenceReasoning(facts, a.event, a.group, a.rng) },
  answer: (a, q) => { const yes = a.yes(q); return yes === null ? null : evidenceText(yes, q.event, a.evidence?.(q, yes) ?? null) },
})
