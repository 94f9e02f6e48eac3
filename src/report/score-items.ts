// The per-item scores of `pipeline score` ("Metrics"), by task type (task-metrics.ts):
//   closed tasks        the option read by parseChoice against the question's inline options
//                       (gold.choices when the item has them), or yes/no by parseYesNo for a
//                       presence item without options; right or wrong against gold.correct / value;
//   open counting, HR   the number read (count, or a timestamp in ms): |error| against gold.value;
//   open event timing   the list of times: one-to-one matches within the tolerance (150 ms);
//   open diagnosis      the labels asserted (vocabulary names): set matches against gold.labels;
//   open evidence       yes/no against gold.value;
//   multi-task tasks    a number (|error| against gold.value) or a class id (right or wrong, and
//                       the binary counts of the positive class), read as that benchmark reads them;
//   open and reports    BLEU-1/4 (sentence, effective order), ROUGE-L F against the item's answer.
// A prediction with an error is `failed` and a missing gold is `no-gold`: counted, never scored.
// F1-Bio and ScoreGPT need a model; hooks add them later (score-hooks.ts). Pure.
import { parseChoice, parseLabels, parseNumberAnswer, parseTimestampList, parseYesNo, isUnparsed, type Unparsed } from '../metrics/answer-parse.ts'
import { bleuFromStats, sentenceBleu } from '../metrics/bleu.ts'
import { labelSetF1 } from '../metrics/label-f1.ts'
import { rougeL, type RougeOptions } from '../metrics/rouge-l.ts'
import { timestampF1 } from '../metrics/timestamp-f1.ts'
import { LETTERS, splitOptions } from '../holtercare/format.ts'
import { multitaskTask, parseMultitaskValue } from '../metrics/multitask.ts'
import type { ItemScore, ScorePrediction, ScoreQa, TextScores } from './score-types.ts'
import { hasTextMetrics, taskKind } from './task-metrics.ts'

export interface ScoreItemOptions {
  /** The names parseLabels looks for (the QA stage's vocabulary). */
  vocabulary: readonly string[]
  /** Timestamp F1 tolerance in ms (default 150). */
  toleranceMs?: number
  rouge?: RougeOptions
}

// A question asking for the option that is absent, read in its stem's last sentence (the
// patient sentence may say "not recorded"); the same rule as the holter-dsp baseline's.
const ASKS_ABSENT = /\b(absent|not present|not seen|not shown|does not show|doesn't show|NOT)\b/

type Part = Partial<Pick<ItemScore, 'status' | 'reason' | 'read' | 'correct' | 'absError' | 'counts'>>

/** The scores of one model's prediction for one QA item. */
export function scoreItem(qa: ScoreQa, p: ScorePrediction, opts: ScoreItemOptions): ItemScore {
  const base = { qaId: qa.id, caseId: qa.caseId, task: qa.taskType, model: p.model, ...(p.modelId ? { modelId: p.modelId } : {}), modality: p.modality, hyp: p.answer, ref: qa.answer }
  if (p.error) return { ...base, status: 'failed', reason: p.error.code }
  const text = hasTextMetrics(qa.taskType) ? textScores(p.answer, qa.answer, opts.rouge) : undefined
  const withText = (part: Part): ItemScore => ({ ...base, status: 'scored', ...part, ...(text ? { text } : {}) })
  if (taskKind(qa.taskType) === 'report') return withText({})
  if (!qa.gold) return withText({ status: 'no-gold', reason: qa.goldProblem ?? 'no gold' })
  return withText(scoreAnswer(qa, p.answer, opts))
}

/** An item without a prediction from a model that answered others of its run. */
export function missingItem(qa: Pick<ScoreQa, 'id' | 'caseId' | 'taskType'>, model: string, modality: string): ItemScore {
  return { qaId: qa.id, caseId: qa.caseId, task: qa.taskType, model, modality, status: 'missing', reason: 'no prediction' }
}

/** Sentence BLEU-1, BLEU-4 and ROUGE-L F of an answer against the reference, 0-100, with BLEU's statistics. */
export function textScores(hyp: string, ref: string, rouge: RougeOptions = {}): TextScores {
  // One tokenization for both orders: BLEU-1's statistics are BLEU-4's first order.
  const b4 = sentenceBleu(hyp, ref, { maxOrder: 4 })
  const stats = { counts: b4.counts, totals: b4.totals, sysLen: b4.sysLen, refLen: b4.refLen }
  return {
    bleu1: bleuFromStats(stats, { maxOrder: 1, effectiveOrder: true }).score,
    bleu4: b4.score,
    rougeL: 100 * rougeL(hyp, ref, rouge).f,
    stats,
  }
}

function scoreAnswer(qa: ScoreQa, answer: string, opts: ScoreItemOptions): Part {
  const gold = qa.gold!
  const missingGold = (what: string): Part => ({ status: 'no-gold', reason: `gold has no ${what}` })
  switch (taskKind(qa.taskType)) {
    case 'choice': {
      const split = splitOptions(qa.question)
      const options = gold.choices ?? split?.options.map((o) => o.text)
      if (!options) return yesNo(answer, gold.value, gold.event)
      if (gold.correct === undefined) return missingGold('correct option')
      const stem = split ? split.stem : qa.question
      const ask = ASKS_ABSENT.test(stem.trim().split(/(?<=[.?!])\s+/).at(-1) ?? '') ? 'absent' : 'present'
      const r = parseChoice(answer, options, { ask })
      if (isUnparsed(r)) return unparsedPart(r, { correct: false })
      return { read: LETTERS[r.index], correct: r.index === gold.correct }
    }
    case 'count':
    case 'timestamp': {
      if (typeof gold.value !== 'number') return missingGold('number')
      const r = parseNumberAnswer(answer, { kind: taskKind(qa.taskType) as 'count' | 'timestamp' })
      if (isUnparsed(r)) return unparsedPart(r, {})
      return { read: String(r.value), absError: Math.abs(r.value - gold.value) }
    }
    case 'timestamps': {
      if (!gold.timestampsMs) return missingGold('timestampsMs')
      const r = parseTimestampList(answer)
      const f = timestampF1(isUnparsed(r) ? [] : r.values, gold.timestampsMs, { toleranceMs: opts.toleranceMs })
      const counts = { tp: f.tp, fp: f.fp, fn: f.fn }
      return isUnparsed(r) ? unparsedPart(r, { counts }) : { read: r.values.join(', '), counts }
    }
    case 'labels': {
      if (!gold.labels) return missingGold('labels')
      const r = parseLabels(answer, opts.vocabulary)
      const f = labelSetF1(isUnparsed(r) ? [] : r.labels, gold.labels)
      const counts = { tp: f.tp, fp: f.fp, fn: f.fn }
      return isUnparsed(r) ? unparsedPart(r, { counts }) : { read: r.labels.join(', ') || 'none', counts }
    }
    case 'yesno':
      return yesNo(answer, gold.value, gold.event)
    case 'number':
    case 'class':
      return multitaskPart(qa.taskType, answer, gold.value)
    default:
      return { status: 'no-gold', reason: `unknown task type ${qa.taskType}` }
  }
}

// The ECG multi-task benchmark's tasks, read as that benchmark reads them (src/metrics/multitask.ts):
// a number, or a class; binary F1 counts the positive class 1, and an unread class is the wrong one.
function multitaskPart(task: string, answer: string, gold: unknown): Part {
  const t = multitaskTask(task)
  const g = t === null ? null : parseMultitaskValue(t, gold)
  if (t === null || g === null) return { status: 'no-gold', reason: 'gold has no value of the task' }
  const p = parseMultitaskValue(t, answer)
  if (taskKind(task) === 'number') return p === null ? { status: 'unparsed', reason: 'no-number' } : { read: String(p), absError: Math.abs(p - g) }
  const said = p ?? (g === 1 ? 0 : 1)
  const counts = { tp: said === 1 && g === 1 ? 1 : 0, fp: said === 1 && g !== 1 ? 1 : 0, fn: said !== 1 && g === 1 ? 1 : 0 }
  const part: Part = { correct: p === g, counts }
  return p === null ? { ...part, status: 'unparsed', reason: 'no-class' } : { ...part, read: String(p) }
}

function yesNo(answer: string, gold: unknown, event: string | undefined): Part {
  if (gold !== 'yes' && gold !== 'no') return { status: 'no-gold', reason: 'gold has no yes/no value' }
  const r = parseYesNo(answer, event ? { event } : {})
  if (isUnparsed(r)) return unparsedPart(r, { correct: false })
  return { read: r, correct: r === gold }
}

function unparsedPart(r: Unparsed, part: Part): Part {
  return { ...part, status: 'unparsed', reason: r.detail ? `${r.unparsed}: ${r.detail}` : r.unparsed }
}
