// Plain-text reports in the layout of WFDB bxb's standard report with SVEB statistics (-S) and
// its line format (-L), so results can be read next to published bxb tables. The x column
// (shutdown) is left out: it is always zero here (see bxb-stats.ts).
import type { BeatScore, BxbStats, Ratio } from './bxb-stats.ts'

export interface ReportLabels {
  recordId: string
  refAnnotator?: string
  testAnnotator?: string
  fs?: number
}

/** The standard bxb report of one period: confusion matrix, then the statistics. */
export function formatBxbStats(stats: BxbStats): string {
  const row = (name: string, cells: number[]) => ` ${name} |` + cells.map((n) => ` ${pad(n, 5)}`).join('')
  const m = stats.confusion
  const lines = [
    '                Algorithm',
    '         n     s     v     f     q     o',
    '   ' + '_'.repeat(37),
    row('N', m[0]),
    row('S', m[1]),
    row('V', m[2]),
    row('F', m[3]),
    row('Q', m[4]),
    row('O', m[5].slice(0, 5)),
    '',
    stat('           QRS sensitivity', stats.qrsSe),
    stat(' QRS positive predictivity', stats.qrsPP),
    stat('           VEB sensitivity', stats.vebSe),
    stat(' VEB positive predictivity', stats.vebPP),
    stat('   VEB false positive rate', stats.vebFpr, 3),
    stat('          SVEB sensitivity', stats.svebSe),
    stat('SVEB positive predictivity', stats.svebPP),
  ]
  return lines.join('\n') + '\n'
}

/** Both periods of a record (whole record, then after the EC57 skip) under a bxb-style title. */
export function formatBeatScore(score: BeatScore, labels: ReportLabels): string {
  const head = [
    `Beat-by-beat comparison results for record ${labels.recordId}`,
    `Reference annotator: ${labels.refAnnotator ?? 'reference'}`,
    `     Test annotator: ${labels.testAnnotator ?? 'detector'}`,
    `       Match window: ${score.match.windowSamples} samples`,
    '',
  ]
  const from = labels.fs ? `${(score.afterSkip.startSample / labels.fs).toFixed(0)} s` : `sample ${score.afterSkip.startSample}`
  return [
    ...head,
    'Whole record:',
    formatBxbStats(score.whole),
    `From ${from} (EC57 skips the first 5 minutes):`,
    formatBxbStats(score.afterSkip),
  ].join('\n')
}

/** One line per record plus a gross line, like bxb's line format with SVEB columns. */
export function formatBxbTable(rows: ReadonlyArray<{ recordId: string; stats: BxbStats }>, gross?: BxbStats): string {
  const head = 'Record    Beats   Miss  Extra   Q Se   Q +P   V Se   V +P   S Se   S +P'
  const line = (id: string, s: BxbStats) =>
    [
      id.padEnd(8),
      pad(s.refBeats, 7),
      pad(s.missed, 6),
      pad(s.extra, 6),
      ...[s.qrsSe, s.qrsPP, s.vebSe, s.vebPP, s.svebSe, s.svebPP].map((r) => pct(r, 2).padStart(6)),
    ].join(' ')
  const out = [head, ...rows.map((r) => line(r.recordId, r.stats))]
  if (gross) out.push(line('Gross', gross))
  return out.join('\n') + '\n'
}

function stat(name: string, r: Ratio, digits = 2): string {
  return `${name}: ${r.pct === null ? '     - ' : `${pct(r, digits).padStart(6)}%`} (${r.num}/${r.den})`
}

function pct(r: Ratio, digits: number): string {
  return r.pct === null ? '-' : r.pct.toFixed(digits)
}

function pad(n: number, width: number): string {
  return String(n).padStart(width)
}
