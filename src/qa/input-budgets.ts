// A model's limits against an excerpt's inputs ("Inputs"): nothing is cut to fit, so an
// excerpt whose inputs exceed a configured budget is an error naming the numbers; the dataset
// check (qa-plan-check.ts) refuses such lengths before any record is read where it can tell.
import { PipelineError } from '../core/errors.ts'
import type { ExcerptItem, QaInputs } from '../core/items.ts'

export interface Budgets {
  maxTextTokens?: number
  maxImages?: number
  maxFrames?: number
}

/** Throws E_CONFIG_VALUE when the inputs miss a required modality or exceed a budget. */
export function checkBudgets(ex: ExcerptItem, inputs: QaInputs, o: { budgets: Budgets; inputs: readonly string[] }): void {
  const missing = o.inputs.filter((m) => !(m in inputs))
  if (missing.length) {
    const stage = { text: 'render-text (excerpts)', images: 'render-strip (excerpts)', video: 'render-video (clips.excerpts)' } as Record<string, string>
    throw new PipelineError('E_CONFIG_VALUE', `qa: excerpt ${ex.id} has no ${missing.join(', ')} input, which option inputs requires; name set ${ex.set} in ${missing.map((m) => stage[m]).join(' and ')} before qa`, { field: 'inputs' })
  }
  const b = o.budgets
  const over: string[] = []
  if (b.maxTextTokens !== undefined && inputs.text && inputs.text.tokens > b.maxTextTokens) over.push(`its text is ${inputs.text.tokens} tokens, over maxTextTokens ${b.maxTextTokens}`)
  if (b.maxImages !== undefined && inputs.images && inputs.images.count > b.maxImages) over.push(`it has ${inputs.images.count} images, over maxImages ${b.maxImages}`)
  if (b.maxFrames !== undefined && inputs.video && inputs.video.frames > b.maxFrames) over.push(`its clip has ${inputs.video.frames} frames, over maxFrames ${b.maxFrames}`)
  if (over.length) throw new PipelineError('E_CONFIG_VALUE', `qa: excerpt ${ex.id} (${Math.round((ex.endMs - ex.startMs) / 1000)} s) does not fit the budgets: ${over.join('; ')}; shorten the excerpts of set ${ex.set}, lower render-text's rate, lengthen render-strip's excerptTileSec or render-video's clips.stepSec, or raise the budget`, { field: 'budgets' })
}
