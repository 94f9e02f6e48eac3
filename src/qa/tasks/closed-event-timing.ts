// closed_event_timing: at which time does the event occur? Asked about an excerpt where it occurs
// once: the options are the true time and three other beats of the excerpt drawn at random (none
// next to another or to the truth: decoy-beats.ts), the truth at a rank drawn from the deck in
// time order, so only telling which beat is the event's finds it. Lists of two or more times are
// not offered as options: whatever beats a decoy list is made of, its spacing differs from the
// true list's where the events sit in their own rhythm (a couplet's onsets, bigeminy), and the
// bundled records showed it (the widest list was the truth in 8 % of couplet items, 57 % of PAC
// ones); how many and when, as a list, is asked openly (open_event_timing). Rhythm events are not
// asked either: their onsets are annotation times between beats.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn, firstAtOrAfter } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { formatOptions } from '../holtercare-format.ts'
import { inText } from '../vocabulary.ts'
import { pick } from '../phrasing.ts'
import { decoysAround } from '../decoy-beats.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

const ASK = [
  (e: string) => `${cap(e)} occurs once in this excerpt. At which time (ms from the start of the recording) does it occur?`,
  (e: string) => `Which timestamp (ms) marks the one ${e} in the segment shown?`,
  (e: string) => `This excerpt holds a single ${e}. When does it occur, in ms from the recording's start?`,
]

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1)
}

/** A timing item with the truth at `rank` (0-3), or null when the event does not occur once, on a beat, with room for the decoys. */
export function closedEventTiming(facts: ExcerptFacts, event: string, rank: number, rng: SeededRandom): QaDraft | null {
  const found = eventIn(facts, event)
  if (!found || found.boundary || found.occurrences.length !== 1 || found.occurrences[0].beats.length === 0) return null
  const truth = firstAtOrAfter(facts.beats, found.occurrences[0].sample)
  const pool = facts.beats.map((_, i) => i)
  const decoys = decoysAround(truth, pool, rank, (n) => rng.below(n))
  if (!decoys) return null
  const times = [...decoys.slice(0, rank), truth, ...decoys.slice(rank)].map((i) => (i === truth ? found.occurrences[0].timeMs : Math.round(facts.beats[i].timeMs)))
  const lists = times.map(String)
  if (new Set(lists).size < 4) return null
  return {
    task: 'closed_event_timing',
    question: pick(ASK, rng)(inText(event)),
    options: formatOptions(lists),
    answer: `${'ABCD'[rank]}. ${lists[rank]}`,
    gold: { value: found.occurrences[0].timeMs, timestampsMs: [found.occurrences[0].timeMs], event, choices: lists, correct: rank, evidenceBeats: found.occurrences[0].beats, design: { distractors: 'shift', rank } },
  }
}
