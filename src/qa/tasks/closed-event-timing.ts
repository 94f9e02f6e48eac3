// closed_event_timing: which list gives the time of every occurrence of the event? The options
// are the true list and the same list moved along the excerpt's own beats by whole beats: option
// j lists the beats (j - rank) x stride positions away from each true one, so every option is a
// list of real beat times with the truth's spacing, the truth sits at a uniformly drawn rank (the
// deck's), and only telling which beats are the event's finds it. Made where every shifted beat
// exists in the excerpt and no two listed beats are neighbours: the interval between two adjacent
// beats of a couplet or run is a premature one, which no shifted pair has, so a list of them
// would give itself away by its spacing (the tightest list) to an answerer blind to the ECG.
// Rhythm events are not asked so: their onsets are annotation times between beats, and the one
// option off the beats would be the truth.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { formatOptions } from '../holtercare-format.ts'
import { inText } from '../vocabulary.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

const ASK = [
  (e: string) => `Which option lists the times (ms from the start of the recording) of every ${e} in this excerpt?`,
  (e: string) => `${cap(e)} occurs in this excerpt. At which millisecond times does it occur, all of them?`,
  (e: string) => `Select the list of timestamps (ms) that gives each occurrence of ${e} in the segment shown.`,
]

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1)
}

/** The index of the first beat at or after `sample`. */
export function beatIndexAt(facts: ExcerptFacts, sample: number): number {
  let lo = 0
  let hi = facts.beats.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (facts.beats[mid].sample < sample) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A timing item with the truth at `rank` (0-3), or null when the shifted lists leave the excerpt. */
export function closedEventTiming(facts: ExcerptFacts, event: string, rank: number, stride: number, rng: SeededRandom): QaDraft | null {
  const found = eventIn(facts, event)!
  if (found.occurrences.some((o) => o.beats.length === 0)) return null
  const anchors = found.occurrences.map((o) => beatIndexAt(facts, o.sample))
  if (anchors.some((a, k) => k > 0 && a - anchors[k - 1] < 2)) return null
  const lists: string[] = []
  for (let j = 0; j < 4; j++) {
    const shift = (j - rank) * stride
    if (shift === 0) {
      lists.push(found.occurrences.map((o) => o.timeMs).join(', '))
      continue
    }
    const idx = anchors.map((a) => a + shift)
    if (idx.some((i) => i < 0 || i >= facts.beats.length)) return null
    lists.push(idx.map((i) => Math.round(facts.beats[i].timeMs)).join(', '))
  }
  if (new Set(lists).size < 4) return null
  return {
    task: 'closed_event_timing',
    question: pick(ASK, rng)(inText(event)),
    options: formatOptions(lists),
    answer: `${'ABCD'[rank]}. ${lists[rank]}`,
    gold: { value: found.occurrences.length, timestampsMs: found.occurrences.map((o) => o.timeMs), event, choices: lists, correct: rank, evidenceBeats: found.occurrences.flatMap((o) => o.beats), design: { distractors: 'shift', rank } },
  }
}
