// The facts of one excerpt (pure): which events of the vocabulary occur in it, each occurrence
// with its time and the beats it came from, the heart-rate figures, and the rhythms. Computed
// from the excerpt's own beats and the rhythm episodes overlapping it, nothing else (issue 13,
// "answerability"): a run that started before the excerpt is seen from its first beat inside,
// as a model shown the excerpt sees it. Times are record milliseconds rounded to the ms (the
// beat's sample x 1000 / fs, gaps included, as the annotate stage gives timeMs).
import type { ExcerptItem } from '../core/items.ts'
import { createHrTracker, type HrStats } from '../dsp/hr-stats.ts'
import { findGeminy, findLongRr, findRuns, findSustainedRate, type PatternBeat, type Span } from './beat-patterns.ts'
import { countsBeats, type VocabularyEvent } from './vocabulary.ts'

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
  avgBeats: number
}

export interface EventOccurrence {
  timeMs: number
  sample: number
  /** The samples of the beats it is made of (a beat event: its one beat). */
  beats: number[]
}

export interface EventFacts {
  name: string
  counts: 'beats' | 'episodes'
  occurrences: EventOccurrence[]
  /** An episode of it was already going on when the excerpt starts (its onset is not in the excerpt). */
  boundary: boolean
}

export interface ExcerptFacts {
  excerptId: string
  startSample: number
  endSample: number
  startMs: number
  endMs: number
  fs: number
  beats: FactsBeat[]
  /** The averaged rate at each beat (NaN where no full window ends there). */
  hrAvg: Float64Array
  hr: HrStats
  /** Events present, in vocabulary order. */
  events: EventFacts[]
  /** Rhythm episodes clipped to the excerpt. */
  rhythms: { rhythm: string; startMs: number; endMs: number }[]
  excludedBeats: number
}

const SINUS = new Set(['N', 'SBR'])
const ms = (t: number) => Math.round(t)

/** The facts of one excerpt for the events of `vocab`. */
export function excerptFacts(input: FactsInput, vocab: readonly VocabularyEvent[]): ExcerptFacts {
  const { excerpt: ex, beats } = input
  // The averaged rate at each beat is the HR tracker's own (summarize's), so the extremes asked
  // about are the ones a report states.
  const hrAvg = new Float64Array(beats.length)
  const tracker = createHrTracker({ avgBeats: input.avgBeats })
  beats.forEach((b, i) => {
    if (b.afterBreak) tracker.interrupt()
    hrAvg[i] = tracker.add(b.label, b.timeMs)
  })
  const rhythmAt = (sample: number) => input.rhythms.find((r) => r.startSample <= sample && sample < r.endSample)?.rhythm ?? null
  const sinus = (i: number) => {
    const r = rhythmAt(beats[i].sample)
    return r === null || SINUS.has(r)
  }
  const fromSpans = (spans: Span[]): EventOccurrence[] => spans.map((s) => ({ timeMs: ms(beats[s.at].timeMs), sample: beats[s.at].sample, beats: beats.slice(s.first, s.last + 1).map((b) => b.sample) }))
  const events: EventFacts[] = []
  for (const e of vocab) {
    const src = e.source
    let occurrences: EventOccurrence[] = []
    let boundary = false
    if ('beats' in src) {
      occurrences = beats.filter((b) => (b.symbol !== undefined ? src.beats.symbols.includes(b.symbol) : src.beats.labels.includes(b.label))).map((b) => ({ timeMs: ms(b.timeMs), sample: b.sample, beats: [b.sample] }))
    } else if ('run' in src) {
      occurrences = fromSpans(findRuns(beats, src.run.of, src.run.min, src.run.max))
    } else if ('geminy' in src) {
      occurrences = fromSpans(findGeminy(beats, src.geminy.of, src.geminy.period, src.geminy.minCycles))
    } else if ('rr' in src) {
      occurrences = fromSpans(findLongRr(beats, src.rr.aboveMs, src.rr.belowMs))
    } else if ('hr' in src) {
      occurrences = fromSpans(findSustainedRate(beats, hrAvg, { ...src.hr, sustainMs: src.hr.sustainSec * 1000 }, sinus))
    } else {
      for (const r of input.rhythms) {
        if (!src.rhythm.includes(r.rhythm)) continue
        if (r.startSample < ex.startSample) boundary = true
        else occurrences.push({ timeMs: ms(r.startMs), sample: r.startSample, beats: [] })
      }
    }
    if (occurrences.length || boundary) events.push({ name: e.name, counts: countsBeats(e) ? 'beats' : 'episodes', occurrences, boundary })
  }
  return {
    excerptId: ex.id, startSample: ex.startSample, endSample: ex.endSample, startMs: ex.startMs, endMs: ex.endMs, fs: ex.fs,
    beats, hrAvg, hr: tracker.finish(), events,
    rhythms: input.rhythms.map((r) => ({ rhythm: r.rhythm, startMs: ms(Math.max(r.startMs, ex.startMs)), endMs: ms(Math.min(r.endMs, ex.endMs)) })),
    excludedBeats: input.excludedBeats,
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
