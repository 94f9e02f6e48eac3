// The audit of a synthetic benchmark (test/helpers/synthetic-benchmark.ts), N records a split
// (train and test, each audited with priors learned from the other), or of an exported folder:
// the whole table, and per closed task the best answerer's margin over chance, written to
// bench/results/qa-leaks.md (or qa-leaks-<folder name>.md).
//   npx tsx bench/qa-leaks.ts [records per split, default 200]
//   npx tsx bench/qa-leaks.ts <exported folder>
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { auditItems } from '../src/audit/report.ts'
import { renderAudit } from '../src/audit/render.ts'
import { syntheticBenchmark } from '../test/helpers/synthetic-benchmark.ts'
import { readHoltercareFolder } from '../src/holtercare/folder.ts'
import { bestAnswererCells } from './audit-best.ts'

const arg = process.argv[2] ?? '200'
const folder = /^\d+$/.test(arg) ? null : path.resolve(arg)
const n = Number(arg)
const report = auditItems(folder ? (await readHoltercareFolder(folder)).items : [...syntheticBenchmark(n, 'train'), ...syntheticBenchmark(n, 'test')])
const lines = renderAudit(report)
console.log(lines.join('\n'))
const best = report.closed.map((t) => `| ${t.task} | ${t.items} | ${bestAnswererCells(t).join(' | ')} |`)
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', folder ? `qa-leaks-${path.basename(folder)}.md` : 'qa-leaks.md')
const title = folder ? `# qa audit of ${path.basename(folder)} (priors ${report.priors})` : `# qa audit of a synthetic benchmark (${n} records a split, cross-split priors)`
writeFileSync(out, [title, '', '`npx tsx bench/qa-leaks.ts ' + arg + '`', ...(folder ? ['', 'The folder: the bundled records 100, 101, 102 and 208 cut into 12 sets of 20-second and 4 of 1-minute tiles, every task asked, exported (test/e2e/qa-audit-real.test.ts builds the same).'] : []), '', '| task | items | best answerer (100+ items) | margin (points) | p |', '|---|---|---|---|---|', ...best, '', '```', ...lines, '```', ''].join('\n'))
