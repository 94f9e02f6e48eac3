// Splits by case, never by item (docs/qa.md, "Splits"): the cases a dataset pins to a split go
// there; the others are sorted, shuffled from the seed, and the first round(test x n) go to
// test, the next round(valid x rest) to valid, the rest to train, so for a given case list the
// proportions are exact and the assignment is the same on every machine. Pins exist because a
// few cases leave the proportions to chance (3 cases: one test case, no valid one, and whichever
// events that one patient happens to have); with no pins the assignment is what it always was.
// Every item of a case shares its case's split.
import { PipelineError } from '../core/errors.ts'
import { createSeededRandom } from '../excerpts/seeded-random.ts'
import { shuffled } from './option-groups.ts'

export type Split = 'train' | 'valid' | 'test'

/** The splits, in the order the shares are applied. */
export const SPLITS: readonly Split[] = ['test', 'valid', 'train']

/** Case ids pinned to each split. */
export type SplitPins = Partial<Record<Split, readonly string[]>>

export interface SplitOptions {
  /** Share of the unpinned cases in test. */
  test: number
  /** Share of the unpinned cases left after test that go to valid. */
  valid: number
  seed: string
  pin?: SplitPins
}

/** The cases `pin` lists twice (in one split or in two), as messages naming the option. */
export function pinnedTwice(pin: SplitPins): string[] {
  const out: string[] = []
  const where = new Map<string, Split>()
  for (const split of SPLITS) {
    for (const id of pin[split] ?? []) {
      const before = where.get(id)
      if (before === split) out.push(`qa option split.pin.${split} lists case "${id}" twice; list it once`)
      else if (before) out.push(`qa option split.pin pins case "${id}" to both ${before} and ${split}; pin a case to one split`)
      else where.set(id, split)
    }
  }
  return out
}

/** The cases `pin` names that are not among `caseIds`, as messages naming the option and the id. */
export function unknownPins(pin: SplitPins, caseIds: readonly string[]): string[] {
  const known = new Set(caseIds)
  return SPLITS.flatMap((split) => (pin[split] ?? []).filter((id) => !known.has(id)).map((id) => `qa option split.pin.${split} names case "${id}", which is not a case of this dataset (${listed(known)}); a case is a record's patient.id, else the record's id: correct the id or remove it`))
}

/** The split of every case of `caseIds` (duplicates allowed: several records of one patient); E_CONFIG_VALUE for a bad pin. */
export function assignSplits(caseIds: readonly string[], o: SplitOptions): Map<string, Split> {
  const all = [...new Set(caseIds)].sort()
  const pin = o.pin ?? {}
  const problems = [...pinnedTwice(pin), ...unknownPins(pin, all)]
  if (problems.length) throw new PipelineError('E_CONFIG_VALUE', problems.join('; '), { field: 'split.pin' })
  const pinned = new Map(SPLITS.flatMap((s) => (pin[s] ?? []).map((id) => [id, s] as const)))
  const cases = shuffled(all.filter((c) => !pinned.has(c)), createSeededRandom(`${o.seed}:splits`))
  const nTest = Math.round(o.test * cases.length)
  const nValid = Math.round(o.valid * (cases.length - nTest))
  const drawn = cases.map((c, i): [string, Split] => [c, i < nTest ? 'test' : i < nTest + nValid ? 'valid' : 'train'])
  return new Map([...drawn, ...pinned])
}

// The cases, for a message: all of them when few, else the first ones and how many more.
function listed(cases: ReadonlySet<string>): string {
  const list = [...cases].sort()
  const shown = list.slice(0, 8).join(', ')
  return list.length === 0 ? 'it has none' : list.length > 8 ? `its cases: ${shown} and ${list.length - 8} more` : `its cases: ${shown}`
}
