// Model-written answers for the free-text tasks (optional): the qa stage may ask an
// OpenAI-compatible model to write an item's answer from the facts it computed (the template
// answer, which states them all, and for reports the figures), as JSON. The reply replaces the
// template only when it passes checkWrittenAnswer (no number changed, no finding added or
// dropped, the yes/no kept); otherwise the template stays and the item says why. Calls are
// cached by their exact request (cached-call.ts) and limited like the infer stage's; a failure
// is the item's note, so nothing stops the writer.
import type { QaItem } from '../core/items.ts'
import { hashConfig } from '../run/config-hash.ts'
import type { StageContext } from '../core/stage.ts'
import { checkWrittenAnswer } from '../qa/written-answer-check.ts'
import type { VocabularyEvent } from '../qa/vocabulary.ts'
import { cachedCall } from './cached-call.ts'
import { chatBody } from './chat-request.ts'
import { limiterName, requestConfig, type ApiModelConfig } from './model-config.ts'
import { createChatCaller } from './openai-adapter.ts'

export const WRITER_PROMPT_VERSION = 'hp-writer-1'

const SYSTEM = 'You write reference answers for a benchmark of questions about Holter ECG excerpts. You are given a question, the facts measured on the excerpt, and a plain draft answer that states them. Rewrite the draft as a cardiologist would write it: clear, concise clinical prose. Use only the facts given: do not add, drop or change any number, finding or diagnosis; keep every finding the draft names; write numbers as digits exactly as they appear in the facts or the draft; if the draft starts with Yes or No, start with the same word. Reply with a JSON object {"answer": "<your text>"} and nothing else.'

/** How the written answer came about (on the item as `written`; `template` is the answer an accepted one replaced). */
export type WrittenNote = NonNullable<QaItem['written']>

export type AnswerWriter = (item: QaItem) => Promise<QaItem>

/** A writer using `model` for the record of `ctx`. */
export async function createAnswerWriter(model: ApiModelConfig, vocab: readonly VocabularyEvent[], ctx: StageContext<unknown>): Promise<AnswerWriter> {
  const limiter = ctx.run.limiter(limiterName(model), { concurrency: model.concurrency, rpm: model.rpm, tpm: model.tpm })
  const call = await ctx.run.once(`model-caller:${hashConfig(model)}`, async () => createChatCaller(model, model.apiKeyEnv ? ctx.run.secret(model.apiKeyEnv) : null, limiter))
  const cache = ctx.run.cache('models')
  return async (item) => {
    const facts = { question: item.question, draft: item.answer, ...(item.gold.figures ? { figures: item.gold.figures } : {}), ...(item.gold.event ? { event: item.gold.event, present: item.gold.value } : {}) }
    const body = chatBody(model, [{ role: 'system', content: SYSTEM }, { role: 'user', content: JSON.stringify(facts) }])
    const key = cache.key({ prompts: WRITER_PROMPT_VERSION, server: requestConfig(model), body })
    const r = await cachedCall({ cache, key, send: (hooks) => call(body, { signal: ctx.signal, cost: model.maxTokens + 1000, ...hooks }) })
    if (r.status === 'cached' && r.kept.noText) return { ...item, written: note(model, 'failed', 'the reply (cached) held no text') }
    // Failed, or answered without text now (stored all the same).
    if (r.status === 'failed' || r.status === 'empty') return { ...item, written: note(model, 'failed', r.failure.failure.message) }
    const raw = r.kept.answer
    const verdict = checkWrittenAnswer(raw, item.answer, facts, vocab)
    if (!verdict.ok) return { ...item, written: note(model, 'rejected', verdict.reason) }
    return { ...item, answer: verdict.answer, written: { by: model.name, status: 'accepted', template: item.answer } }
  }
}

function note(model: ApiModelConfig, status: WrittenNote['status'], reason: string): WrittenNote {
  return { by: model.name, status, reason: `${reason}; the template answer is kept` }
}
