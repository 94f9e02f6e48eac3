// The qa stage's `split` option: the shares of test and valid, and the cases pinned to a split
// before the shares are applied to the others (src/qa/splits.ts). A case pinned twice is wrong
// whatever the records, so it is refused here; a pinned case the dataset does not have is found
// when the records are known (the stage's plan check, src/qa/qa-plan-check.ts). Case ids are
// written as the dataset writes record and patient ids: a number (208) is read as its digits.
import { z } from '../core/stage-options.ts'
import { pinnedTwice } from './splits.ts'

const caseIds = z.array(z.union([z.string().min(1), z.number().int().min(0)]).transform(String)).min(1)

/** `split: {test, valid, pin?: {test?, valid?, train?}}`; pin absent by default, so a dataset without it keeps its config hash. */
export const splitOption = z
  .strictObject({
    /** Share of the unpinned cases in test. */
    test: z.number().min(0).max(1).default(0.2),
    /** Share of the unpinned cases left after test that go to valid (9:1 train/valid). */
    valid: z.number().min(0).max(1).default(0.1),
    /** Case ids (a record's patient.id, else its id) put in a split whatever the shares. */
    pin: z.strictObject({ test: caseIds.optional(), valid: caseIds.optional(), train: caseIds.optional() }).optional(),
  })
  .superRefine((o, ctx) => {
    for (const message of pinnedTwice(o.pin ?? {})) ctx.addIssue({ code: 'custom', message, path: ['pin'], input: o.pin })
  })
  .default({ test: 0.2, valid: 0.1 })
