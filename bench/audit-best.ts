// The best answerer of one closed task of a qa audit, among those with 100 items or more (fewer
// items say little about a margin), and its cells for a results table: answerer (items), margin
// in points, p. Shared by the audit benchmarks.
import type { auditItems } from '../src/audit/report.ts'

type ClosedTask = ReturnType<typeof auditItems>['closed'][number]

export function bestAnswererCells(t: ClosedTask): [string, string, string] {
  const top = t.answerers.filter((a) => a.items >= 100).sort((a, b) => b.marginPoints - a.marginPoints)[0]
  if (!top) return ['-', '-', '-']
  return [`${top.answerer} (${top.items} items)`, `${top.marginPoints >= 0 ? '+' : ''}${top.marginPoints.toFixed(1)}`, top.pValue.toFixed(4)]
}
