// Per-item scores of everything `pipeline score` read (score.ts): each set of predictions (a run,
// or a predictions file) against the QA items it answers, read chunk by chunk (a run record by
// record). Each item score goes into the report's running sums (score-sums.ts) and is dropped,
// so memory does not grow with the texts or the metrics: what grows is a few dozen bytes per
// prediction (which items each system answered, and each closed item's right or wrong). Items
// scored by text are kept, with their answer and reference, only when a hook still needs them
// (`keepText`, for F1-Bio and the judge): they are `pending`, added to the sums after the hooks.
// The texts of the report's sample items are kept by the sample chooser (samples.ts) as they
// stream past.
// A system (model x modality) found in several sets is scored once per item: a second prediction
// for the same item is reported and left out. Every item of a set's QA that a system of that set
// did not answer is `missing` (counted beside the metrics, and listed in problems with examples).
import type { ScoreReport } from './report-types.ts'
import { createSampleChooser, type SampleCandidate } from './samples.ts'
import { addItem, createScoreSums, noteItem, type ScoreSums } from './score-sums.ts'
import { missingItem, scoreItem, type ScoreItemOptions } from './score-items.ts'
import type { ItemScore, ScorePrediction, ScoreQa } from './score-types.ts'
import { hasTextMetrics, taskKind } from './task-metrics.ts'

/** Predictions and the QA items they answer (a run's record); every QA item of a chunk belongs to its set. */
export interface PredictionChunk {
  qa: ReadonlyMap<string, ScoreQa>
  predictions: readonly ScorePrediction[]
}

/** One source of predictions, read in chunks. */
export interface PredictionSet {
  /** A run directory, or the predictions file. */
  source: string
  chunks: AsyncIterable<PredictionChunk> | Iterable<PredictionChunk>
}

export interface CollectOptions extends ScoreItemOptions {
  /** The task types whose items keep their answer and reference for a hook (F1-Bio: open and report tasks; the judge: report tasks). */
  keepText?: (taskType: string) => boolean
  /** Sample items per task and their seed (default 3, seed 1). */
  samples?: { perTask: number; seed: number }
  signal?: AbortSignal
}

export interface CollectedScores {
  /** The sums of every item but the pending ones. */
  sums: ScoreSums
  /** Items kept for the hooks (with `keepText`): add them to `sums` once scored. */
  pending: ItemScore[]
  /** The questions of report items, by QA id, when texts are kept (the judge reads them). */
  questions: Map<string, string>
  /** The chosen sample items, every system's answer attached. */
  samples: SampleCandidate[]
  /** Sources per system, keyed `model\u0000modality` (aggregate.ts). */
  systemSources: Map<string, string[]>
  problems: ScoreReport['problems']
}

const EXAMPLES = 5

/** Scores every prediction of every set and marks the items each system left unanswered. */
export async function collectScores(sets: readonly PredictionSet[], opts: CollectOptions): Promise<CollectedScores> {
  const sums = createScoreSums()
  const pending: ItemScore[] = []
  const questions = new Map<string, string>()
  const samples = createSampleChooser(opts.samples ?? { perTask: 3, seed: 1 })
  const known = new Map<string, { caseId: string; taskType: string }>()
  const systemSources = new Map<string, string[]>()
  const universe = new Map<string, Set<string>>()
  // Per system, the items it answered (the QA items' own id strings, shared by every system).
  const answered = new Map<string, Set<string>>()
  // Counted, with the first few as examples: a run of duplicates must not grow memory per line.
  const duplicates = { count: 0, examples: [] as string[] }
  const orphans = { count: 0, examples: [] as string[] }
  const note = (list: { count: number; examples: string[] }, example: string) => {
    list.count++
    if (list.examples.length < EXAMPLES) list.examples.push(example)
  }
  for (const set of sets) {
    const ids = new Set<string>()
    const systems = new Set<string>()
    for await (const chunk of set.chunks) {
      opts.signal?.throwIfAborted()
      for (const [id, q] of chunk.qa) {
        ids.add(id)
        if (!known.has(id)) known.set(id, { caseId: q.caseId, taskType: q.taskType })
      }
      for (const p of chunk.predictions) {
        const sys = `${p.model}\u0000${p.modality}`
        systems.add(sys)
        const q = chunk.qa.get(p.qaId)
        if (!q) {
          note(orphans, `${p.qaId}@${p.model} (${set.source})`)
          continue
        }
        let done = answered.get(sys)
        if (!done) answered.set(sys, (done = new Set()))
        if (done.has(q.id)) {
          note(duplicates, `${p.qaId}@${p.model} (${p.modality}) again in ${set.source}`)
          continue
        }
        done.add(q.id)
        const item = scoreItem(q, p, opts)
        samples.offer(q, item, p.answer)
        if (opts.keepText && hasTextMetrics(q.taskType) && opts.keepText(q.taskType)) {
          if (taskKind(q.taskType) === 'report') questions.set(q.id, q.question)
          // Held back, but its system keeps the place where it was first read.
          noteItem(sums, item)
          pending.push(item)
          continue
        }
        delete item.hyp
        delete item.ref
        addItem(sums, item)
      }
    }
    for (const sys of systems) {
      const sources = systemSources.get(sys) ?? []
      if (!sources.includes(set.source)) systemSources.set(sys, [...sources, set.source])
      const all = universe.get(sys) ?? new Set<string>()
      universe.set(sys, all)
      for (const id of ids) all.add(id)
    }
  }
  const problems: ScoreReport['problems'] = []
  for (const [sys, ids] of universe) {
    const [model, modality] = sys.split('\u0000')
    const done = answered.get(sys) ?? new Set<string>()
    const missing = [...ids].filter((id) => !done.has(id))
    for (const id of missing) {
      const item = missingItem({ id, ...known.get(id)! }, model, modality)
      samples.offerMissing(item)
      addItem(sums, item)
    }
    if (missing.length) problems.push({ kind: 'no-prediction', count: missing.length, message: `${model} (${modality}) has no prediction for ${missing.length} items; they are counted missing`, examples: missing.slice(0, EXAMPLES) })
  }
  if (orphans.count) problems.push({ kind: 'unknown-item', count: orphans.count, message: `${orphans.count} predictions answer QA items that were not found (neither in their run nor in its input run); they are not scored`, examples: orphans.examples })
  if (duplicates.count) problems.push({ kind: 'duplicate-prediction', count: duplicates.count, message: `${duplicates.count} predictions repeat a system's answer to an item already scored from another source; the first is kept`, examples: duplicates.examples })
  return { sums, pending, questions, samples: samples.chosen(), systemSources, problems }
}
