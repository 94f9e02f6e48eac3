// The blind answerers of `pipeline qa audit` (docs/qa-checks.md): each picks an option of a
// closed item from its text alone, or abstains (null) when it does not apply (medoid on
// non-numeric options, the priors without a split to learn them from...). The option layout's
// answerers are here; where options lie in the stated span, position.ts; what the other
// questions of the same excerpt give away, join.ts. Pure.
import { LETTERS } from '../holtercare/format.ts'
import { compareLists, listDistance, parseNumericOptions, smallestGap } from '../qa/option-numbers.ts'
import { mostFrequent, normText, type ClosedQuestion, type Priors } from './priors.ts'
import { argBest, type Answerer, type Pick } from './pick.ts'
import { POSITION_ANSWERERS } from './position.ts'

export type { Answerer, Pick } from './pick.ts'
export { argBest } from './pick.ts'

const withOptions = (f: (opts: string[]) => number | null) => (q: ClosedQuestion): Pick => (q.options ? f(q.options) : null)
const numeric = (f: (lists: number[][]) => number | null) => withOptions((opts) => {
  const lists = parseNumericOptions(opts)
  return lists ? f(lists) : null
})

const medoid = numeric((l) => argBest(l.length, (i) => l.reduce((s, o) => s + listDistance(l[i], o), 0)))
const smallest = numeric((l) => argBest(l.length, (i) => l.filter((o) => compareLists(o, l[i]) < 0).length))
const largest = numeric((l) => argBest(l.length, (i) => l.filter((o) => compareLists(o, l[i]) > 0).length))
const hasList = (l: number[][]) => l.some((o) => o.length >= 2)
const tightest = numeric((l) => (hasList(l) ? argBest(l.length, (i) => smallestGap(l[i])) : null))
const widest = numeric((l) => (hasList(l) ? argBest(l.length, (i) => { const g = smallestGap(l[i]); return g === null ? null : -g }) : null))
// Options of one number each, in value order: the one after the smallest step (or before the
// largest) between neighbouring options. Beat times around a premature beat give it away so: its
// coupling interval before it is short, the pause after it long.
const steps = (pickStep: (gap: number) => number, side: 0 | 1) => numeric((l) => {
  if (l.length < 3 || !l.every((o) => o.length === 1)) return null
  const order = l.map((_, i) => i).sort((a, b) => l[a][0] - l[b][0])
  let best: number | null = null
  let score = Infinity
  for (let k = 1; k < order.length; k++) {
    const s = pickStep(l[order[k]][0] - l[order[k - 1]][0])
    if (s < score) [best, score] = [order[k - 1 + side], s]
  }
  return best
})

/** The answerers that need no train split. */
export const BLIND_ANSWERERS: readonly Answerer[] = [
  { name: 'medoid', describe: 'the numeric option with the smallest sum of list distances to the other options', pick: medoid },
  { name: 'smallest', describe: 'the numeric option whose sorted list is smallest (first number, then the next; a prefix first)', pick: smallest },
  { name: 'largest', describe: 'the numeric option whose sorted list is largest', pick: largest },
  { name: 'tightest list', describe: 'among options of 2+ numbers, the one with the smallest gap between consecutive numbers', pick: tightest },
  { name: 'widest list', describe: 'among options of 2+ numbers, the one with the largest smallest gap', pick: widest },
  { name: 'after shortest step', describe: 'among options of one number, in value order, the one after the smallest step between neighbours', pick: steps((g) => g, 1) },
  { name: 'before longest step', describe: 'among options of one number, in value order, the one before the largest step between neighbours', pick: steps((g) => -g, 0) },
  { name: 'longest text', describe: 'the option with the most characters', pick: withOptions((o) => argBest(o.length, (i) => -o[i].trim().length)) },
  { name: 'shortest text', describe: 'the option with the fewest characters', pick: withOptions((o) => argBest(o.length, (i) => o[i].trim().length)) },
  { name: 'first letter', describe: 'always A', pick: withOptions(() => 0) },
  { name: 'last letter', describe: 'always the last option', pick: withOptions((o) => o.length - 1) },
  ...POSITION_ANSWERERS,
]

const yesNo = (answer: 'yes' | 'no'): Answerer['pick'] => (q) => (q.options === null ? answer : null)

/** Every answerer: the blind ones, then yes/no and the train priors (`priors` from learnPriors, or none without --train). */
export function answerersFor(priors?: Priors): Answerer[] {
  if (!priors) {
    return [...BLIND_ANSWERERS,
      { name: 'always yes', describe: 'free-text yes/no: yes', pick: yesNo('yes') },
      { name: 'always no', describe: 'free-text yes/no: no', pick: yesNo('no') }]
  }
  return [...BLIND_ANSWERERS,
    { name: 'train yes/no', describe: 'free-text yes/no: the answer more frequent in the priors\' split for the task (yes on a tie)', pick: trainYesNo(priors) },
    { name: 'train letter', describe: 'the most frequent correct letter in train for the task and option count', pick: trainLetter(priors) },
    { name: 'train frequent value', describe: 'the option text most often correct in train for the task (else A)', pick: frequentValue(priors) },
    { name: 'train rare distractor', describe: 'the option text least often a distractor in train for the task (abstains when train saw none of them)', pick: rareDistractor(priors) }]
}

function trainYesNo(p: Priors): Answerer['pick'] {
  return (q) => {
    if (q.options !== null) return null
    const c = p.yesNo.get(q.task)
    return c && c.no > c.yes ? 'no' : 'yes'
  }
}

function trainLetter(p: Priors): Answerer['pick'] {
  return (q) => {
    if (!q.options) return null
    const letter = mostFrequent(p.letters.get(`${q.task}/${q.options.length}`), LETTERS.slice(0, q.options.length))
    return letter === null ? null : LETTERS.indexOf(letter as (typeof LETTERS)[number])
  }
}

function frequentValue(p: Priors): Answerer['pick'] {
  return (q) => {
    if (!q.options) return null
    const counts = p.correct.get(q.task)
    return argBest(q.options.length, (i) => -(counts?.get(normText(q.options![i])) ?? 0)) ?? 0
  }
}

function rareDistractor(p: Priors): Answerer['pick'] {
  return (q) => {
    if (!q.options) return null
    const seen = (t: string) => (p.correct.get(q.task)?.get(t) ?? 0) + (p.distractor.get(q.task)?.get(t) ?? 0)
    const texts = q.options.map(normText)
    if (!texts.some((t) => seen(t) > 0)) return null
    return argBest(texts.length, (i) => p.distractor.get(q.task)?.get(texts[i]) ?? 0)
  }
}
