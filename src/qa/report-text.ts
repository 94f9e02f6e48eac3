// Report sentences from the figures (report-figures.ts): the statistical overview (duration,
// beats, rates, their times, tachycardia and bradycardia share) and the clinical summary (the
// same, then rhythm, atrial and ventricular ectopy with singles, pairs and runs, patterns,
// pauses, conclusions). Several phrasings, fixed clinical wording, our own.
import type { ReportFigures } from './report-figures.ts'
import { andList, lengthWords, pick, plural } from './phrasing.ts'
import type { SeededRandom } from '../excerpts/seeded-random.ts'
import { inText } from './vocabulary.ts'

const n = (x: number) => x.toLocaleString('en-US')
const pct = (x: number | null) => (x === null ? 'not measurable' : x > 0 && x < 0.1 ? '<0.1%' : `${x}%`)
const bpm = (x: number | null) => (x === null ? 'not measurable' : `${Math.round(x)} bpm`)

const RHYTHM: Record<string, string> = { N: 'sinus rhythm', AFIB: 'atrial fibrillation', AFL: 'atrial flutter', P: 'paced rhythm', B: 'ventricular bigeminy', T: 'ventricular trigeminy', SBR: 'sinus bradycardia', VT: 'ventricular tachycardia', SVTA: 'supraventricular tachyarrhythmia', NOD: 'junctional rhythm', IVR: 'idioventricular rhythm', BII: 'second-degree AV block', VFL: 'ventricular flutter' }

/** The statistical overview of an excerpt. */
export function overviewText(f: ReportFigures, rng: SeededRandom): string {
  const max = f.maxHr ? `${bpm(f.maxHr.bpm)} at ${f.maxHr.timeMs} ms` : 'not measurable'
  const min = f.minHr ? `${bpm(f.minHr.bpm)} at ${f.minHr.timeMs} ms` : 'not measurable'
  const forms = [
    () => `Excerpt length ${lengthWords(f.durationMs)}; ${n(f.totalBeats)} beats; mean heart rate ${bpm(f.meanHrBpm)}; fastest ${max}; slowest ${min}; heart rate above 100 bpm for ${pct(f.tachyPct)} and below 60 bpm for ${pct(f.bradyPct)} of the time.`,
    () => `Over ${lengthWords(f.durationMs)}, ${n(f.totalBeats)} beats were recorded at a mean rate of ${bpm(f.meanHrBpm)}. The fastest rate was ${max} and the slowest ${min}. Tachycardia (>100 bpm) took ${pct(f.tachyPct)} of the time, bradycardia (<60 bpm) ${pct(f.bradyPct)}.`,
    () => `Duration: ${lengthWords(f.durationMs)}. Total beats: ${n(f.totalBeats)}. Mean HR: ${bpm(f.meanHrBpm)}; maximum ${max}; minimum ${min}. Time above 100 bpm: ${pct(f.tachyPct)}; below 60 bpm: ${pct(f.bradyPct)}.`,
  ]
  const excluded = f.excludedBeats ? ` ${plural(f.excludedBeats, 'beat')} in noisy periods were left out.` : ''
  return pick(forms, rng)() + excluded
}

function ectopy(name: string, x: { count: number; burdenPct: number | null; singles: number; couplets: number; runs: number }, runName: string): string {
  if (x.count === 0) return `No ${name} beats.`
  return `${name[0].toUpperCase()}${name.slice(1)} beats: ${n(x.count)} (${pct(x.burdenPct)} of beats), ${plural(x.singles, 'single')}, ${plural(x.couplets, 'couplet')} and ${plural(x.runs, `run of ${runName}`, `runs of ${runName}`)}.`
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
  if (f.ventricular.bigeminy || f.ventricular.trigeminy) parts.push(`Ventricular bigeminy: ${plural(f.ventricular.bigeminy, 'episode')}; trigeminy: ${plural(f.ventricular.trigeminy, 'episode')}.`)
  if (f.pauses) parts.push(`${plural(f.pauses, 'pause')} longer than 2 s, the longest ${((f.longestPauseMs ?? 0) / 1000).toFixed(1)} s.`)
  const findings = f.findings.map(inText)
  parts.push(findings.length ? pick([`Conclusion: ${andList(findings)}.`, `In summary: ${andList(findings)}.`], rng) : pick(['Conclusion: no arrhythmia in this excerpt.', 'In summary: no abnormal rhythm finding.'], rng))
  return parts.join(' ')
}
