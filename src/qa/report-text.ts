// Report sentences from the figures (report-figures.ts): the statistical overview (duration,
// beats, rates, their times, the share of time above 100 and below 60 bpm) and the clinical
// summary (the same, then rhythm, atrial and ventricular ectopy with singles, pairs and runs,
// patterns, pauses, conclusions). Several phrasings, fixed clinical wording, our own.
// Every rate says what it is: the mean counts every beat; the fastest and slowest are averages
// over `avgBeats` intervals (not single beats), and so is the time above or below a rate. Counts
// carry thousands separators and shares one decimal at most (phrasing.ts); times stay in record
// ms as every question and answer gives them, with the clock time beside them.
import type { ReportFigures } from './report-figures.ts'
import { andList, clock, formatCount, formatPercent, lengthWords, pick, plural } from './phrasing.ts'
import type { SeededRandom } from '../excerpts/seeded-random.ts'
import { inText } from './vocabulary.ts'

const pct = (x: number | null) => (x === null ? 'not measurable' : formatPercent(x))
const bpm = (x: number | null) => (x === null ? 'not measurable' : `${Math.round(x)} bpm`)
const at = (x: { bpm: number; timeMs: number } | null) => (x ? `${bpm(x.bpm)} at ${x.timeMs} ms (${clock(x.timeMs)})` : 'not measurable')

const RHYTHM: Record<string, string> = { N: 'sinus rhythm', AFIB: 'atrial fibrillation', AFL: 'atrial flutter', P: 'paced rhythm', AB: 'atrial bigeminy', B: 'ventricular bigeminy', T: 'ventricular trigeminy', SBR: 'sinus bradycardia', VT: 'ventricular tachycardia', SVTA: 'supraventricular tachyarrhythmia', NOD: 'junctional rhythm', IVR: 'idioventricular rhythm', BI: 'first-degree AV block', BII: 'second-degree AV block', BIII: 'third-degree AV block', VFL: 'ventricular flutter', VF: 'ventricular fibrillation', VFIB: 'ventricular fibrillation', PREX: 'pre-excitation' }

/** The statistical overview of an excerpt. */
export function overviewText(f: ReportFigures, rng: SeededRandom): string {
  const k = `${f.avgBeats}-beat`
  const forms = [
    () => `Excerpt length ${lengthWords(f.durationMs)}; ${plural(f.totalBeats, 'beat')}; mean heart rate ${bpm(f.meanHrBpm)}; fastest ${k} average rate ${at(f.maxHr)}; slowest ${k} average rate ${at(f.minHr)}; ${k} average rate above 100 bpm for ${pct(f.tachyPct)} and below 60 bpm for ${pct(f.bradyPct)} of the time.`,
    () => `Over ${lengthWords(f.durationMs)}, ${plural(f.totalBeats, 'beat')} were recorded at a mean rate of ${bpm(f.meanHrBpm)}. Averaged over ${f.avgBeats} beats, the fastest rate was ${at(f.maxHr)} and the slowest ${at(f.minHr)}; the average was above 100 bpm for ${pct(f.tachyPct)} of the time and below 60 bpm for ${pct(f.bradyPct)}.`,
    () => `Duration: ${lengthWords(f.durationMs)}. Total beats: ${formatCount(f.totalBeats)}. Mean HR: ${bpm(f.meanHrBpm)}; highest ${k} average ${at(f.maxHr)}; lowest ${k} average ${at(f.minHr)}. Time with the ${k} average above 100 bpm: ${pct(f.tachyPct)}; below 60 bpm: ${pct(f.bradyPct)}.`,
  ]
  return [pick(forms, rng)(), beatKinds(f), leftOut(f)].filter(Boolean).join(' ')
}

// Unclassifiable and paced beats count in the total and the rates; a report says how many there are.
function beatKinds(f: ReportFigures): string {
  const kinds = ([[f.unclassifiable, 'unclassifiable'], [f.paced, 'paced']] as const).filter(([x]) => x?.count)
  return kinds.map(([x, what]) => `${x.count === f.totalBeats ? `All ${formatCount(x.count)} beats are` : `${formatCount(x.count)} of the ${formatCount(f.totalBeats)} beats (${pct(x.burdenPct)}) ${x.count === 1 ? 'is' : 'are'}`} ${what}.`).join(' ')
}

// What the figures leave out: only what the reference annotation itself marks unreadable.
function leftOut(f: ReportFigures): string {
  if (!f.excludedMs && !f.excludedBeats) return ''
  const time = f.excludedMs < 1000 ? 'less than a second' : lengthWords(f.excludedMs)
  const what = f.excludedBeats ? `that time and its ${plural(f.excludedBeats, 'beat')} are` : 'that time is'
  return `The reference annotation marks ${time} as unreadable; ${what} left out of these figures.`
}

function ectopy(name: string, x: { count: number; burdenPct: number | null; singles: number; couplets: number; runs: number }, runName: string): string {
  if (x.count === 0) return `No ${name} beats.`
  return `${name[0].toUpperCase()}${name.slice(1)} beats: ${formatCount(x.count)} (${pct(x.burdenPct)} of beats), ${plural(x.singles, 'single')}, ${plural(x.couplets, 'couplet')} and ${plural(x.runs, `run of ${runName}`, `runs of ${runName}`)}.`
}

/** The clinical summary of an excerpt. */
export function summaryText(f: ReportFigures, rng: SeededRandom): string {
  const rhythms = [...f.rhythms].sort((a, b) => b.totalMs - a.totalMs).map((r) => RHYTHM[r.rhythm] ?? `rhythm ${r.rhythm}`)
  const parts = [
    overviewText(f, rng),
    rhythms.length ? `Rhythm: ${andList([...new Set(rhythms)])}.` : 'No rhythm annotation covers this excerpt.',
    ectopy('atrial premature', f.supraventricular, 'atrial tachycardia'),
    ectopy('ventricular premature', f.ventricular, 'ventricular tachycardia'),
  ]
  if (f.ventricular.bigeminy || f.ventricular.trigeminy) parts.push(`Ventricular bigeminy: ${plural(f.ventricular.bigeminy, 'episode')}; ventricular trigeminy: ${plural(f.ventricular.trigeminy, 'episode')}.`)
  if (f.pauses) parts.push(`${plural(f.pauses, 'pause')} longer than 2 s, the longest ${((f.longestPauseMs ?? 0) / 1000).toFixed(1)} s.`)
  const findings = f.findings.map(inText)
  parts.push(findings.length ? pick([`Conclusion: ${andList(findings)}.`, `In summary: ${andList(findings)}.`], rng) : pick(['Conclusion: no arrhythmia in this excerpt.', 'In summary: no abnormal rhythm finding.'], rng))
  return parts.join(' ')
}
