// report.md of `pipeline score`: the tables of the report's view (view.ts) as GitHub
// markdown, in the paper's order (closed accuracy, open tasks, reports, BLEU, text versus video
// when a model was scored in several modalities, McNemar), then win rates, counts, ScoreMAE
// parameters and problems, with the signatures last. Sample items and charts are for the HTML
// report; the markdown says how many there are. Pure.
import type { ScoreReport } from './report-types.ts'
import { reportSummary, reportView, type Cell, type ViewTable } from './view.ts'

/** The whole report.md. */
export function reportMarkdown(r: ScoreReport): string {
  const view = reportView(r)
  const out: string[] = [`# ${view.title}`, '', ...reportSummary(r), '']
  for (const s of view.sections) {
    out.push(`## ${s.heading}`, '')
    for (const t of s.tables) out.push(...markdownTable(t), '')
    if (s.samples.length) out.push(`${s.samples.length} sample items with every answer are in report.json (and the HTML report).`, '')
  }
  // A list, not a table: signatures hold '|', which a table would have to escape.
  out.push('## Signatures', '', ...view.signatures.map((s) => `- ${s.metric}: \`${s.signature}\``), '')
  return out.join('\n')
}

/** One table: its caption in bold, then the rows. */
export function markdownTable(t: ViewTable): string[] {
  const line = (cells: readonly Cell[]) => `| ${cells.map(cell).join(' | ')} |`
  return [`**${t.caption}**`, '', line(t.columns), `|${t.columns.map(() => ' --- ').join('|')}|`, ...t.rows.map(line)]
}

function cell(c: Cell): string {
  if (c === null) return '-'
  return String(c).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}
