// The models of an `infer` stage as a dataset declares them (validated at the edge).
// An API model names its server, model, key variable (never the key), modality, limits and what
// to do with an item over them; a baseline names its kind. The request-relevant part of an API
// model's config (requestConfig) goes into every cache key; its operational settings
// (concurrency, rates, retries, prices, its name) do not, so renaming a model or raising its
// concurrency reuses every answer already paid for.
import { z } from '../core/stage-options.ts'
import { BASELINE_KINDS } from './baselines/index.ts'

const name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a model name: letters, digits, ".", "_" and "-" (it names the model in every output)')

const limits = z.strictObject({
  /** The model's context window: prompt and answer (maxTokens) together. */
  contextTokens: z.number().int().positive().optional(),
  maxImages: z.number().int().positive().optional(),
  maxFrames: z.number().int().positive().optional(),
  /** The request body's size in bytes (images and video travel base64-encoded in it). */
  maxBytes: z.number().int().positive().optional(),
}).default({})


/** Which items a model answers (all by default): an API model on the test split only spares paying for the others. */
const only = z.strictObject({
  splits: z.array(z.enum(['train', 'valid', 'test'])).min(1).optional(),
  tasks: z.array(z.string().min(1)).min(1).optional(),
  sets: z.array(z.string().min(1)).min(1).optional(),
}).optional()

export const apiModelSchema = z.strictObject({
  name,
  only,
  kind: z.literal('openai-compatible'),
  /** The server's API root, e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1. */
  baseURL: z.url({ protocol: /^https?$/, error: 'an http(s) URL of the API root, such as http://127.0.0.1:8000/v1' })
    .refine((u) => { const x = new URL(u); return !x.username && !x.password && !x.search }, 'a URL without a user, password or query (it is written to the manifest): put a key in the variable apiKeyEnv names'),
  model: z.string().min(1),
  /** The environment variable holding the API key; none: a local server without keys. */
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'the NAME of an environment variable (never the key itself)').optional(),
  modality: z.enum(['text', 'images', 'video']).default('text'),
  /** How a clip is sent: as a video_url part (servers that take video), or as `frames` images sampled from it. */
  video: z.strictObject({ send: z.enum(['video_url', 'frames']).default('frames'), frames: z.number().int().min(1).max(256).default(8) }).default({ send: 'frames', frames: 8 }),
  temperature: z.number().min(0).max(2).default(0),
  maxTokens: z.number().int().positive().default(512),
  seed: z.number().int().optional(),
  timeoutMs: z.number().int().positive().default(120_000),
  /** Extra fields of the request body (top_p, a vLLM sampling option...). */
  body: z.record(z.string(), z.unknown()).default({}),
  limits,
  overBudget: z.enum(['skip', 'downsample', 'fail']).default('skip'),
  /** Calls in flight for this model across every record of the run. */
  concurrency: z.number().int().min(1).max(256).default(4),
  rpm: z.number().positive().optional(),
  tpm: z.number().positive().optional(),
  /** Attempts after the first, for 429, 5xx, timeouts and dropped connections. */
  retries: z.number().int().min(0).max(20).default(5),
  /** Waits between attempts; a server's Retry-After is obeyed up to maxRetryAfterMs (over it the item fails). */
  backoff: z.strictObject({ minMs: z.number().int().min(0).default(1000), maxMs: z.number().int().min(0).default(60_000), maxRetryAfterMs: z.number().int().min(0).default(600_000) }).default({ minMs: 1000, maxMs: 60_000, maxRetryAfterMs: 600_000 }),
  /** After the last attempt: a prediction with the error (`item`), or the record fails (`record`). */
  onError: z.enum(['item', 'record']).default('item'),
  /** US$ per million tokens, for the estimated cost shown live (pipeline run, pipeline tail). */
  prices: z.strictObject({ inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0) }).optional(),
})

const baseline = z.strictObject({
  name,
  only,
  kind: z.enum(BASELINE_KINDS),
  seed: z.union([z.number(), z.string()]).default(1),
  /** prior and blind: the run directory or exported Holtercare folder whose train split they learn from. */
  train: z.string().min(1).optional(),
})

export const modelSchema = z.discriminatedUnion('kind', [apiModelSchema, baseline])
export type ApiModelConfig = z.infer<typeof apiModelSchema>
export type BaselineConfig = z.infer<typeof baseline>
export type ModelConfig = z.infer<typeof modelSchema>

/** The models of a stage: at least one, names unique. */
export const modelsSchema = z.array(modelSchema).min(1, 'name at least one model').superRefine((models, ctx) => {
  const seen = new Set<string>()
  models.forEach((m, i) => {
    if (seen.has(m.name)) ctx.addIssue({ code: 'custom', message: `model name "${m.name}" is used twice; every model needs its own name (it names its predictions)`, path: [i, 'name'] })
    seen.add(m.name)
    if (m.kind === 'prior' && m.train === undefined) ctx.addIssue({ code: 'custom', message: 'the prior baseline learns from a train split: give train: <a run directory or an exported Holtercare folder>', path: [i, 'train'] })
  })
})

/** Whether `m` answers an item of this split, task and excerpt set. */
export function answers(m: ModelConfig, item: { split: string; taskType: string; excerpt: { set: string } }): boolean {
  const o = m.only
  return !o || ((!o.splits || o.splits.includes(item.split as 'train')) && (!o.tasks || o.tasks.includes(item.taskType)) && (!o.sets || o.sets.includes(item.excerpt.set)))
}

/** What of an API model's config shapes its answers: the part every cache key holds. */
export function requestConfig(m: ApiModelConfig): Record<string, unknown> {
  return { baseURL: m.baseURL.replace(/\/+$/, ''), model: m.model }
}

/** The limiter of an API model (shared by every record of the run). */
export function limiterName(m: ApiModelConfig): string {
  return `model:${m.name}`
}
