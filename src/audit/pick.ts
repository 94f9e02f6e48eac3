// What an audit answerer is: a name, a line saying what it does, and a pick from a closed
// question's text alone (an option index, yes/no, or null to abstain where it does not apply).
// Ties go to the earliest option, so a tie favours no letter over the balanced letters of a
// release. Pure.
import type { ClosedQuestion } from './priors.ts'

export type Pick = number | 'yes' | 'no' | null

export interface Answerer {
  name: string
  /** One line for the docs and the JSON report. */
  describe: string
  pick(q: ClosedQuestion): Pick
}

/** Index of the best option by `score` (smaller wins; null scores skipped), ties to the first; null when none scores. */
export function argBest(n: number, score: (i: number) => number | null): number | null {
  let best: number | null = null
  let bestScore = Infinity
  for (let i = 0; i < n; i++) {
    const s = score(i)
    if (s !== null && (best === null || s < bestScore)) [best, bestScore] = [i, s]
  }
  return best
}
