// The facts of one excerpt (pure): which events of the vocabulary occur in it, each occurrence
// with its time and the beats it came from, the heart-rate figures, and the rhythms. Computed
// from the excerpt's own beats and the rhythm episodes overlapping it, nothing else
// ("answerability"): a run that started before the excerpt is seen from its first beat inside,
// as a model shown the excerpt sees it. The excerpt's first beat (and the first after a break)
// follows a beat nobody can see, so a run, pattern or sustained rate that touches it may have
// begun before: like a rhythm episode begun before the excerpt, it makes the event present with
// no onset (`boundary`, its beats in `ongoing`), and no count or time is asked about it. Times
// are record milliseconds rounded to the ms (the beat's sample x 1000 / fs, gaps included, as the
// annotate stage gives timeMs); rates are measured in samples (src/dsp/hr-stats.ts).
import type { ExcerptItem } from '../core/items.ts'
import { createHrTracker, type HrStats } from '../dsp/hr-stats.ts'
import { findGeminy, findLongRr, findRuns, findSustainedRate, geminyAtEdge, rateAtEdge, spanAtEdge, sustainedExtreme, type PatternBeat, type Span } from './beat-patterns.ts'
import { countsBeats, SINUS_BEATS, SINUS_DRIVEN, type VocabularyEvent } from './vocabulary.ts'

export interface FactsBeat extends PatternBeat {
  sample: number
  /** The MIT symbol of a reference beat. */
  symbol?: string
  /** The detector's measures of the beat, when a detector beat matched it (evidence texts). */
  qrsSpanMs?: number | null
  templateCorr?: number | null
}

export interface RhythmSpan {
  rhythm: string
  startSample: number
  startMs: number
  /** Infinity while the episode is still open. */
  endSample: number
  endMs: number
}

export interface FactsInput {
  excerpt: Pick<ExcerptItem, 'id' | 'startSample' | 'endSample' | 'startMs' | 'endMs' | 'fs'>
  /** The excerpt's beats in time order, without beats in artifact periods (the beat after one has afterBreak). */
  beats: FactsBeat[]
  /** Reference rhythm episodes overlapping the excerpt. */
  rhythms: RhythmSpan[]
  /** Beats left out as artifacts. */
  excludedBeats: number
  /** Time of the excerpt inside artifact periods (ms). */
  excludedMs?: number
  avgBeats: number
}

export interface EventOccurrence {
  timeMs: number
  sample: number
  /** The samples of the beats it is made of (a beat event: its one beat). */
  beats: number[]
}

/** The kind of source an event comes from (vocabulary.ts), which says what its evidence can measure. */
export type EventKind = 'beats' | 'run' | 'geminy' | 'rr' | 'hr' | 'rhythm'

export interface EventFacts {
  name: string
  kind: EventKind
  counts: 'beats' | 'episodes'
  /** The occurrences whose onset is in the excerpt. */
  occurrences: EventOccurrence[]
  /** An episode of it was already going on when the excerpt starts, or when a break ends (its onset is not in the excerpt): present, but not countable. */
  boundary: boolean
  /** Those episodes, from the first beat seen (a rhythm's: at the excerpt's start, no beats). */
  ongoing: EventOccurrence[]
  /** Rhythm events: the stretches of the excerpt the rhythm covers (record ms). */
  spans?: { startMs: number; endMs: number }[]
}

/** How far a sustained-rate event is from being true or false in an excerpt: the rate it holds for the event's duration. */
export interface SustainedRate {
  event: string
  /** The event's threshold and side: above it (tachycardia) or below it (bradycardia). */
  thresholdBpm: number
  above: boolean
  sustainSec: number
  /** The most extreme averaged rate held for sustainSec in sinus context (beat-patterns.ts sustainedExtreme), or null when no such stretch exists. */
  bpm: number | null
}

export interface ExcerptFacts {
  excerptId: string
  startSample: number
  endSample: number
  startMs: number
  endMs: number
  fs: number
  beats: FactsBeat[]
  /** Intervals in each averaging window. */
  avgBeats: number
  /** The averaged rate at each beat (NaN where no full window ends there). */
  hrAvg: Float64Array
  hr: HrStats
  /** Events present, in vocabulary order. */
  events: EventFacts[]
  /** Every sustained-rate event of the vocabulary, present or not. */
  sustainedRates: SustainedRate[]
  /** Rhythm episodes clipped to the excerpt. */
  rhythms: { rhythm: string; startMs: number; endMs: number }[]
  excludedBeats: number
  /** Time of the excerpt left out as artifact periods (ms). */
  excludedMs: number
}

const SINUS = new Set(['N', 'SBR'])
const ms = (t: number) => Math.round(t)

/** The facts of one excerpt for the events of `vocab`. */
export function excerptFacts(input: FactsInput, vocab: readonly VocabularyEvent[]): ExcerptFacts {
  const { excerpt: ex, beats } = input
  // The averaged rate at each beat is the HR tracker's own (summarize's), so the extremes asked
  // about are the ones a report states.
  const hrAvg = new Float64Array(beats.length)
  const tracker = createHrTracker({ avgBeats: input.avgBeats, fs: ex.fs })
  beats.forEach((b, i) => {
    if (b.afterBreak) tracker.interrupt()
    hrAvg[i] = tracker.add(b.timeMs, b.sample)
  })
  const rhythmAt = (sample: number) => input.rhythms.find((r) => r.startSample <= sample && sample < r.endSample)?.rhythm ?? null
  const sinus = (i: number) => {
    const r = rhythmAt(beats[i].sample)
    return r === null || SINUS.has(r)
  }
  // The interval ending at beat i joins two sinus-conducted beats in a sinus-driven rhythm.
  const sinusInterval = (i: number) => [beats[i - 1], beats[i]].every((b) => {
    const r = rhythmAt(b.sample)
    return (b.symbol !== undefined ? SINUS_BEATS.includes(b.symbol) : b.label === 'N') && (r === null || SINUS_DRIVEN.includes(r))
  })
  const occurrence = (s: Span): EventOccurrence => ({ timeMs: ms(beats[s.at].timeMs), sample: beats[s.at].sample, beats: beats.slice(s.first, s.last + 1).map((b) => b.sample) })
  const events: EventFacts[] = []
  const sustainedRates: SustainedRate[] = []
  for (const e of vocab) {
    const src = e.source
    let found: Span[] = []
    let atEdge: (s: Span) => boolean = () => false
    let rhythm: { occurrences: EventOccurrence[]; ongoing: EventOccurrence[]; spans: { startMs: number; endMs: number }[] } | null = null
    if ('beats' in src) {
      found = beats.flatMap((b, i) => ((b.symbol !== undefined ? src.beats.symbols.includes(b.symbol) : src.beats.labels.includes(b.label)) ? [{ first: i, last: i, at: i }] : []))
    } else if ('run' in src) {
      found = findRuns(beats, src.run.of, src.run.min, src.run.max)
      atEdge = (s) => spanAtEdge(beats, s)
    } else if ('geminy' in src) {
      const g = src.geminy
      found = findGeminy(beats, g.of, g.period, g.minCycles)
      atEdge = (s) => geminyAtEdge(beats, s, g.of, g.period)
    } else if ('rr' in src) {
      found = findLongRr(beats, src.rr.aboveMs, src.rr.belowMs, src.rr.sinus ? sinusInterval : undefined)
    } else if ('hr' in src) {
      const o = { ...src.hr, sustainMs: src.hr.sustainSec * 1000 }
      found = findSustainedRate(beats, hrAvg, o, sinus)
      atEdge = (s) => rateAtEdge(hrAvg, s)
      const above = src.hr.aboveBpm !== undefined
      sustainedRates.push({ event: e.name, thresholdBpm: (above ? src.hr.aboveBpm : src.hr.belowBpm)!, above, sustainSec: src.hr.sustainSec, bpm: sustainedExtreme(beats, hrAvg, o, sinus) })
    } else {
      rhythm = rhythmEvent(input, src.rhythm)
    }
    const occurrences = rhythm?.occurrences ?? found.filter((s) => !atEdge(s)).map(occurrence)
    const ongoing = rhythm?.ongoing ?? found.filter(atEdge).map(occurrence)
    if (!occurrences.length && !ongoing.length) continue
    const kind = Object.keys(src)[0] as EventKind
    events.push({ name: e.name, kind, counts: countsBeats(e) ? 'beats' : 'episodes', occurrences, boundary: ongoing.length > 0, ongoing, ...(rhythm ? { spans: rhythm.spans } : {}) })
  }
  return {
    excerptId: ex.id, startSample: ex.startSample, endSample: ex.endSample, startMs: ex.startMs, endMs: ex.endMs, fs: ex.fs,
    beats, avgBeats: input.avgBeats, hrAvg, hr: tracker.finish(), events, sustainedRates,
    rhythms: input.rhythms.map((r) => ({ rhythm: r.rhythm, startMs: ms(Math.max(r.startMs, ex.startMs)), endMs: ms(Math.min(r.endMs, ex.endMs)) })),
    excludedBeats: input.excludedBeats,
    excludedMs: input.excludedMs ?? 0,
  }
}

// A rhythm event's episodes: an onset inside is an occurrence (no beats: the onset is an
// annotation); one begun before the excerpt is ongoing from the excerpt's start.
function rhythmEvent(input: FactsInput, names: readonly string[]) {
  const ex = input.excerpt
  const mine = input.rhythms.filter((r) => names.includes(r.rhythm))
  const at = (r: RhythmSpan): EventOccurrence => (r.startSample < ex.startSample ? { timeMs: ms(ex.startMs), sample: ex.startSample, beats: [] } : { timeMs: ms(r.startMs), sample: r.startSample, beats: [] })
  return {
    occurrences: mine.filter((r) => r.startSample >= ex.startSample).map(at),
    ongoing: mine.filter((r) => r.startSample < ex.startSample).map(at),
    spans: mine.map((r) => ({ startMs: ms(Math.max(r.startMs, ex.startMs)), endMs: ms(Math.min(r.endMs, ex.endMs)) })),
  }
}

/** The index of the first item of a sample-ordered list at or after `sample` (binary search). */
export function firstAtOrAfter(list: readonly { sample: number }[], sample: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid].sample < sample) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The facts of an event, or null when it is absent from the excerpt. */
export function eventIn(facts: ExcerptFacts, name: string): EventFacts | null {
  return facts.events.find((e) => e.name === name) ?? null
}

/** Whether an excerpt can be asked how many / when: present without an onset before it (or absent: 0). */
export function countable(facts: ExcerptFacts, name: string): boolean {
  return !(eventIn(facts, name)?.boundary ?? false)
}

/**
 * How many bpm an excerpt stays on its side of a sustained-rate event's threshold (vocabulary
 * source `hr`): by how much the rate it holds for the event's sustainSec (SustainedRate.bpm)
 * exceeds the threshold where the event is present, or falls short of it where absent (for a
 * "below" event, the other way round), so a question can ask about an excerpt only where the
 * answer is clear by some margin. 0 where the rate sits exactly at the threshold (absent). Null
 * for any other event, and where no stretch of sinus beats that long has an averaged rate (the
 * event cannot occur there, and no rate says how nearly).
 */
export function rateMargin(facts: ExcerptFacts, eventName: string): number | null {
  const r = facts.sustainedRates.find((x) => x.event === eventName)
  return r && r.bpm !== null ? Math.abs(r.bpm - r.thresholdBpm) : null
}
