// The facts holter-dsp answers from: each excerpt's facts computed from the detector's beats and
// the signal's own quality flags and gaps, never from the reference (no reference beat, rhythm
// or noise mark is fed). As in the qa stage, an excerpt's span has passed when it arrives, so its
// facts are computed then and kept (small) until the record's questions come.
import type { Item } from '../core/items.ts'
import { createFactBuffer } from '../qa/fact-buffer.ts'
import type { ExcerptFacts } from '../qa/excerpt-facts.ts'
import type { VocabularyEvent } from '../qa/vocabulary.ts'

/** A record's detector facts per excerpt id, fed the stream's items. */
export function createDetectorFacts(vocab: readonly VocabularyEvent[], avgBeats: number) {
  const buffer = createFactBuffer(vocab, avgBeats)
  const byExcerpt = new Map<string, ExcerptFacts>()
  let detectorBeats = 0
  return {
    feed(item: Item): void {
      if (item.kind === 'watermark') buffer.keepFrom(item.sample)
      else if (item.kind === 'beat' && item.source === 'detector') {
        detectorBeats++
        buffer.beat(item)
      } else if (item.kind === 'quality' && item.leads.some((l) => l.flags.length)) buffer.artifact(item.startSample, item.endSample)
      else if (item.kind === 'gap') buffer.gap(item.atSample)
      else if (item.kind === 'excerpt') byExcerpt.set(item.id, buffer.facts(item, 'detector'))
    },
    /** The facts of an excerpt, or null when the record has no detector beat at all. */
    of(excerptId: string): ExcerptFacts | null {
      return detectorBeats > 0 ? (byExcerpt.get(excerptId) ?? null) : null
    },
  }
}
