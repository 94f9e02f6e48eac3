// What the qa stage keeps of a record's stream to compute an excerpt's facts when the excerpt
// arrives (its span has passed, so every beat in it has come): the beats of each source in
// sample order, the reference rhythm episodes, the flagged (artifact) spans and the gaps. Kept
// from the lowest position an excerpt still to come may start at (the watermark), so memory is
// bounded by the longest excerpt and the watermark's lag, not by the record.
import type { BeatItem } from '../core/items.ts'
import { excerptFacts, type ExcerptFacts, type FactsBeat, type FactsInput, type RhythmSpan } from './excerpt-facts.ts'
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

function firstAtOrAfter<T extends { sample: number }>(list: readonly T[], sample: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid].sample < sample) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A record's buffered facts. */
export function createFactBuffer(vocab: readonly VocabularyEvent[], avgBeats: number) {
  const beats: Record<BeatSource, FactsBeat[]> = { reference: [], detector: [] }
  const rhythms: RhythmSpan[] = []
  let artifacts: [number, number][] = []
  const gaps: number[] = []
  let seenReference = 0
  return {
    get seenReference() {
      return seenReference
    },
    beat(b: BeatItem): void {
      if (b.source === 'reference') seenReference++
      const fb: FactsBeat = { sample: b.sample, timeMs: b.timeMs, label: b.label, ...(b.symbol !== undefined ? { symbol: b.symbol } : {}) }
      if (b.source === 'detector') Object.assign(fb, { qrsSpanMs: (b.qrsSpanMs as number | null | undefined) ?? null, templateCorr: (b.templateCorr as number | null | undefined) ?? null })
      insertSorted(beats[b.source], fb)
    },
    /** A reference rhythm change at `sample` (null: the end marker of the episode in progress). */
    rhythm(sample: number, timeMs: number, rhythm: string | null): void {
      const open = rhythms.at(-1)
      if (open && open.endSample === Infinity) Object.assign(open, { endSample: sample, endMs: timeMs })
      if (rhythm) rhythms.push({ rhythm, startSample: sample, startMs: timeMs, endSample: Infinity, endMs: Infinity })
    },
    artifact(start: number, end: number): void {
      artifacts.push([start, end])
    },
    /** A reference `~` mark (noise-marks.ts): an unreadable stretch is an artifact period. */
    noise(sample: number, subtype: number | undefined): void {
      applyNoiseMark(artifacts, sample, subtype)
    },
    gap(atSample: number): void {
      gaps.push(atSample)
    },
    /** The facts of the span [start, end) from the beats of `source`. */
    facts(ex: FactsInput['excerpt'], source: BeatSource): ExcerptFacts {
      const all = beats[source]
      const inSpan = all.slice(firstAtOrAfter(all, ex.startSample), firstAtOrAfter(all, ex.endSample))
      const flagged = (s: number) => artifacts.some(([a, b]) => s >= a && s < b)
      const kept: FactsBeat[] = []
      let excluded = 0
      let broken = false
      for (const b of inSpan) {
        if (flagged(b.sample)) {
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
      return excerptFacts({ excerpt: ex, beats: kept, rhythms: spans, excludedBeats: excluded, avgBeats }, vocab)
    },
    /** Drops what no excerpt starting at or after `sample` needs. */
    keepFrom(sample: number): void {
      for (const s of ['reference', 'detector'] as const) {
        const cut = firstAtOrAfter(beats[s], sample)
        if (cut > 0) beats[s].splice(0, cut)
      }
      while (rhythms.length > 1 && rhythms[0].endSample <= sample) rhythms.shift()
      artifacts = artifacts.filter(([, b]) => b > sample)
    },
  }
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
