// The findings of an excerpt that a diagnosis question names: every event of the vocabulary
// present in it, or, when there is none, normal sinus rhythm (sinus or unannotated rhythm and a
// mean rate from 60 to 100 bpm). An excerpt with no event at an abnormal rate has no finding
// a diagnosis item can name, and gets none.
import type { ExcerptFacts } from './excerpt-facts.ts'
import { NORMAL_SINUS_RHYTHM } from './vocabulary.ts'

/** The diagnosis labels true of an excerpt (vocabulary order), possibly none. */
export function diagnosisLabels(facts: ExcerptFacts): string[] {
  if (facts.events.length) return facts.events.map((e) => e.name)
  const sinus = facts.rhythms.every((r) => r.rhythm === 'N')
  const mean = facts.hr.meanHrBpm
  return sinus && mean !== null && mean >= 60 && mean <= 100 ? [NORMAL_SINUS_RHYTHM] : []
}
