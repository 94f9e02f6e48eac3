// The budget check before spend (pure): an item's input, at the sizes the qa stage recorded,
// against a model's declared limits. Text counts its tokens with the prompt's and the answer's
// (the context window holds all three); images count strips; a clip counts the frames that would
// be sent (the sampled ones, or the whole clip as a video part). What is over, by how much, and
// what `downsample` can do about it (a lower text rate, fewer frames) is returned, never applied
// silently: the infer stage writes it into the prediction.
import type { QaItem } from '../core/items.ts'
import type { ApiModelConfig } from './model-config.ts'
import type { BudgetNote } from './model.ts'

export interface BudgetVerdict {
  /** Limits exceeded at the recorded sizes (empty: the item fits). */
  over: BudgetNote['over']
  /** Tokens left for the excerpt's text when the prompt and the answer are counted (text modality). */
  textTokensAllowed?: number
  /** Frames the model may be sent (video modality). */
  framesAllowed?: number
  /** Whether `downsample` can bring every exceeded limit within bounds. */
  downsampleable: boolean
  /** The item has no input in the model's modality. */
  missing?: string
}

/** Checks `item`'s recorded input sizes against `model`'s limits; `promptTokens` is the prompt's size without the excerpt. */
export function checkBudget(item: QaItem, model: ApiModelConfig, promptTokens: number): BudgetVerdict {
  const l = model.limits
  const over: BudgetNote['over'] = []
  let downsampleable = true
  if (model.modality === 'text') {
    const t = item.inputs.text
    if (!t) return { over, downsampleable: false, missing: 'text' }
    if (l.contextTokens !== undefined) {
      const allowed = l.contextTokens - promptTokens - model.maxTokens
      const size = t.tokens + promptTokens + model.maxTokens
      if (size > l.contextTokens) over.push({ limit: 'contextTokens', size, max: l.contextTokens })
      return { over, textTokensAllowed: allowed, downsampleable: allowed > 0 }
    }
    return { over, downsampleable }
  }
  if (model.modality === 'images') {
    const im = item.inputs.images
    if (!im) return { over, downsampleable: false, missing: 'images' }
    // Strips are the signal itself: dropping some would hide beats, so images are never downsampled.
    if (l.maxImages !== undefined && im.count > l.maxImages) {
      over.push({ limit: 'maxImages', size: im.count, max: l.maxImages })
      downsampleable = false
    }
    return { over, downsampleable }
  }
  const v = item.inputs.video
  if (!v) return { over, downsampleable: false, missing: 'video' }
  const frames = model.video.send === 'frames' ? Math.min(model.video.frames, v.frames) : v.frames
  if (l.maxFrames !== undefined && frames > l.maxFrames) over.push({ limit: 'maxFrames', size: frames, max: l.maxFrames })
  if (model.video.send === 'frames' && l.maxImages !== undefined && frames > l.maxImages) over.push({ limit: 'maxImages', size: frames, max: l.maxImages })
  // Downsampled, a clip goes as frames (images) whatever `send` says: maxImages bounds them too.
  const framesAllowed = Math.min(frames, l.maxFrames ?? Infinity, l.maxImages ?? Infinity)
  return { over, framesAllowed, downsampleable: framesAllowed >= 1 }
}

/** The body-size check, once the request is built (its images and clip base64-encoded). */
export function checkBytes(bodyBytes: number, model: ApiModelConfig): BudgetNote['over'] {
  const max = model.limits.maxBytes
  return max !== undefined && bodyBytes > max ? [{ limit: 'maxBytes', size: bodyBytes, max }] : []
}
