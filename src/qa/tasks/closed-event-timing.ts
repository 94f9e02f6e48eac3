// closed_event_timing: at which time does the event occur? Asked of an excerpt where it occurs
// once (a timing block, excerpt-roles.ts: no other question about a finding is asked of that
// excerpt): the options are the true time and three other beats of the excerpt placed where the
// truths of the record's other timing items lie (decoy-beats.ts), in time order, so only telling
// which beat is the event's finds it. Lists of two or more times are not offered as options:
// whatever beats a decoy list is made of, its spacing differs from the true list's where the
// events sit in their own rhythm (a couplet's onsets, bigeminy); how many and when is asked
// openly (open_event_timing). Rhythm and sustained-rate events are not asked: their onsets are
// annotation times between beats, or no instant at all.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn, firstAtOrAfter } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { withArticle, type CountWords } from '../count-words.ts'
import { formatOptions } from '../../holtercare/options.ts'
import { pick } from '../phrasing.ts'
import { exchangeableDecoys } from '../decoy-beats.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask } from './task-module.ts'
import { nearestOption } from './option-pick.ts'
import { timingText } from '../answer-text.ts'

const ASK = [
  (w: CountWords) => `At which of these times (ms from the start of the recording) is there ${withArticle(w.singular)}${w.timedAt} in this excerpt?`,
  (w: CountWords) => `Which timestamp (ms) marks ${withArticle(w.singular)}${w.timedAt} in the segment shown?`,
  (w: CountWords) => `When, in ms from the recording's start, does this excerpt show ${withArticle(w.singular)}${w.timedAt}?`,
]

/** The beat a timing item's truth is, or null when the event does not occur exactly once, on a beat, with its onset in the excerpt. */
export function timingTruth(facts: ExcerptFacts, event: string): number | null {
  const found = eventIn(facts, event)
  if (!found || found.boundary || found.occurrences.length !== 1 || found.occurrences[0].beats.length === 0) return null
  return firstAtOrAfter(facts.beats, found.occurrences[0].sample)
}

/** Where a beat lies in the excerpt (0 at its start, 1 at its end). */
export function spanPosition(facts: ExcerptFacts, index: number): number {
  return (facts.beats[index].timeMs - facts.startMs) / (facts.endMs - facts.startMs)
}

/** A timing item, with decoys placed at `references` (the positions of other items' truths), or null when none fits. */
export function closedEventTiming(facts: ExcerptFacts, event: string, words: CountWords, references: readonly number[], rng: SeededRandom): QaDraft | null {
  const truth = timingTruth(facts, event)
  if (truth === null) return null
  const found = eventIn(facts, event)!
  const decoys = exchangeableDecoys({ truth, pool: facts.beats.map((_, i) => i), position: (i) => spanPosition(facts, i), references, minApart: 1 }, (n) => rng.below(n))
  if (!decoys) return null
  const order = [...decoys, truth].sort((a, b) => a - b)
  const rank = order.indexOf(truth)
  const lists = order.map((i) => String(i === truth ? found.occurrences[0].timeMs : Math.round(facts.beats[i].timeMs)))
  if (new Set(lists).size < 4) return null
  return {
    task: 'closed_event_timing',
    question: pick(ASK, rng)(words),
    options: formatOptions(lists),
    answer: `${'ABCD'[rank]}. ${lists[rank]}`,
    gold: { value: found.occurrences[0].timeMs, timestampsMs: [found.occurrences[0].timeMs], event, choices: lists, correct: rank, evidenceBeats: found.occurrences[0].beats, design: { distractors: 'exchangeable', rank } },
  }
}

export const task = defineTask({
  type: 'closed_event_timing',
  tier: 'Closed-QA',
  kind: 'choice',
  options: 'times',
  metrics: ['accuracy'],
  ask: { block: 'timing', make: (facts, a) => closedEventTiming(facts, a.event, a.words, a.references, a.rng) },
  pick: (a, q, options) => nearestOption(options, a.times(q)),
  answer: (a, q) => { const t = a.times(q); return t === null ? null : timingText(t, q.event) },
})
