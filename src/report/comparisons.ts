// McNemar's test between two systems on the same closed items (the paper's Table 12):
// per closed task and over all closed tasks pooled ("all closed"), on the items both systems
// answered and that have a gold (an unparsed answer is wrong; failed and missing items are left
// out, since they say nothing about what the model read). Pure.
import { PipelineError } from '../core/errors.ts'
import { mcnemarFromPairs } from '../metrics/mcnemar.ts'
import type { Comparison, ReportSystem } from './report-types.ts'
import { taskKind } from './task-metrics.ts'

export const ALL_CLOSED = 'all closed'

/** The system a `--compare` side names: its label, or a model name that has one system. */
export function resolveSystem(name: string, systems: readonly ReportSystem[]): string {
  const exact = systems.find((s) => s.system === name)
  if (exact) return exact.system
  const byModel = systems.filter((s) => s.model === name)
  if (byModel.length === 1) return byModel[0].system
  const list = systems.map((s) => s.system).join(', ')
  if (byModel.length > 1) throw new PipelineError('E_USAGE', `--compare: model ${name} was scored in ${byModel.length} modalities; name one system: ${byModel.map((s) => `"${s.system}"`).join(' or ')}`, { field: 'compare' })
  throw new PipelineError('E_USAGE', `--compare: no scored system is called ${name}; the systems are ${list || 'none'}`, { field: 'compare' })
}

/**
 * McNemar's test of each pair on each closed task present and on all of them pooled; `read` holds,
 * per system label, the closed items it read (scored or unparsed) and whether each was right.
 */
export function compareSystems(read: ReadonlyMap<string, ReadonlyMap<string, { task: string; correct: boolean }>>, pairs: readonly [string, string][], tasks: readonly string[], opts: { exact: boolean; signature: string }): Comparison[] {
  const closed = tasks.filter((t) => taskKind(t) === 'choice')
  const out: Comparison[] = []
  for (const [a, b] of pairs) {
    const ra = read.get(a) ?? new Map()
    const rb = read.get(b) ?? new Map()
    for (const task of [...closed, ALL_CLOSED]) {
      const xa: boolean[] = []
      const xb: boolean[] = []
      for (const [qaId, va] of ra) {
        const vb = rb.get(qaId)
        if (!vb || (task !== ALL_CLOSED && va.task !== task)) continue
        xa.push(va.correct)
        xb.push(vb.correct)
      }
      if (task !== ALL_CLOSED && xa.length === 0) continue
      const r = mcnemarFromPairs(xa, xb, { exact: opts.exact })
      const acc = (xs: boolean[]) => (xs.length ? (100 * xs.filter(Boolean).length) / xs.length : null)
      out.push({
        a, b, task, n: xa.length,
        table: [[r.table[0][0], r.table[0][1]], [r.table[1][0], r.table[1][1]]],
        accuracyA: acc(xa), accuracyB: acc(xb),
        statistic: r.statistic, pValue: r.pValue, method: r.method, signature: opts.signature,
      })
    }
  }
  return out
}
