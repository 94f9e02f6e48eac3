// The audit on a dense build of real Holter data: the four MIT-BIH records of ../shared/data/mitdb
// and the 23 h of Icentia11k (its 20 segments, one patient, one case), cut into six sets of
// 20-second and two of 1-minute tiles from seeded offsets, every task asked, exported and
// audited with priors from the other split. Mostly sinus rhythm, as Holter recordings are: few
// event items, but over a thousand heart-rate extremum items, where the position answerers are
// sharpest. Each draw uses other excerpt seeds and another qa seed, so a margin that holds in
// every draw is the generator's, not one draw's luck. Writes results/qa-leaks-holter-real.md,
// keeping its notes.
//   npx tsx bench/qa-leaks-real.ts [--draws 2]
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { auditItems } from '../src/audit/report.ts'
import { renderAudit } from '../src/audit/render.ts'
import { readHoltercareFolder } from '../src/holtercare/folder.ts'
import { writeResultsKeepingNotes } from './results-file.ts'
import { bestAnswererCells } from './audit-best.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const shared = path.resolve(root, '../shared/data')
const { values: args } = parseArgs({ options: { draws: { type: 'string', default: '2' } } })
const draws = Number(args.draws)
if (!existsSync(path.join(shared, 'icentia11k'))) throw new Error(`${shared}/icentia11k is absent: this benchmark needs the shared recordings`)

function dataset(draw: number): string {
  const sets = [
    ...Array.from({ length: 6 }, (_, k) => ({ set: `s${k + 1}`, length: 20, perHour: 60, seed: 10 * draw + k + 1 })),
    ...[1, 2].map((k) => ({ set: `m${k}`, length: 60, perHour: 30, seed: 10 * draw + 20 + k })),
  ]
  return [
    '# written by bench/qa-leaks-real.ts',
    `name: qa-leaks-real-${draw}`,
    'records:',
    ...['100', '101', '102', '208'].map((r) => `  - path: ${path.join(shared, 'mitdb', r)}`),
    `  - glob: ${path.join(shared, 'icentia11k', 'p00000_s*.hea')}`,
    '    patient: {id: p00000}',
    'stages:',
    '  - read',
    '  - annotate',
    '  - quality',
    ...sets.map((s) => `  - {use: excerpt, options: {set: ${s.set}, stratified: {lengthSec: ${s.length}, perHour: ${s.perHour}, seed: ${s.seed}}}}`),
    `  - {use: qa, options: {seed: ${7 + draw}, pairsPerEvent: 1000, split: {test: 0.5, valid: 0}, sets: {${sets.map((s) => `${s.set}: all`).join(', ')}}}}`,
  ].join('\n') + '\n'
}

const cli = (argv: string[]) => execFileSync(process.execPath, [path.join(root, 'bin/pipeline.js'), ...argv], { stdio: ['ignore', 'ignore', 'inherit'] })
const work = path.join(here, 'data', 'qa-leaks-real')
const summary: string[] = []
let firstTable: string[] = []
for (let draw = 0; draw < draws; draw++) {
  const dir = path.join(work, String(draw))
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'dataset.yaml'), dataset(draw))
  process.stderr.write(`draw ${draw}: run, export, audit\n`)
  cli(['run', path.join(dir, 'dataset.yaml'), '--out', path.join(dir, 'run')])
  cli(['qa', 'export', path.join(dir, 'run'), path.join(dir, 'export'), '--inputs', 'none'])
  const report = auditItems((await readHoltercareFolder(path.join(dir, 'export'))).items)
  if (draw === 0) firstTable = renderAudit(report)
  for (const t of report.closed) summary.push(`| ${draw} | ${t.task} | ${t.items} | ${bestAnswererCells(t).join(' | ')} | ${t.answerers.filter((a) => a.leak).length} |`)
}
const md = [
  '# qa audit of a dense build of real Holter data',
  '',
  `\`npx tsx bench/qa-leaks-real.ts --draws ${draws}\``,
  '',
  'MIT-BIH 100, 101, 102, 208 and Icentia11k patient 0 (23 h, 20 segments, one case); six sets of 20-second tiles at 60 an hour and two of 1-minute tiles at 30 an hour, every task asked, exported without inputs, audited with priors from the other split. Draw k uses excerpt seeds 10k+1... and qa seed 7+k.',
  '',
  '| draw | task | items | best answerer (100+ items) | margin (points) | p | flagged |',
  '|---|---|---|---|---|---|---|',
  ...summary,
  '',
  'The whole audit of draw 0:',
  '',
  '```',
  ...firstTable,
  '```',
  '',
].join('\n')
await writeResultsKeepingNotes(path.join(here, 'results', 'qa-leaks-holter-real.md'), md)
console.log(summary.join('\n'))
