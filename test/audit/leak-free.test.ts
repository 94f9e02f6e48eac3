// The closed tasks carry no signal a blind answerer can use: over thousands of items made by the
// qa stage's own code from synthetic records of many kinds, every answerer of the audit (the
// option layout, where options lie in the stated span, the other questions of the same excerpt,
// and the priors and learned join of the other split) stays within chance + 3 points on every
// closed task, with at least 500 items each. bench/qa-leaks.ts prints the whole table.
import { describe, expect, it } from 'vitest'
import { auditItems } from '../../src/audit/report.ts'
import { TASKS_BY_TIER } from '../../src/holtercare/format.ts'
import { syntheticBenchmark } from '../helpers/synthetic-benchmark.ts'

describe('closed options are leak-free', () => {
  const report = auditItems([...syntheticBenchmark(200, 'train'), ...syntheticBenchmark(200, 'test')])

  it('audits each split with priors from the other', () => {
    expect(report.priors).toBe('cross-split')
  })

  it.each([...TASKS_BY_TIER['Closed-QA'], 'open_evidence_reasoning'])('%s: at least 500 items, every blind answerer within chance + 3 points', (task) => {
    const t = report.closed.find((c) => c.task === task)!
    expect(t.items).toBeGreaterThanOrEqual(500)
    expect(t.unparsed).toBe(0)
    const over = t.answerers.filter((a) => a.items >= 100 && a.marginPoints > 3).map((a) => `${a.answerer} ${(100 * a.accuracy).toFixed(1)}% vs ${(100 * a.chance).toFixed(1)}% on ${a.items}`)
    expect(over).toEqual([])
  })
})
