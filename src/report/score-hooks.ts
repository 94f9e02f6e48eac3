// The two metrics that need a model, plugged into `pipeline score` from outside:
//   - F1-Bio: an embedder (BERTScore with a local biomedical BERT, src/metrics/bertscore-*.ts)
//     scores (answer, reference) pairs of open and report items;
//   - ScoreGPT: an LLM judge (src/models/judge*.ts) scores report answers on the 17 criteria.
// Without a hook the metric is reported with a note saying why it is missing, never guessed.
// A hook's failure on one item is that item's `judgeError`, never a failed scoring run; the
// score is computed over the items it scored. Hooks run after the pure per-item scoring and
// before aggregation; their results are plain fields of the item scores.
// F1-Bio goes task by task: `prepare` sees the task's references (one per QA item) first, which
// is where an idf table comes from, as bert_score computes idf over the references it scores.
// Within a task the pairs are ordered by item, so the models' answers to one item share a batch
// and its reference is embedded once. The judge scores up to `concurrency` reports at once (its
// own limiter still applies).
import type { ItemScore } from './score-types.ts'
import { hasTextMetrics, taskKind } from './task-metrics.ts'

/** Scores (hypothesis, reference) pairs; returns BERTScore F1 in [0, 1] per pair, in order. */
export interface F1BioHook {
  /** bertscoreSignature(...) of its settings. */
  signature: string
  /** Called with a task's references (one per item) before its pairs are scored. */
  prepare?(references: string[], signal?: AbortSignal): Promise<void>
  score(pairs: { hyp: string; ref: string }[], signal?: AbortSignal): Promise<number[]>
}

/** Scores one report answer against its reference: the mean of the criteria, 0-100, or an error. */
export interface JudgeHook {
  /** Prompt hash, judge model and temperature. */
  signature: string
  /** Reports scored at once (default 1). */
  concurrency?: number
  score(item: { task: string; question: string; reference: string; answer: string }, signal?: AbortSignal): Promise<{ score: number } | { error: string }>
}

export interface ScoreHooks {
  f1Bio?: F1BioHook
  judge?: JudgeHook
}

/** Why a metric without its hook is not in the report. */
export const NO_F1BIO = 'unavailable: no embedding model configured (F1-Bio needs a local BERT export: pipeline score --f1-bio, docs/metrics.md)'
export const NO_JUDGE = 'not computed: no judge configured (ScoreGPT needs an LLM judge)'

// Pairs sent to the embedder at once: bounded, so memory stays flat on big runs (a report's
// token vectors are a few hundred kB with a BERT-base model).
const F1BIO_BATCH = 64

/**
 * Adds F1-Bio and ScoreGPT to the item scores the hooks can score (in place: the items are the
 * command's own), items whose answer and reference were kept; `questions` gives report items'
 * questions by QA id.
 */
export async function applyScoreHooks(items: ItemScore[], questions: ReadonlyMap<string, string>, hooks: ScoreHooks, signal?: AbortSignal): Promise<void> {
  if (hooks.f1Bio) await applyF1Bio(items, hooks.f1Bio, signal)
  if (hooks.judge) await applyJudge(items, questions, hooks.judge, signal)
}

async function applyF1Bio(items: ItemScore[], hook: F1BioHook, signal?: AbortSignal): Promise<void> {
  const byTask = new Map<string, ItemScore[]>()
  for (const i of items) {
    if (i.text === undefined || !hasTextMetrics(i.task) || i.hyp === undefined || i.ref === undefined) continue
    const list = byTask.get(i.task) ?? []
    byTask.set(i.task, list)
    list.push(i)
  }
  for (const todo of byTask.values()) {
    todo.sort((a, b) => (a.qaId < b.qaId ? -1 : a.qaId > b.qaId ? 1 : 0))
    if (hook.prepare) {
      const refs = new Map<string, string>()
      for (const i of todo) refs.set(i.qaId, i.ref!)
      await hook.prepare([...refs.values()], signal)
    }
    for (let at = 0; at < todo.length; at += F1BIO_BATCH) {
      signal?.throwIfAborted()
      const batch = todo.slice(at, at + F1BIO_BATCH)
      const f1 = await hook.score(batch.map((i) => ({ hyp: i.hyp!, ref: i.ref! })), signal)
      batch.forEach((item, k) => {
        if (Number.isFinite(f1[k])) item.f1Bio = 100 * f1[k]
      })
    }
  }
}

async function applyJudge(items: ItemScore[], questions: ReadonlyMap<string, string>, hook: JudgeHook, signal?: AbortSignal): Promise<void> {
  const todo = items.filter((i) => taskKind(i.task) === 'report' && i.text !== undefined && i.hyp !== undefined && i.ref !== undefined)
  let next = 0
  // A hook that throws (not an item's error: our disk, a bug) stops every worker, so no call is
  // sent after the scoring has failed.
  let failed = false
  const worker = async () => {
    while (next < todo.length && !failed) {
      signal?.throwIfAborted()
      const item = todo[next++]
      try {
        const r = await hook.score({ task: item.task, question: questions.get(item.qaId) ?? '', reference: item.ref!, answer: item.hyp! }, signal)
        if ('score' in r) item.scoreGpt = r.score
        else item.judgeError = r.error
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(hook.concurrency ?? 1, todo.length)) }, worker))
}
