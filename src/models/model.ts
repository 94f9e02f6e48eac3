// The model contract (design.md "Units": Model) and the prediction item the infer stage emits.
// A model answers one QA item from what it is shown: an API model from the request built out of
// the item's inputs (src/models/chat-request.ts), a built-in baseline from the item alone or, for
// holter-dsp, from the facts of the detector's beats in the item's excerpt. Baselines are pure.
import type { QaItem } from '../core/items.ts'
export type { BudgetNote, Modality, PredictionItem, Usage } from '../core/items.ts'
import type { ExcerptFacts } from '../qa/excerpt-facts.ts'
import type { VocabularyEvent } from '../qa/vocabulary.ts'

/** What a baseline may use beyond the item: the detector's facts for its excerpt (holter-dsp), the vocabulary. */
export interface BaselineContext {
  /** Facts of the detector's beats in the item's excerpt; null when the stream held no detector beats there. */
  detectorFacts: ExcerptFacts | null
  vocabulary: readonly VocabularyEvent[]
  /** Beats averaged for a heart rate (the qa stage's avgBeats). */
  avgBeats: number
}

/** A built-in model that needs no API: answers an item from its text (and facts), synchronously. */
export interface Baseline {
  name: string
  /** The answer in the public format's style (a closed item: "B. 355792", yes/no items: "Yes: ..."). */
  answer(item: QaItem, ctx: BaselineContext): string
}
