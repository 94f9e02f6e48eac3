// The chat-completions request for one QA item and one API model: the tier's system prompt, then
// the item's own input in the model's modality (the excerpt's text with a header saying how to
// read it; its strips as image parts; its clip as a video_url part or as frames sampled from it),
// then the question. What the budget check asked for is applied here and said in `action`:
// text at a lower rate, fewer frames. The body is exactly what is sent and what the cache key
// hashes, so two requests share an answer only if the server would have seen the same bytes.
import { PipelineError } from '../core/errors.ts'
import type { QaItem } from '../core/items.ts'
import { estimateTokens } from '../render/estimate-tokens.ts'
import type { ApiModelConfig } from './model-config.ts'
import { mediaHeader, systemPrompt, textHeader } from './prompts.ts'
import { downsampleEcgText } from './text-downsample.ts'

/** How the stage reads an item's files (its media store: this run's, or an input run's). */
export interface InputReader {
  read(path: string, range?: { offset: number; bytes: number }): Promise<Buffer>
  /** `count` frames spread evenly over the clip at `path` (of `frames` frames), as PNG. */
  frames(path: string, count: number, frames: number): Promise<Buffer[]>
}

export interface BuiltRequest {
  body: Record<string, unknown>
  /** Bytes of the body as JSON (what maxBytes limits). */
  bytes: number
  /** What was done to fit the budget. */
  action?: string
}

/** Downsampling could not bring the input within budget (the caller skips the item and says so). */
export class TooBig extends Error {}

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } } | { type: 'video_url'; video_url: { url: string } }

/** Tokens of the prompt around the excerpt's text (system, header, question), for the context check. */
export function promptTokens(item: QaItem, model: ApiModelConfig): number {
  const header = item.inputs.text ? textHeader(item.inputs.text, item.excerpt.startMs) : ''
  // A few tokens per message for the chat format's own markers.
  return estimateTokens(Buffer.from(`${systemPrompt(item.tier)}\n${header}\n${item.question}`)) + 12
}

/** Builds the request; `fit` carries the budget check's allowances when the policy is downsample. */
export async function buildChatRequest(item: QaItem, model: ApiModelConfig, io: InputReader, fit: { textTokens?: number; frames?: number } = {}): Promise<BuiltRequest> {
  let user: string | Part[]
  let action: string | undefined
  if (model.modality === 'text') {
    const t = need(item, 'text')
    let text = (await io.read(t.path, { offset: t.offset, bytes: t.bytes })).toString('utf8').trimEnd()
    let rate = t.fs
    if (fit.textTokens !== undefined && t.tokens > fit.textTokens) {
      const d = downsampleEcgText(text, { maxTokens: fit.textTokens })
      if (!d) throw new TooBig(`the text does not fit ${fit.textTokens} tokens even at the lowest rate (10 Hz); skipped`)
      action = `text resampled from ${d.fromRate} Hz to ${d.rate} Hz: ${t.tokens} -> ${d.tokens} tokens`
      text = d.text
      rate = d.rate
    }
    user = `${textHeader(t, item.excerpt.startMs, rate)}\n${text}\n\n${item.question}`
  } else if (model.modality === 'images') {
    const im = need(item, 'images')
    const images = await Promise.all(im.paths.map((p) => io.read(p)))
    user = [{ type: 'text', text: mediaHeader(item, 'images', images.length) }, ...images.map((b) => imagePart(b)), { type: 'text', text: item.question }]
  } else {
    const v = need(item, 'video')
    // What the model takes without downsampling: its sampled frames, or the whole clip.
    const usual = model.video.send === 'frames' ? Math.min(model.video.frames, v.frames) : v.frames
    const send = fit.frames !== undefined && fit.frames < usual ? 'frames' : model.video.send
    if (send === 'video_url') {
      const clip = await io.read(v.path)
      user = [{ type: 'text', text: mediaHeader(item, 'video', 1) }, { type: 'video_url', video_url: { url: `data:video/mp4;base64,${clip.toString('base64')}` } }, { type: 'text', text: item.question }]
    } else {
      const count = Math.min(fit.frames ?? usual, usual)
      if (count < usual) action = model.video.send === 'frames' ? `${count} frames sent instead of ${usual}` : `${count} frames sampled from the clip sent as images instead of its ${v.frames} frames`
      const frames = await io.frames(v.path, count, v.frames)
      user = [{ type: 'text', text: mediaHeader(item, 'frames', frames.length) }, ...frames.map((b) => imagePart(b)), { type: 'text', text: item.question }]
    }
  }
  const body = chatBody(model, [{ role: 'system', content: systemPrompt(item.tier) }, { role: 'user', content: user }])
  return { body, bytes: Buffer.byteLength(JSON.stringify(body)), ...(action ? { action } : {}) }
}

/** A request body for `model`: its sampling settings, its extra body fields, and the answer's length in the field it uses (max_tokens, or max_completion_tokens when the body names that one, with the body's value); `maxTokens` overrides both (the short probe of models check). */
export function chatBody(model: ApiModelConfig, messages: unknown[], maxTokens?: number): Record<string, unknown> {
  const field = model.body.max_completion_tokens !== undefined ? 'max_completion_tokens' : 'max_tokens'
  return { model: model.model, messages, temperature: model.temperature, ...(model.seed !== undefined ? { seed: model.seed } : {}), ...model.body, [field]: maxTokens ?? model.body[field] ?? model.maxTokens }
}

function imagePart(png: Buffer): Part {
  return { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } }
}

function need<K extends 'text' | 'images' | 'video'>(item: QaItem, k: K): NonNullable<QaItem['inputs'][K]> {
  const v = item.inputs[k]
  if (!v) throw new PipelineError('E_MODEL_INPUT', `item ${item.id} has no ${k} input: render its excerpt set (${item.excerpt.set}) with ${k === 'text' ? 'render-text' : k === 'images' ? 'render-strip' : 'render-video'} before qa, or give the model another modality`, { field: 'modality' })
  return v as NonNullable<QaItem['inputs'][K]>
}
