// What is kept of a record's stream to compute the facts of a span once it has passed (every
// beat in it has come): the beats of each source in sample order, the reference rhythm episodes,
// the flagged (artifact) spans and the gaps, kept from the lowest position a span still to come
// may start at, so memory is bounded by the longest span and the watermark's lag, not by the
// record. The qa stage computes its excerpts' facts from it, and the stratified excerpt rule its
// candidate tiles', so both apply one set of rules (artifacts, breaks, rhythms).
// The reference decides the gold: facts from its beats leave out only the stretches it marks
// unreadable itself (`~` marks, noise-marks.ts) and break at gaps; the quality stage's flags do
// not drop a reference beat or change a count (they only keep a tile from being chosen,
// `clean`). Facts from the detector's beats leave out the flagged windows as well: for a
// detector, the flags are what tells noise from beats.
import type { AnnotationItem, BeatItem } from '../core/items.ts'
import { endsRhythm, rhythmOf } from '../formats/annotation-text.ts'
import { excerptFacts, firstAtOrAfter, type ExcerptFacts, type FactsBeat, type FactsInput, type RhythmSpan } from './excerpt-facts.ts'
import type { VocabularyEvent } from './vocabulary.ts'
import { applyNoiseMark } from './noise-marks.ts'

export type BeatSource = 'reference' | 'detector'

// Detector beats within this of a reference beat lend it their measures (EC57's match window).
const MATCH_MS = 150

function insertSorted<T extends { sample: number }>(list: T[], x: T): void {
  let i = list.length
  while (i > 0 && list[i - 1].sample > x.sample) i--
  list.splice(i, 0, x)
}

/** A beat as the buffer takes it (a beat item; source reference when absent). */
export type BufferedBeat = Pick<BeatItem, 'sample' | 'timeMs' | 'label'> & Partial<Pick<BeatItem, 'source' | 'symbol' | 'qrsSpanMs' | 'templateCorr'>>

export type FactBuffer = ReturnType<typeof createFactBuffer>

/** A record's buffered facts. */
export function createFactBuffer(vocab: readonly VocabularyEvent[], avgBeats: number) {
  const beats: Record<BeatSource, FactsBeat[]> = { reference: [], detector: [] }
  const rhythms: RhythmSpan[] = []
  let flagged: [number, number][] = [] // the quality stage's flagged windows
  let unreadable: [number, number][] = [] // the reference's own unreadable stretches
  const gaps: number[] = []
  let seenReference = 0
  return {
    get seenReference() {
      return seenReference
    },
    beat(b: BufferedBeat): void {
      const source = b.source ?? 'reference'
      if (source === 'reference') seenReference++
      const fb: FactsBeat = { sample: b.sample, timeMs: b.timeMs, label: b.label, ...(b.symbol !== undefined ? { symbol: b.symbol } : {}) }
      if (source === 'detector') Object.assign(fb, { qrsSpanMs: (b.qrsSpanMs as number | null | undefined) ?? null, templateCorr: (b.templateCorr as number | null | undefined) ?? null })
      insertSorted(beats[source], fb)
    },
    /** A reference rhythm change at `sample` (null: the end marker of the episode in progress). */
    rhythm(sample: number, timeMs: number, rhythm: string | null): void {
      const open = rhythms.at(-1)
      if (open && open.endSample === Infinity) Object.assign(open, { endSample: sample, endMs: timeMs })
      if (rhythm) rhythms.push({ rhythm, startSample: sample, startMs: timeMs, endSample: Infinity, endMs: Infinity })
    },
    /** A window the quality stage flagged. */
    artifact(start: number, end: number): void {
      flagged.push([start, end])
    },
    /** A reference `~` mark (noise-marks.ts): an unreadable stretch is an artifact period. */
    noise(sample: number, subtype: number | undefined): void {
      applyNoiseMark(unreadable, sample, subtype)
    },
    gap(atSample: number): void {
      gaps.push(atSample)
    },
    /** Whether [start, end) holds no gap and (unless `artifacts` are allowed) overlaps no flagged window or unreadable stretch. */
    clean(start: number, end: number, allowArtifacts = false): boolean {
      return !gaps.some((g) => g > start && g < end) && (allowArtifacts || ![...flagged, ...unreadable].some(([a, b]) => a < end && b > start))
    },
    /** The facts of the span [start, end) from the beats of `source`. */
    facts(ex: FactsInput['excerpt'], source: BeatSource): ExcerptFacts {
      const all = beats[source]
      const inSpan = all.slice(firstAtOrAfter(all, ex.startSample), firstAtOrAfter(all, ex.endSample))
      const artifacts = source === 'reference' ? unreadable : [...flagged, ...unreadable]
      const inArtifact = (s: number) => artifacts.some(([a, b]) => s >= a && s < b)
      const kept: FactsBeat[] = []
      let excluded = 0
      let broken = false
      for (const b of inSpan) {
        if (inArtifact(b.sample)) {
          excluded++
          broken = true
          continue
        }
        // A gap or an artifact period between this beat and the last one kept: no interval joins them.
        const prev = kept.at(-1)?.sample
        const between = prev !== undefined && (gaps.some((g) => g > prev && g <= b.sample) || artifacts.some(([a, e]) => a <= b.sample && e > prev))
        kept.push({ ...b, ...(broken || between ? { afterBreak: true } : {}) })
        broken = false
      }
      if (source === 'reference') lendMeasures(kept, beats.detector)
      const spans = rhythms.filter((r) => r.startSample < ex.endSample && r.endSample > ex.startSample).map((r) => ({ ...r }))
      const excludedMs = (covered(artifacts, ex.startSample, ex.endSample) * 1000) / ex.fs
      return excerptFacts({ excerpt: ex, beats: kept, rhythms: spans, excludedBeats: excluded, excludedMs, avgBeats }, vocab)
    },
    /** Drops what no excerpt starting at or after `sample` needs. */
    keepFrom(sample: number): void {
      for (const s of ['reference', 'detector'] as const) {
        const cut = firstAtOrAfter(beats[s], sample)
        if (cut > 0) beats[s].splice(0, cut)
      }
      while (rhythms.length > 1 && rhythms[0].endSample <= sample) rhythms.shift()
      flagged = flagged.filter(([, b]) => b > sample)
      unreadable = unreadable.filter(([, b]) => b > sample)
      // The last gap before `sample` still breaks the interval into the first beat kept.
      while (gaps.length > 1 && gaps[1] <= sample) gaps.shift()
    },
  }
}

// How many samples of [start, end) the spans cover (overlapping spans counted once).
function covered(spans: readonly [number, number][], start: number, end: number): number {
  const clipped = spans.map(([a, b]): [number, number] => [Math.max(a, start), Math.min(b, end)]).filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0])
  let total = 0
  let reach = start
  for (const [a, b] of clipped) {
    if (b <= reach) continue
    total += b - Math.max(a, reach)
    reach = b
  }
  return total
}

// Copies the detector's QRS measures onto the reference beats it found (nearest within MATCH_MS).
function lendMeasures(ref: FactsBeat[], det: readonly FactsBeat[]): void {
  if (!det.length) return
  for (const b of ref) {
    const i = firstAtOrAfter(det, b.sample)
    const near = [det[i - 1], det[i]].filter((d): d is FactsBeat => d !== undefined && Math.abs(d.timeMs - b.timeMs) <= MATCH_MS)
    const d = near.sort((x, y) => Math.abs(x.timeMs - b.timeMs) - Math.abs(y.timeMs - b.timeMs))[0]
    if (d) Object.assign(b, { qrsSpanMs: d.qrsSpanMs ?? null, templateCorr: d.templateCorr ?? null })
  }
}

/** Feeds a reference annotation to a buffer: a rhythm change ("+" with "(NAME" or ")") or a `~` signal-quality mark; other annotations say nothing it keeps. */
export function feedReferenceMark(into: Pick<FactBuffer, 'rhythm' | 'noise'>, a: Pick<AnnotationItem, 'sample' | 'timeMs' | 'symbol' | 'aux' | 'subtype'>): void {
  const rhythm = rhythmOf(a)
  if (rhythm || endsRhythm(a)) into.rhythm(a.sample, a.timeMs, rhythm)
  else if (a.symbol === '~') into.noise(a.sample, a.subtype)
}
