// report_statistical_overview: summarize the excerpt's statistics (duration, beats, mean and
// extreme rates with their times, tachycardia and bradycardia share). Gold: the figures.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { reportFigures } from '../report-figures.ts'
import { overviewText } from '../report-text.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask, TEXT_METRICS } from './task-module.ts'

const ASK = [
  'Give an overview of the heart-rate statistics of this excerpt.',
  'Summarize the recording statistics of the segment shown: duration, beats, heart rates and their times, time above 100 and below 60 bpm.',
  'What are the key statistics of this ECG excerpt?',
]

/** A statistical overview item. */
export function reportStatisticalOverview(facts: ExcerptFacts, avgBeats: number, rng: SeededRandom): QaDraft {
  const figures = reportFigures(facts, avgBeats)
  return { task: 'report_statistical_overview', question: pick(ASK, rng), answer: overviewText(figures, rng), gold: { figures: { ...figures }, evidenceBeats: [] } }
}

export const task = defineTask({
  type: 'report_statistical_overview',
  tier: 'Report-Generation',
  kind: 'report',
  metrics: ['scoreGpt', ...TEXT_METRICS],
  // ROUGE-L decides a report unless the judge scored it.
  decidedBy: (scoreGpt) => (scoreGpt ? 'scoreGpt' : 'rougeL'),
  ask: { block: 'every', make: (facts, a) => reportStatisticalOverview(facts, a.avgBeats, a.rng) },
  answer: (a, q) => a.report(q, 'overview'),
})
