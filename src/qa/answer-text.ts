// The sentences the baselines answer in: the public answer format of each task as the generators
// phrase it (src/qa/tasks/*.ts, first phrasing of each), so a baseline's answer parses like the
// gold's (closed "B. <option text>", yes/no answers starting "Yes"/"No", counts before their
// noun, times before "ms"). Pure.
import { LETTERS } from '../holtercare/options.ts'
import { andList, lengthWords, plural } from './phrasing.ts'
import { countsBeats, inText, type VocabularyEvent } from './vocabulary.ts'

/** A closed answer: the letter and the option's text. */
export function closedText(options: readonly string[], index: number): string {
  return `${LETTERS[index]}. ${options[index]}`
}

/** A free-text yes/no answer about `event` (closed_presence's phrasing). */
export function yesNoText(yes: boolean, event: string | null): string {
  if (event === null) return yes ? 'Yes.' : 'No.'
  const e = inText(event)
  return yes ? `Yes, ${e} is present in this excerpt.` : `No, there is no ${e} in this excerpt.`
}

/** An evidence answer (open_evidence_reasoning's phrasing), with the evidence when there is some. */
export function evidenceText(yes: boolean, event: string | null, evidence: string | null): string {
  if (evidence === null) return yesNoText(yes, event)
  const e = event === null ? 'it' : inText(event)
  return yes ? `Yes, ${e} is present: ${evidence}.` : `No, ${e} is not present: ${evidence}.`
}

/** The unit an event is counted in: its vocabulary entry's, else the question's word, else occurrences. */
export function countNoun(event: string | null, vocab: readonly VocabularyEvent[], stem: string): string {
  const v = vocab.find((e) => e.name === event)
  if (v) return countsBeats(v) ? 'beat' : 'episode'
  return /\bbeats\b/i.test(stem) ? 'beat' : /\bepisodes\b/i.test(stem) ? 'episode' : 'occurrence'
}

/** A count answer (open_event_counting's phrasing). */
export function countText(n: number, event: string | null, noun: string): string {
  return event === null ? `I count ${plural(n, noun)}.` : `The excerpt contains ${plural(n, noun)} of ${inText(event)}.`
}

/** A count-and-times answer (open_event_timing's phrasing). */
export function timingText(times: readonly number[], event: string | null): string {
  const of = event === null ? '' : ` of ${inText(event)}`
  if (times.length === 0) return `No occurrence${of} in this excerpt.`
  return `${plural(times.length, 'occurrence')}${of}, at ${times.map((t) => Math.round(t)).join(', ')} ms.`
}

/** An HR-extremum answer (open_HR_extremum_timing's phrasing). */
export function extremeText(which: 'fastest' | 'slowest' | null, timeMs: number, bpm: number | null): string {
  const w = which ?? 'fastest'
  return `The heart rate is ${w} at ${Math.round(timeMs)} ms${bpm === null ? '' : ` (about ${Math.round(bpm)} bpm)`}.`
}

/** A diagnosis answer (open_diagnosis's phrasing): the labels, or none. */
export function diagnosisText(labels: readonly string[]): string {
  return labels.length ? `The excerpt shows ${andList(labels)}.` : 'No arrhythmia or ectopic beat is present in this excerpt.'
}

/** A report that claims nothing particular: sinus rhythm over the excerpt's length, no finding. */
export function genericReport(span: { startMs: number; endMs: number }, kind: 'overview' | 'summary'): string {
  const length = lengthWords(Math.max(0, span.endMs - span.startMs))
  const overview = `Excerpt length ${length}; heart rate within normal limits; no sustained tachycardia or bradycardia.`
  return kind === 'overview' ? overview : `${overview} Rhythm: sinus rhythm. No atrial or ventricular ectopy of note, no pauses. Conclusion: no arrhythmia in this excerpt.`
}
