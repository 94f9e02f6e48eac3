// report_general_summary: describe the excerpt's key findings as a Holter report would (figures,
// rhythm, ectopy with singles, pairs and runs, patterns, pauses, conclusion). Gold: the figures.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { reportFigures } from '../report-figures.ts'
import { summaryText } from '../report-text.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask, TEXT_METRICS } from './task-module.ts'

const ASK = [
  'Write a short Holter report of this excerpt: the statistics, the rhythm and the main abnormal findings.',
  'Summarize the electrocardiographic findings of the segment shown as a clinical report.',
  'Describe this ECG excerpt as a report: figures first, then rhythm, ectopy and conclusions.',
]

/** A general summary item. */
export function reportGeneralSummary(facts: ExcerptFacts, avgBeats: number, rng: SeededRandom): QaDraft {
  const figures = reportFigures(facts, avgBeats)
  return { task: 'report_general_summary', question: pick(ASK, rng), answer: summaryText(figures, rng), gold: { figures: { ...figures }, evidenceBeats: [] } }
}

export const task = defineTask({
  type: 'report_general_summary',
  tier: 'Report-Generation',
  kind: 'report',
  metrics: ['scoreGpt', ...TEXT_METRICS],
  decidedBy: (scoreGpt) => (scoreGpt ? 'scoreGpt' : 'rougeL'),
  ask: { block: 'every', make: (facts, a) => reportGeneralSummary(facts, a.avgBeats, a.rng) },
  answer: (a, q) => a.report(q, 'summary'),
})
