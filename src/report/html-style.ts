// The report page's only stylesheet, inlined in <style> so index.html works offline from disk.
// System font stacks only: the page loads no font.

/** CSS of index.html. */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5b5b66; --line: #d6d6de; --band: #f5f5f8; --accent: #2f5d8a; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: #fff; }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.7rem; margin: 0 0 4px; }
h2 { font-size: 1.35rem; margin: 40px 0 8px; padding-top: 8px; border-top: 2px solid var(--accent); }
h3 { font-size: 1.1rem; margin: 28px 0 8px; }
h4 { font-size: 1rem; margin: 0 0 8px; }
.subtitle, .note { color: var(--muted); }
.note { font-size: 0.9rem; margin-top: 4px; }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
a { color: var(--accent); }
.table-wrap { overflow-x: auto; margin: 16px 0 4px; }
table { border-collapse: collapse; font-size: 0.9rem; }
caption { text-align: left; font-weight: 600; padding: 4px 0 6px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; vertical-align: top; text-align: left; }
thead th { background: var(--band); }
tbody tr:nth-child(even) { background: #fafafc; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.na { color: var(--muted); text-align: center; }
figure { margin: 20px 0; }
figure.chart svg { max-width: 100%; height: auto; display: block; }
figcaption { font-weight: 600; margin-bottom: 6px; }
figure.chart figcaption.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
details { margin-top: 6px; font-size: 0.9rem; }
article.sample { border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; margin: 16px 0; }
article.sample img { max-width: 100%; height: auto; border: 1px solid var(--line); display: block; }
dl.qa { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 12px 0; }
dl.qa dt { font-weight: 600; }
dl.qa dd { margin: 0; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
table.answers { width: 100%; }
table.answers td.text { min-width: 20em; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.85rem; overflow-wrap: anywhere; }
@media print { h2 { break-before: page; } article.sample, figure { break-inside: avoid; } }
`
