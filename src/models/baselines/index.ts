// The built-in baselines of the infer stage by kind (src/models/model.ts, Baseline): random,
// prior (train priors), blind (the audit's best blind answerer) and holter-dsp (the detector's
// facts). Each is pure; the factory makes one per run.
import type { QaItem } from '../../core/items.ts'
import type { Baseline } from '../model.ts'
import { createRandomBaseline } from './random.ts'
import { createPriorBaseline } from './prior.ts'
import { createBlindBaseline } from './blind.ts'
import { createHolterDspBaseline } from './holter-dsp.ts'

export { createRandomBaseline } from './random.ts'
export { createPriorBaseline } from './prior.ts'
export { createBlindBaseline, type BlindBaseline } from './blind.ts'
export { createHolterDspBaseline } from './holter-dsp.ts'

export const BASELINE_KINDS = ['random', 'prior', 'blind', 'holter-dsp'] as const
export type BaselineKind = (typeof BASELINE_KINDS)[number]

/** Whether a string names a built-in baseline. */
export function isBaselineKind(s: string): s is BaselineKind {
  return (BASELINE_KINDS as readonly string[]).includes(s)
}

/** A baseline of `kind`: `seed` seeds random, `train` (train items only) teaches prior and blind (prior without train answers its fixed defaults). */
export function createBaseline(kind: BaselineKind, opts: { seed: string | number; train?: readonly QaItem[] }): Baseline {
  switch (kind) {
    case 'random':
      return createRandomBaseline(opts.seed)
    case 'prior':
      return createPriorBaseline(opts.train ?? [])
    case 'blind':
      return createBlindBaseline({ train: opts.train })
    case 'holter-dsp':
      return createHolterDspBaseline()
  }
}
