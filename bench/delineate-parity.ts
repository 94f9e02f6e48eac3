// Delineation (src/dsp/delineate.ts) against NeuroKit2 0.2.9 ecg_delineate, peak and dwt methods,
// on the first 10 minutes of MIT-BIH 100, 101 and 208 (../shared/golden/delineate), on the same R
// peaks: per record and feature, presence agreement over every beat and, over the beats both
// mark, the share within 40 ms and the median difference; the floors beside them.
// Writes results/delineate-parity.md, keeping its notes.
//   npx tsx bench/delineate-parity.ts
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { DELINEATE_RECORDS, delineateParity } from '../test/helpers/delineate-golden.ts'
import { writeResultsKeepingNotes } from './results-file.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '-')
const rows: string[] = []
for (const record of DELINEATE_RECORDS) {
  for (const row of await delineateParity(record)) {
    const a = row.agreement
    const floor = [row.presence ? `presence ${100 * row.presence} %` : '', row.floor ? `within ${100 * row.floor} %` : ''].filter(Boolean).join(', ') || '-'
    rows.push(`| ${record} | ${row.feature} | ${row.method} | ${a.beats} | ${pct(a.presenceAgree, a.beats)} | ${a.oursOnly} | ${a.referenceOnly} | ${a.bothMarked} | ${pct(a.within, a.bothMarked)} | ${a.medianAbsMs === null ? '-' : a.medianAbsMs.toFixed(1)} | ${floor} |`)
  }
}
const md = [
  '# Delineation parity with NeuroKit2 0.2.9',
  '',
  '`npx tsx bench/delineate-parity.ts`',
  '',
  'First 10 minutes of lead 0, read and cleaned by the pipeline, NeuroKit2\'s R peaks; tolerance 40 ms.',
  '',
  '| record | feature | against | beats | presence agrees | ours only | reference only | both mark | within 40 ms | median ms | floor |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
].join('\n')
await writeResultsKeepingNotes(path.join(here, 'results', 'delineate-parity.md'), md)
console.log(rows.join('\n'))
