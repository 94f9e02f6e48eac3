// The events the QA generator asks about, and where each comes from in the data (docs/qa.md,
// "Events and where they come from"). Names are those of the public release where one fits (its
// 22 event names, benchmark-spec.md); the others (couplets, bigeminy, paced rhythm...) are
// allowed and marked `public: false`. Each event has exactly one source, so no occurrence is
// counted twice:
//   beats:   every beat whose MIT symbol (reference) or AAMI label (detector) is listed; counted
//            per beat, timed at the beat;
//   run:     runs of `min`..`max` consecutive beats of one AAMI class; counted per run, timed at
//            its first beat;
//   geminy:  bigeminy (N X N X ...) or trigeminy (N N X ...) of at least `minCycles` cycles;
//   rr:      an RR interval (two consecutive beats, never across an artifact period or a gap) in
//            (aboveMs, belowMs]; timed at the beat before it. With `sinus`, only between two
//            sinus-conducted beats (SINUS_BEATS) in a sinus-driven rhythm (SINUS_DRIVEN): a long
//            interval in atrial fibrillation, after a premature beat (its compensatory pause) or
//            in an AV block is no sinus pause;
//   hr:      the 8-beat average rate (of every beat) staying above / below a rate for at least
//            `sustainSec`, while the rhythm is sinus (N, SBR) or unannotated; timed at its first
//            window's last beat;
//   rhythm:  a reference rhythm annotation ("+" with aux "(AFIB"); an episode, timed at its onset.
// A run, pattern, rate or rhythm episode already going on when the excerpt starts has no onset in
// it: it makes the event present, marked `boundary` (excerpt-facts.ts), and is not counted.
// The counting rule (docs/qa.md): a beat event counts beats, whatever pattern they are part of
// (a couplet is two PVCs); every other event counts episodes.

export type EventSource =
  | { beats: { symbols: string[]; labels: string[] } }
  | { run: { of: 'S' | 'V'; min: number; max?: number } }
  | { geminy: { of: 'S' | 'V'; period: 2 | 3; minCycles: number } }
  | { rr: { aboveMs: number; belowMs?: number; sinus?: boolean } }
  | { hr: { aboveBpm?: number; belowBpm?: number; sustainSec: number } }
  | { rhythm: string[] }

export interface VocabularyEvent {
  name: string
  /** One of the public release's 22 event names. */
  public: boolean
  source: EventSource
  /** Events a diagnosis question may offer beside it as related (distractor pools). */
  family: 'atrial' | 'ventricular' | 'rate' | 'pause' | 'conduction' | 'rhythm'
}

/** The default table. A dataset may replace it (the qa stage's `vocabulary` option). */
export const DEFAULT_VOCABULARY: readonly VocabularyEvent[] = [
  { name: 'Premature Atrial Contraction', public: true, family: 'atrial', source: { beats: { symbols: ['A', 'a', 'J', 'S'], labels: ['S'] } } },
  { name: 'Premature Ventricular Contraction', public: true, family: 'ventricular', source: { beats: { symbols: ['V', 'r'], labels: ['V'] } } },
  { name: 'Atrial Couplet', public: false, family: 'atrial', source: { run: { of: 'S', min: 2, max: 2 } } },
  { name: 'Ventricular Couplet', public: false, family: 'ventricular', source: { run: { of: 'V', min: 2, max: 2 } } },
  { name: 'Atrial Tachycardia', public: true, family: 'atrial', source: { run: { of: 'S', min: 3 } } },
  { name: 'Ventricular Tachycardia', public: true, family: 'ventricular', source: { run: { of: 'V', min: 3 } } },
  { name: 'Ventricular Bigeminy', public: false, family: 'ventricular', source: { geminy: { of: 'V', period: 2, minCycles: 3 } } },
  { name: 'Ventricular Trigeminy', public: false, family: 'ventricular', source: { geminy: { of: 'V', period: 3, minCycles: 3 } } },
  { name: 'Sinus Pause', public: true, family: 'pause', source: { rr: { aboveMs: 2000, belowMs: 3000, sinus: true } } },
  { name: 'Asystole', public: true, family: 'pause', source: { rr: { aboveMs: 3000 } } },
  { name: 'Sinus Tachycardia', public: true, family: 'rate', source: { hr: { aboveBpm: 100, sustainSec: 30 } } },
  { name: 'Sinus Bradycardia', public: true, family: 'rate', source: { hr: { belowBpm: 60, sustainSec: 30 } } },
  { name: 'Atrial Fibrillation', public: true, family: 'rhythm', source: { rhythm: ['AFIB'] } },
  { name: 'Atrial Flutter', public: true, family: 'rhythm', source: { rhythm: ['AFL'] } },
  { name: 'Ventricular Flutter', public: true, family: 'rhythm', source: { rhythm: ['VFL'] } },
  { name: 'Ventricular Fibrillation', public: true, family: 'rhythm', source: { rhythm: ['VFIB', 'VF'] } },
  { name: 'Supraventricular Tachyarrhythmia', public: false, family: 'rhythm', source: { rhythm: ['SVTA'] } },
  { name: 'First-degree AV Block', public: true, family: 'conduction', source: { rhythm: ['BI'] } },
  { name: 'Second-degree AV Block', public: false, family: 'conduction', source: { rhythm: ['BII'] } },
  { name: 'Third-degree AV Block', public: true, family: 'conduction', source: { rhythm: ['BIII'] } },
  { name: 'Junctional Rhythm', public: false, family: 'rhythm', source: { rhythm: ['NOD'] } },
  { name: 'Ventricular Escape Rhythm', public: true, family: 'rhythm', source: { rhythm: ['IVR'] } },
  { name: 'Paced Rhythm', public: false, family: 'rhythm', source: { rhythm: ['P'] } },
  { name: 'Pre-excitation', public: false, family: 'conduction', source: { rhythm: ['PREX'] } },
]

/** MIT symbols of beats the sinus node conducts: normal and bundle branch block beats (not escape, premature, paced or unclassifiable ones); a detector beat (no symbol) by its label N. */
export const SINUS_BEATS: readonly string[] = ['N', 'L', 'R', 'B']

/** Rhythms the sinus node drives (WFDB names): a pause in them is the sinus node's; none in fibrillation, flutter, AV block, junctional, ventricular or paced rhythms. Unannotated counts as sinus. */
export const SINUS_DRIVEN: readonly string[] = ['N', 'SBR', 'AB', 'B', 'T', 'BI', 'PREX']

/** What a diagnosis question offers when an excerpt has none of the events: sinus rhythm at a normal rate. */
export const NORMAL_SINUS_RHYTHM = 'Normal Sinus Rhythm'

/** Whether an event is counted per beat (a beat event) or per episode. */
export function countsBeats(e: VocabularyEvent): boolean {
  return 'beats' in e.source
}

/** The WFDB rhythm names that some event of the table takes as its source. */
export function rhythmNames(vocab: readonly VocabularyEvent[]): Map<string, string> {
  const out = new Map<string, string>()
  for (const e of vocab) if ('rhythm' in e.source) for (const r of e.source.rhythm) out.set(r, e.name)
  return out
}

/** Lower-case the name for running text, keeping acronyms and "AV" as written. */
export function inText(name: string): string {
  return name.split(' ').map((w) => (/^[A-Z]{2,}$/.test(w) || /\d/.test(w) ? w : w.toLowerCase())).join(' ')
}
