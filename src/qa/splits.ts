// Splits by case, never by item (issue 13, "Splits"; benchmark-spec.md): the cases are sorted,
// shuffled from the seed, and the first round(test x n) go to test, the next round(valid x rest)
// to valid, the rest to train, so for a given case list the proportions are exact and the
// assignment is the same on every machine. Every item of a case shares its case's split.
import { createSeededRandom } from '../excerpts/seeded-random.ts'
import { shuffled } from './option-groups.ts'

export type Split = 'train' | 'valid' | 'test'

export interface SplitOptions {
  /** Share of cases in test. */
  test: number
  /** Share of the cases left after test that go to valid. */
  valid: number
  seed: string
}

/** The split of every case of `caseIds` (duplicates allowed: several records of one patient). */
export function assignSplits(caseIds: readonly string[], o: SplitOptions): Map<string, Split> {
  const cases = shuffled([...new Set(caseIds)].sort(), createSeededRandom(`${o.seed}:splits`))
  const nTest = Math.round(o.test * cases.length)
  const nValid = Math.round(o.valid * (cases.length - nTest))
  return new Map(cases.map((c, i) => [c, i < nTest ? 'test' : i < nTest + nValid ? 'valid' : 'train']))
}
