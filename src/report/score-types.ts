// What `pipeline score` reads and what it scores per item ("pipeline score"): a QA item
// and one model's prediction, reduced to the fields scoring needs, whether they come from a run
// (QaItem, PredictionItem) or from a public Holtercare folder and a predictions file
// (public-gold.ts); and the per-item result of score-items.ts that aggregate.ts sums up.
import type { QaGold } from '../core/items.ts'
import type { BleuStats } from '../metrics/bleu.ts'

/** A QA item as scoring reads it. */
export interface ScoreQa {
  id: string
  /** Bootstrap intervals resample cases: the items of one case are not independent. */
  caseId: string
  taskType: string
  question: string
  /** The item's answer text: the reference of the text metrics and the gold shown in samples. */
  answer: string
  /** The structured gold; null when none could be derived (a public answer that does not parse). */
  gold: Omit<QaGold, 'evidenceBeats'> | null
  /** Why `gold` is null, for the report. */
  goldProblem?: string
  /** Absolute path of the item's first image input, if any (report samples). */
  image?: string
}

/** One model's answer to one item, as scoring reads it. */
export interface ScorePrediction {
  qaId: string
  model: string
  /** The API model's id (PredictionItem.modelId), when it has one. */
  modelId?: string
  modality: string
  answer: string
  /** The call failed (or was skipped over budget): the item counts as `failed`, never dropped. */
  error?: { code: string; message: string }
}

/**
 * How an item counts: `scored` (its metric was computed), `unparsed` (the answer could not be
 * read: wrong for accuracy, nothing predicted for F1, left out of MAE), `failed` (the prediction
 * is an error), `missing` (no prediction from this model for an item of its run), `no-gold`.
 * `failed`, `missing` and `no-gold` items are counted beside the metrics, not in them.
 */
export type ItemStatus = 'scored' | 'unparsed' | 'failed' | 'missing' | 'no-gold'

/** Sentence-level text metrics of one answer against the item's answer, 0-100. */
export interface TextScores {
  bleu1: number
  bleu4: number
  rougeL: number
  /** BLEU-4's sufficient statistics (BLEU-1's are their first order): corpus BLEU sums them. */
  stats: BleuStats
}

/** The scores of one (item, model, modality). */
export interface ItemScore {
  qaId: string
  caseId: string
  task: string
  model: string
  /** The API model's id, when the prediction has one. */
  modelId?: string
  modality: string
  status: ItemStatus
  /** Why it was unparsed, failed or has no gold. */
  reason?: string
  /** What was read from the answer (a letter, yes/no, a number, a list), for samples. */
  read?: string
  /** Closed tasks and open_evidence_reasoning: right or wrong (an unparsed answer is wrong). */
  correct?: boolean
  /** Numeric open tasks: |predicted - gold| of a parsed answer. */
  absError?: number
  /** Timestamp and label F1: matched, extra and missed (an unparsed answer predicts nothing). */
  counts?: { tp: number; fp: number; fn: number }
  /** Open and report tasks: BLEU-1/4 (sentence, effective order) and ROUGE-L F, 0-100. */
  text?: TextScores
  /** F1-Bio (0-100), set by an embedder hook (score-hooks.ts). */
  f1Bio?: number
  /** ScoreGPT (0-100), set by a judge hook; `judgeError` when the judge failed on this item. */
  scoreGpt?: number
  judgeError?: string
  /** The model's answer and the item's answer, kept only while a hook (F1-Bio, the judge) needs them. */
  hyp?: string
  ref?: string
}
