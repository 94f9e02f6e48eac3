// What the ECG multi-task benchmark's tasks read off an excerpt (pure): the mean RR interval,
// and the excerpt's rhythm as one of that benchmark's 15 statement classes where one fits.
// The classes are machine-report statements of a 10 s ECG, so a class is given only to an
// excerpt one statement describes whole: one reference rhythm over all of it, no gap or
// artifact, and beats of the kinds that statement allows. The rest is left out with the
// reason, which the qa stage counts:
//   sinus rhythm (N)   with ventricular premature beats only: "sinus rhythm with pvc(s)"; with
//                      supraventricular ones only: "sinus rhythm with pac(s)"; with neither:
//                      sinus bradycardia below 60 bpm (or a reference SBR rhythm), sinus
//                      tachycardia above 100 bpm, else sinus rhythm; both kinds: left out;
//   atrial fibrillation  with a ventricular rate above 100 bpm: "... with rapid ventricular
//                      response", else atrial fibrillation;
//   paced rhythm (P)   ventricular pacing;
//   anything else      (flutter, bigeminy, tachycardias, blocks, unreadable beats) left out:
//                      none of the 15 says it, and "other" is not a finding.
// Rates are the mean of every interval between consecutive beats, in samples, as a 10 s machine
// reading takes them.
import { ARRHYTHMIA_CLASSES } from '../metrics/multitask.ts'
import type { ExcerptFacts } from './excerpt-facts.ts'

const cls = (name: (typeof ARRHYTHMIA_CLASSES)[number]) => ARRHYTHMIA_CLASSES.indexOf(name)
const PACED = new Set(['/', 'f'])

/** The mean interval between consecutive beats of the excerpt in ms (across no break), or null with fewer than two beats in a row. */
export function meanRrMs(facts: Pick<ExcerptFacts, 'beats' | 'fs'>): number | null {
  let sum = 0
  let n = 0
  for (let i = 1; i < facts.beats.length; i++) {
    if (facts.beats[i].afterBreak) continue
    sum += facts.beats[i].sample - facts.beats[i - 1].sample
    n++
  }
  return n ? (1000 * sum) / n / facts.fs : null
}

export type RhythmClass = { cls: number } | { leftOut: string }

/**
 * The class of the excerpt's rhythm, or why it has none. `rhythm` is the reference rhythm over
 * the whole excerpt (null: the excerpt has one rhythm but no reference names it, read as sinus
 * when `assumeSinus`, as a reader without rhythm labels would).
 */
export function rhythmClass(facts: ExcerptFacts, opts: { assumeSinus?: boolean } = {}): RhythmClass {
  if (facts.excludedMs > 0 || facts.excludedBeats > 0 || facts.beats.some((b) => b.afterBreak)) return { leftOut: 'gap or artifact' }
  const spans = facts.rhythms.filter((r) => r.endMs > r.startMs)
  if (spans.length > 1 && new Set(spans.map((r) => r.rhythm)).size > 1) return { leftOut: 'rhythm changes' }
  const rhythm = spans[0]?.rhythm ?? (opts.assumeSinus ? 'N' : null)
  if (rhythm === null) return { leftOut: 'no reference rhythm' }
  const rr = meanRrMs(facts)
  if (rr === null) return { leftOut: 'fewer than two beats' }
  const bpm = 60000 / rr
  const has = (label: string) => facts.beats.some((b) => b.label === label && !PACED.has(b.symbol ?? ''))
  if (rhythm === 'AFIB') return { cls: cls(bpm > 100 ? 'atrial fibrillation with rapid ventricular response' : 'atrial fibrillation') }
  if (rhythm === 'P') return { cls: cls('ventricular pacing') }
  if (rhythm !== 'N' && rhythm !== 'SBR') return { leftOut: `rhythm ${rhythm}` }
  if (has('Q') || facts.beats.some((b) => PACED.has(b.symbol ?? ''))) return { leftOut: 'paced or unclassifiable beats' }
  const pvc = has('V') || has('F')
  const pac = has('S')
  if (pvc && pac) return { leftOut: 'both premature kinds' }
  if (pvc) return { cls: cls('sinus rhythm with pvc(s)') }
  if (pac) return { cls: cls('sinus rhythm with pac(s)') }
  if (rhythm === 'SBR' || bpm < 60) return { cls: cls('sinus bradycardia') }
  return { cls: cls(bpm > 100 ? 'sinus tachycardia' : 'sinus rhythm') }
}
