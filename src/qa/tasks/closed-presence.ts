// closed_presence: is this event present in the excerpt? Made in pairs by the qa stage (one
// excerpt with the event, one without, same event and record), so "yes" and "no" are equally
// often right for every event asked; half the pairs answer in free text ("Yes, ..."), half pick
// between two options whose order the pair shares.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import { eventIn } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import { formatOptions } from '../../holtercare/options.ts'
import { inText } from '../vocabulary.ts'
import { pick } from '../phrasing.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'
import { defineTask } from './task-module.ts'
import { yesNoOption } from './option-pick.ts'
import { yesNoText } from '../answer-text.ts'

const ASK = [
  (e: string) => `Is there ${e} anywhere in this excerpt?`,
  (e: string) => `Does this ECG excerpt show ${e}?`,
  (e: string) => `Looking at the whole excerpt, can you see ${e}?`,
  (e: string) => `Would you report ${e} in this segment of the recording?`,
]
const YES = [(e: string) => `Yes, ${e} is present in this excerpt.`, (e: string) => `Yes, the excerpt shows ${e}.`, (e: string) => `Yes: ${e} can be seen in this segment.`]
const NO = [(e: string) => `No, there is no ${e} in this excerpt.`, (e: string) => `No, the excerpt shows no ${e}.`, (e: string) => `No: ${e} does not occur in this segment.`]

/** A presence item; `options` is the pair's option order (["Yes","No"] or ["No","Yes"]) or null for free text. */
export function closedPresence(facts: ExcerptFacts, event: string, options: readonly string[] | null, group: string, rng: SeededRandom): QaDraft {
  const found = eventIn(facts, event)
  const yes = found !== null
  const e = inText(event)
  const gold = { value: yes ? 'yes' : 'no', event, evidenceBeats: found ? found.occurrences.flatMap((o) => o.beats) : [], design: { distractors: 'pair' as const, group } }
  if (!options) return { task: 'closed_presence', question: pick(ASK, rng)(e), answer: pick(yes ? YES : NO, rng)(e), gold }
  const correct = options.indexOf(yes ? 'Yes' : 'No')
  return { task: 'closed_presence', question: pick(ASK, rng)(e), options: formatOptions(options), answer: `${'AB'[correct]}. ${options[correct]}`, gold: { ...gold, choices: [...options], correct } }
}

export const task = defineTask({
  type: 'closed_presence',
  tier: 'Closed-QA',
  kind: 'choice',
  options: 'yesno',
  metrics: ['accuracy'],
  ask: { block: 'pair', make: (facts, a) => closedPresence(facts, a.event, a.options, a.group, a.rng) },
  pick: (a, q, options) => yesNoOption(options, a.yes(q)),
  answer: (a, q) => { const yes = a.yes(q); return yes === null ? null : yesNoText(yes, q.event) },
})
