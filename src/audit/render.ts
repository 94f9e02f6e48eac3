// The text of `pipeline qa audit`: a table per closed task (answerer, items answered, accuracy,
// chance, margin in points, LEAK or few items) and one per open numeric task (constant answers
// and their MAE). Pure: lines in, the command writes them.
import type { AuditReport, ClosedTaskReport, OpenTaskReport } from './report.ts'

const pct = (x: number) => `${(x * 100).toFixed(1)}%`
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)))
  return rows.map((r) => '  ' + r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd())
}

function closedTable(t: ClosedTaskReport): string[] {
  const head = `${t.task}: ${t.items} items, chance ${pct(t.chance)}${t.unparsed ? ` (${t.unparsed} items left out: options or answer do not parse)` : ''}`
  const rows = t.answerers.map((a) => [a.answerer, String(a.items), pct(a.accuracy), pct(a.chance), signed(a.marginPoints), a.leak ? 'LEAK' : a.fewItems ? 'few items' : ''])
  return [head, ...table([['answerer', 'items', 'accuracy', 'chance', 'margin', ''], ...rows])]
}

function openTable(t: OpenTaskReport): string[] {
  const what = t.task === 'open_event_counting' ? 'count' : 'ms'
  const head = `${t.task}: ${t.items} items, gold ${what} parsed from ${t.parsed} (${pct(t.parseRate)})`
  const rows = t.constants.map((c) => [c.constant, String(Number(c.value.toFixed(2))), Number(c.mae.toFixed(2)).toString()])
  return rows.length ? [head, ...table([['constant answer', 'value', 'MAE'], ...rows])] : [head]
}

/** The report as text lines. */
export function renderAudit(r: AuditReport): string[] {
  const priors = r.trainItems === null ? 'no --train: the train-prior answerers are skipped, presence gets always yes / always no' : `priors from ${r.trainItems} train items`
  const out = [`audit of ${r.splits.join(', ') || 'the items'}; ${priors}`,
    `flag: accuracy more than ${r.leakPoints} points over chance on at least ${r.minItems} items answered (fewer: "few items"); margin in points`]
  for (const t of r.closed) out.push('', ...closedTable(t))
  for (const t of r.open) out.push('', ...openTable(t))
  out.push('', `${r.flagged} answerer row${r.flagged === 1 ? '' : 's'} flagged as a leak`)
  return out
}
