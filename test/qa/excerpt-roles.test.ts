// Which block each excerpt hosts (unit layer): only blocks whose tasks the excerpt asks, a timing
// block only where a finding occurs once, a diagnosis block only where a finding can be named,
// none where nothing fits; drawn from a seeded stream in proportion to the blocks' weights.
import { describe, expect, it } from 'vitest'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import { assignRoles, ROLE_TASKS, type Role } from '../../src/qa/excerpt-roles.ts'
import { TASK_TYPES, type TaskType } from '../../src/holtercare/format.ts'

const ROLES = Object.keys(ROLE_TASKS) as Role[]
const excerpt = (tasks: readonly TaskType[], canTime = true, canDiagnose = true) => ({ tasks: new Set(tasks), canTime, canDiagnose })
// The roles of 4,000 copies of one excerpt.
const draws = (e: ReturnType<typeof excerpt>, seed = 'roles') => assignRoles(Array.from({ length: 4000 }, () => e), createSeededRandom(seed))

describe('ROLE_TASKS', () => {
  it('puts every task chosen by what an excerpt holds in exactly one block, and no other', () => {
    const blockTasks = ROLES.flatMap((r) => ROLE_TASKS[r])
    expect(new Set(blockTasks).size).toBe(blockTasks.length)
    // Asked of every excerpt whatever it holds, so in no block.
    expect(TASK_TYPES.filter((t) => !blockTasks.includes(t)).sort()).toEqual(['open_diagnosis', 'report_general_summary', 'report_statistical_overview'])
  })
})

describe('assignRoles', () => {
  it.each([
    { name: 'no task', tasks: [], roles: [] },
    { name: 'only tasks outside every block', tasks: ['open_diagnosis', 'report_general_summary'], roles: [] },
    { name: 'presence only', tasks: ['closed_presence'], roles: ['pair'] },
    { name: 'open timing only', tasks: ['open_event_timing'], roles: ['pair'] },
    { name: 'closed counting only', tasks: ['closed_event_counting'], roles: ['count'] },
    { name: 'closed timing only', tasks: ['closed_event_timing'], roles: ['timing'] },
    { name: 'closed timing, nothing occurring once', tasks: ['closed_event_timing'], canTime: false, roles: [] },
    { name: 'diagnosis, no finding to name', tasks: ['closed_diagnosis', 'open_HR_extremum_timing'], canDiagnose: false, roles: ['extremum'] },
    { name: 'every task', tasks: TASK_TYPES, roles: ROLES },
    { name: 'every task, nothing once, nothing named', tasks: TASK_TYPES, canTime: false, canDiagnose: false, roles: ['pair', 'count', 'extremum'] },
  ] as { name: string; tasks: TaskType[]; canTime?: boolean; canDiagnose?: boolean; roles: Role[] }[])('$name: $roles', ({ tasks, canTime, canDiagnose, roles }) => {
    const got = draws(excerpt(tasks, canTime, canDiagnose))
    expect([...new Set(got)].filter((r) => r !== null).sort()).toEqual([...roles].sort())
    if (!roles.length) expect(got.every((r) => r === null)).toBe(true)
    else expect(got.includes(null)).toBe(false)
  })

  it('draws in proportion to the weights (pair 4, count 3, timing 8, diagnosis 2, extremum 2)', () => {
    const got = draws(excerpt(TASK_TYPES))
    const share = (r: Role) => got.filter((x) => x === r).length / got.length
    const weights: Record<Role, number> = { pair: 4, count: 3, timing: 8, diagnosis: 2, extremum: 2 }
    for (const r of ROLES) expect(Math.abs(share(r) - weights[r] / 19)).toBeLessThan(0.025)
    // Without a timing block the others share its weight.
    const noTiming = draws(excerpt(TASK_TYPES, false))
    expect(Math.abs(noTiming.filter((x) => x === 'pair').length / 4000 - 4 / 11)).toBeLessThan(0.025)
    expect(Math.abs(noTiming.filter((x) => x === 'extremum').length / 4000 - 2 / 11)).toBeLessThan(0.025)
  })

  it('is the same for one seed, another for another, one role per excerpt in order', () => {
    const list = [excerpt(['closed_presence']), excerpt(TASK_TYPES), excerpt([]), excerpt(['closed_diagnosis'])]
    const a = assignRoles(list, createSeededRandom('x'))
    expect(a).toHaveLength(4)
    expect([a[0], a[2], a[3]]).toEqual(['pair', null, 'diagnosis'])
    expect(assignRoles(list, createSeededRandom('x'))).toEqual(a)
    expect(draws(excerpt(TASK_TYPES), 'y')).not.toEqual(draws(excerpt(TASK_TYPES), 'x'))
  })
})
