// One short call to an API model, to tell before a run whether its server answers, accepts the
// key and knows the model: a one-word prompt with an answer of at most a few tokens, no retries.
import { createLimiter } from '../run/limiter.ts'
import { readSecret } from '../run/secrets.ts'
import { chatBody } from './chat-request.ts'
import type { ApiModelConfig } from './model-config.ts'
import { CallFailed, createChatCaller } from './openai-adapter.ts'

export interface ProbeResult {
  ok: boolean
  message: string
}

/** Calls `m` once and says what happened in words a user can act on. */
export async function probeModel(m: ApiModelConfig, signal: AbortSignal, env: NodeJS.ProcessEnv = process.env): Promise<ProbeResult> {
  let key = null
  if (m.apiKeyEnv) {
    try {
      key = readSecret(m.apiKeyEnv, env)
    } catch (err) {
      return { ok: false, message: (err as Error).message }
    }
  }
  const call = createChatCaller({ ...m, retries: 0 }, key, createLimiter({ concurrency: 1 }))
  // The model's own settings and body fields (a model may accept only its default temperature, or max_completion_tokens), with a short answer.
  const body = chatBody(m, [{ role: 'user', content: 'Reply with the single word OK.' }], 16)
  try {
    const r = await call(body, { signal, cost: 0 })
    return { ok: true, message: `${m.baseURL} answered as ${m.model} in ${r.latencyMs} ms${r.usage ? ` (${r.usage.inputTokens} tokens in, ${r.usage.outputTokens} out)` : ''}` }
  } catch (err) {
    if (!(err instanceof CallFailed)) throw err
    const f = err.failure
    // Reachable, key and model accepted: a reasoning model may spend the few tokens allowed before any text.
    if (f.kind === 'empty') return { ok: true, message: `${m.baseURL} answered as ${m.model}, without text in the few tokens the check allows (${f.message})` }
    const why = f.status === 401 || f.status === 403 ? `the key in ${m.apiKeyEnv ?? '(none: set apiKeyEnv)'} was refused`
      : f.status === 404 ? `the server does not know model "${m.model}" (or ${m.baseURL} is not the API root, which usually ends in /v1)`
      : f.kind === 'connection' || f.kind === 'timeout' ? `${m.baseURL} cannot be reached; is the server running?`
      : 'the call failed'
    return { ok: false, message: `${why}: ${f.message}` }
  }
}
