// The text of `pipeline qa audit`: a table per closed task (answerer, items answered, accuracy,
// chance, margin in points, p-value, LEAK, within noise or few items) and one per open task (the
// floors of blind answers with their MAE or ROUGE-L). Pure: lines in, the command writes them.
import { taskModule } from '../qa/tasks/index.ts'
import type { AuditReport, ClosedTaskReport, OpenTaskReport } from './report.ts'

const pct = (x: number) => `${(x * 100).toFixed(1)}%`
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)))
  return rows.map((r) => '  ' + r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd())
}

function closedTable(t: ClosedTaskReport): string[] {
  const head = `${t.task}: ${t.items} items, chance ${pct(t.chance)}${t.unparsed ? ` (${t.unparsed} items left out: options or answer do not parse)` : ''}`
  const rows = t.answerers.map((a) => [a.answerer, String(a.items), pct(a.accuracy), pct(a.chance), signed(a.marginPoints), pValue(a.pValue), a.leak ? 'LEAK' : a.fewItems ? 'few items' : a.withinNoise ? 'within noise' : ''])
  return [head, ...table([['answerer', 'items', 'accuracy', 'chance', 'margin', 'p', ''], ...rows])]
}

const pValue = (p: number) => (p < 0.0001 ? '<0.0001' : p.toFixed(4))

function openTable(t: OpenTaskReport): string[] {
  const unit = taskModule(t.task)?.unit
  const head = `${t.task}: ${t.items} items${unit ? `, gold ${unit} parsed from ${t.parsed}` : ''}`
  const rows = t.floors.map((f) => [f.floor, String(f.items), f.metric, Number(f.score.toFixed(2)).toString()])
  return rows.length ? [head, ...table([['blind answer', 'items', 'metric', 'score'], ...rows])] : [head, '  (no floor applies: it needs a priors split or, for times, a stated span)']
}

/** The report as text lines. */
export function renderAudit(r: AuditReport): string[] {
  const priors = r.priors === 'none'
    ? 'no priors: one split and no --train, so the answerers that learn are skipped'
    : r.priors === 'train'
      ? `priors from --train (${r.priorItems} items)${r.leftOut.length ? `; left out of the audit: ${r.leftOut.join(', ')} (the priors' split)` : ''}`
      : `priors cross-split: each split is audited with priors learned from the others (${r.priorItems} items in all)`
  const out = [`audit of ${r.splits.join(', ') || 'the items'}; ${priors}`,
    `flag: accuracy more than ${r.leakPoints} points over chance on at least ${r.minItems} items, with p below ${r.alpha} over all rows (more than the margin but not beyond chance at its count: "within noise"; fewer items: "few items")`]
  for (const t of r.closed) out.push('', ...closedTable(t))
  for (const t of r.open) out.push('', ...openTable(t))
  out.push('', `${r.flagged} answerer row${r.flagged === 1 ? '' : 's'} flagged as a leak`)
  return out
}
