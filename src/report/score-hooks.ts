// The two metrics that need a model, plugged into `pipeline score` from outside (issue 15):
//   - F1-Bio: an embedder (BERTScore with a local biomedical BERT, src/metrics/bertscore-*.ts)
//     scores (answer, reference) pairs of open and report items;
//   - ScoreGPT: an LLM judge (src/models/judge*.ts) scores report answers on the 17 criteria.
// Without a hook the metric is reported with a note saying why it is missing, never guessed.
// A hook's failure on one item is that item's `judgeError`, never a failed scoring run; the
// score is computed over the items it scored. Hooks run after the pure per-item scoring and
// before aggregation; their results are plain fields of the item scores.
import type { ItemScore, ScoreQa } from './score-types.ts'
import { hasTextMetrics, taskKind } from './task-metrics.ts'

/** Scores (hypothesis, reference) pairs; returns BERTScore F1 in [0, 1] per pair, in order. */
export interface F1BioHook {
  /** bertscoreSignature(...) of its settings. */
  signature: string
  score(pairs: { hyp: string; ref: string }[], signal?: AbortSignal): Promise<number[]>
}

/** Scores one report answer against its reference: the mean of the criteria, 0-100, or an error. */
export interface JudgeHook {
  /** Prompt hash, judge model and temperature. */
  signature: string
  score(item: { task: string; question: string; reference: string; answer: string }, signal?: AbortSignal): Promise<{ score: number } | { error: string }>
}

export interface ScoreHooks {
  f1Bio?: F1BioHook
  judge?: JudgeHook
}

/** Why a metric without its hook is not in the report. */
export const NO_F1BIO = 'unavailable: no embedding model configured (F1-Bio needs a local BERT export, see the README)'
export const NO_JUDGE = 'not computed: no judge configured (ScoreGPT needs an LLM judge)'

// Pairs sent to the embedder at once: bounded, so memory stays flat on big runs.
const F1BIO_BATCH = 256

/** Adds F1-Bio and ScoreGPT to the item scores the hooks can score (in place: the items are the command's own). */
export async function applyScoreHooks(items: ItemScore[], qaById: ReadonlyMap<string, ScoreQa>, hooks: ScoreHooks, signal?: AbortSignal): Promise<void> {
  if (hooks.f1Bio) {
    const todo = items.filter((i) => i.text !== undefined && hasTextMetrics(i.task))
    for (let at = 0; at < todo.length; at += F1BIO_BATCH) {
      signal?.throwIfAborted()
      const batch = todo.slice(at, at + F1BIO_BATCH)
      const f1 = await hooks.f1Bio.score(batch.map((i) => ({ hyp: i.hyp, ref: i.ref })), signal)
      batch.forEach((item, k) => {
        if (Number.isFinite(f1[k])) item.f1Bio = 100 * f1[k]
      })
    }
  }
  if (hooks.judge) {
    for (const item of items) {
      if (taskKind(item.task) !== 'report' || item.text === undefined) continue
      signal?.throwIfAborted()
      const qa = qaById.get(item.qaId)
      const r = await hooks.judge.score({ task: item.task, question: qa?.question ?? '', reference: item.ref, answer: item.hyp }, signal)
      if ('score' in r) item.scoreGpt = r.score
      else item.judgeError = r.error
    }
  }
}
