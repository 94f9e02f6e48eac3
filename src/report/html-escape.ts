// Escaping for the HTML report: every piece of text from a view (model answers, questions, task
// names, captions) goes through here, so an answer containing markup shows as text.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c])
}

/** A table cell's text: numbers without float noise past 12 significant digits, null as a dash. */
export function cellText(value: string | number | null): string {
  if (value === null) return '–'
  if (typeof value === 'string') return value
  return Number.isInteger(value) || !Number.isFinite(value) ? String(value) : String(Number(value.toPrecision(12)))
}

/** Paragraphs of plain text (split at blank lines), escaped. */
export function paragraphs(text: string, className?: string): string {
  const cls = className ? ` class="${className}"` : ''
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p${cls}>${escapeHtml(p)}</p>`)
    .join('\n')
}
