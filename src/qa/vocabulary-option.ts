// The `vocabulary` option of the qa stage and of the excerpt stage's stratified rule: a table
// of events in the shape of src/qa/vocabulary.ts, replacing the default one (give both stages
// the same table, e.g. through a YAML anchor, so excerpts are chosen by the events asked about).
import { z } from '../core/stage-options.ts'
import { DEFAULT_VOCABULARY, type VocabularyEvent } from './vocabulary.ts'

const source = z.union([
  z.strictObject({ beats: z.strictObject({ symbols: z.array(z.string().min(1)).default([]), labels: z.array(z.enum(['N', 'S', 'V', 'F', 'Q'])).default([]) }) }),
  z.strictObject({ run: z.strictObject({ of: z.enum(['S', 'V']), min: z.number().int().min(1), max: z.number().int().min(1).optional() }) }),
  z.strictObject({ geminy: z.strictObject({ of: z.enum(['S', 'V']), period: z.union([z.literal(2), z.literal(3)]), minCycles: z.number().int().min(1).default(3) }) }),
  z.strictObject({ rr: z.strictObject({ aboveMs: z.number().positive(), belowMs: z.number().positive().optional(), sinus: z.boolean().optional() }) }),
  z.strictObject({ hr: z.strictObject({ aboveBpm: z.number().positive().optional(), belowBpm: z.number().positive().optional(), sustainSec: z.number().min(0).default(30) }).refine((h) => (h.aboveBpm === undefined) !== (h.belowBpm === undefined), 'give aboveBpm or belowBpm') }),
  z.strictObject({ rhythm: z.array(z.string().min(1)).min(1) }),
])

const event = z.strictObject({
  name: z.string().min(1),
  public: z.boolean().default(false),
  family: z.enum(['atrial', 'ventricular', 'rate', 'pause', 'conduction', 'rhythm']).default('rhythm'),
  source,
})

/** The option: a list of events with unique names; the default table when absent. */
export const vocabularyOption = z
  .array(event)
  .min(1)
  .refine((list) => new Set(list.map((e) => e.name)).size === list.length, 'two events share a name; give each event one entry')
  .optional()
  .transform((list): readonly VocabularyEvent[] => list ?? DEFAULT_VOCABULARY)
