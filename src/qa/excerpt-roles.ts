// Which kind of question block each excerpt of a record hosts. A question may not give another
// away, and the way questions are chosen is itself a message: a count asked only where the
// finding occurs says it occurs, a group of counts with one zero says three of its excerpts
// have the finding, a diagnosis option names a finding that is absent unless it is the answer.
// So the questions that are chosen by what an excerpt holds come in blocks, and an excerpt hosts
// one block, about one finding at most:
//   pair       presence or evidence, counting and timing about one finding, on two excerpts, one
//              with it and one without, every question asked on both or neither;
//   count      a closed counting item of a group (option-groups.ts);
//   timing     a closed timing item about a finding that occurs once;
//   diagnosis  a closed diagnosis item of a group;
//   extremum   the heart-rate extremum items (whether one can be asked depends on the rhythm:
//              a premature beat makes the fastest beat stand out).
// The tasks chosen without looking at findings (open diagnosis, reports) are asked of every
// excerpt whatever its block. Roles are drawn per excerpt among those it can host, weighted by
// how many items each block yields, from a seeded stream; an excerpt its block could not use
// (no partner, no group) is offered to the diagnosis groups, then to the extremum items.
// Pure.
import type { SeededRandom } from '../excerpts/seeded-random.ts'
import { tasksIn } from './tasks/index.ts'

export type Role = 'pair' | 'count' | 'timing' | 'diagnosis' | 'extremum'

const ROLES: readonly Role[] = ['pair', 'count', 'timing', 'diagnosis', 'extremum']

/** The tasks of each block (their modules say which block they are asked in). */
export const ROLE_TASKS: Record<Role, readonly string[]> = Object.fromEntries(ROLES.map((r) => [r, tasksIn(r).map((t) => t.type)])) as unknown as Record<Role, readonly string[]>

// Weights that give every closed task a similar share of a record with common ectopy: a pair
// block yields up to four items, a counting group needs four excerpts of different counts, and
// an excerpt where a finding occurs exactly once (the only kind a timing item can use) is rare.
const WEIGHT: Record<Role, number> = { pair: 4, count: 3, timing: 8, diagnosis: 2, extremum: 2 }

/** A role per excerpt (null: none fits), given the tasks each asks and whether it can host a timing or a diagnosis item. */
export function assignRoles(excerpts: readonly { tasks: ReadonlySet<string>; canTime: boolean; canDiagnose: boolean }[], rng: SeededRandom): (Role | null)[] {
  return excerpts.map((e) => {
    const fits = ROLES.filter((r) => ROLE_TASKS[r].some((t) => e.tasks.has(t)) && (r !== 'timing' || e.canTime) && (r !== 'diagnosis' || e.canDiagnose))
    if (!fits.length) return null
    let x = rng.next() * fits.reduce((s, r) => s + WEIGHT[r], 0)
    for (const r of fits) if ((x -= WEIGHT[r]) < 0) return r
    return fits.at(-1)!
  })
}
