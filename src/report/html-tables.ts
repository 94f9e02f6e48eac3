// HTML tables of the report: the view's tables (caption, column headers, first cell as the row
// header for screen readers), and the metric signatures.
import { PipelineError } from '../core/errors.ts'
import { cellText, escapeHtml } from './html-escape.ts'
import type { ReportTable, ReportView } from './html-types.ts'

/** One view table as <table class="report-table">, with its note below; E_INTERNAL when a row's length differs from the columns'. */
export function renderTable(table: ReportTable): string {
  const head = table.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')
  const body = table.rows.map((row, r) => {
    if (row.length !== table.columns.length) {
      throw new PipelineError('E_INTERNAL', `report table "${table.caption}": row ${r + 1} has ${row.length} cells for ${table.columns.length} columns; fix the report view`, { table: table.caption, row: r + 1 })
    }
    return `<tr>${row.map((v, i) => cell(v, i === 0)).join('')}</tr>`
  })
  const note = table.note ? `\n<p class="note">${escapeHtml(table.note)}</p>` : ''
  return `<div class="table-wrap"><table class="report-table">\n<caption>${escapeHtml(table.caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body.join('\n')}\n</tbody></table></div>${note}`
}

function cell(value: string | number | null, rowHeader: boolean): string {
  const cls = value === null ? ' class="na" title="not available"' : typeof value === 'number' ? ' class="num"' : ''
  const tag = rowHeader ? 'th scope="row"' : 'td'
  return `<${tag}${cls}>${escapeHtml(cellText(value))}</${rowHeader ? 'th' : 'td'}>`
}

/** The signatures section (what exactly each metric computed); empty when there are none. */
export function renderSignatures(signatures: ReportView['signatures']): string {
  if (signatures.length === 0) return ''
  const rows = signatures.map((s) => `<tr><th scope="row">${escapeHtml(s.metric)}</th><td><code>${escapeHtml(s.signature)}</code></td></tr>`)
  return [
    '<section id="signatures" aria-labelledby="signatures-h">',
    '<h2 id="signatures-h">Metric signatures</h2>',
    '<div class="table-wrap"><table class="signatures">',
    '<caption>What each metric computed, with its settings</caption>',
    '<thead><tr><th scope="col">Metric</th><th scope="col">Signature</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody></table></div>`,
    '</section>',
  ].join('\n')
}
