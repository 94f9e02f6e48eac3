// open_diagnosis: which abnormal rhythms and ectopic beats does the excerpt show? Gold: the set
// of vocabulary events present (scored as a label set and as text), or none.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { andList, pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask, TEXT_METRICS } from './task-module.ts'
import { diagnosisText } from '../answer-text.ts'

const ASK = [
  'Which arrhythmias or ectopic beats are present in this excerpt?',
  'List the abnormal rhythm findings you see in the segment shown.',
  'What abnormal heart rhythms, if any, does this ECG excerpt contain?',
]
const SOME = [(l: string) => `The excerpt shows ${l}.`, (l: string) => `Findings in this segment: ${l}.`]
const NONE = ['No arrhythmia or ectopic beat is present in this excerpt.', 'The segment shows no abnormal rhythm finding.']

/** An open diagnosis item. */
export function openDiagnosis(facts: ExcerptFacts, rng: SeededRandom): QaDraft {
  const labels = facts.events.map((e) => e.name)
  return {
    task: 'open_diagnosis',
    question: pick(ASK, rng),
    answer: labels.length ? pick(SOME, rng)(andList(labels)) : pick(NONE, rng),
    gold: { labels, evidenceBeats: facts.events.flatMap((e) => e.occurrences.flatMap((o) => o.beats)) },
  }
}

export const task = defineTask({
  type: 'open_diagnosis',
  tier: 'Open-QA',
  kind: 'labels',
  metrics: ['labelF1', ...TEXT_METRICS],
  ask: { block: 'every', make: (facts, a) => openDiagnosis(facts, a.rng) },
  answer: (a, q) => { const l = a.labels(q, false); return l === null ? null : diagnosisText(l) },
})
