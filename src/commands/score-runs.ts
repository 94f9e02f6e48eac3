// What `pipeline score <runDir...>` reads of a run: its committed predictions and the QA items
// they answer, record by record through src/run/input-run.ts (so a run still going is read as
// far as it has finished), one record in memory at a time. A run over a run (an evaluation with
// `input: {run, kinds: [qa]}`) may not hold the items itself: they are then read from the same
// record of its manifest's input.run, which may also be a folder `pipeline qa export` wrote.
// Items are in the reduced form scoring needs (ScoreQa), their first image made absolute for
// the report's samples.
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { PredictionItem, QaItem } from '../core/items.ts'
import { openInputRun, type InputRun } from '../run/input-run.ts'
import type { PredictionChunk, PredictionSet } from '../report/collect-scores.ts'
import type { ScorePrediction, ScoreQa } from '../report/score-types.ts'

/**
 * A run's predictions as a set of chunks, one per finished record: the record's predictions and
 * the QA items they answer (the record's own, or its input run's record of the same id). Opened
 * and checked now; read as the chunks are taken.
 */
export async function runPredictionSet(dir: string, signal?: AbortSignal): Promise<PredictionSet> {
  const run = await openInputRun(path.resolve(dir))
  if (run.kinds && !run.kinds.includes('prediction')) {
    throw new PipelineError('E_USAGE', `${dir} is an exported QA folder: it holds questions, not predictions; score the run whose infer stage answered them, or use --qa ${dir} --predictions <file>`, { file: run.dir })
  }
  // The checkpoints' counts say now, before anything is scored, whether it holds predictions.
  if (run.records.length && !run.records.some((r) => (r.counts?.prediction ?? 0) > 0)) {
    throw new PipelineError('E_USAGE', `${dir} has no committed prediction items; score a run whose stages end with infer (pipelines/bench-mitdb.yaml), after it has finished a record`, { file: run.dir })
  }
  const inputDir = run.manifest.input?.run
  let input: Promise<InputRun> | undefined
  async function* chunks(): AsyncGenerator<PredictionChunk> {
    let count = 0
    for (const record of run.records) {
      const qa = new Map<string, ScoreQa>()
      const predictions: ScorePrediction[] = []
      for await (const it of run.items(record, new Set(['qa', 'prediction']), run.dir, signal)) {
        if (it.kind === 'qa') qa.set((it as QaItem).id, toScoreQa(it as QaItem, run.dir))
        else if (it.kind === 'prediction') predictions.push(toScorePrediction(it as PredictionItem))
      }
      // Every finished record's items, answered or not: an item no model of this run took is
      // counted missing for the run's systems, whichever record it is in.
      if (inputDir) {
        input ??= openInputRun(path.resolve(run.dir, inputDir))
        await readInputQa(await input, record.spec.id, qa, signal)
      }
      count += predictions.length
      yield { qa, predictions }
    }
    if (count === 0) {
      throw new PipelineError('E_USAGE', `${dir} has no committed prediction items; score a run whose stages end with infer (pipelines/bench-mitdb.yaml), after it has finished a record`, { file: run.dir })
    }
  }
  return { source: run.dir, chunks: chunks() }
}

// The QA items of the input run's record `recordId` (an exported folder holds qa only).
async function readInputQa(input: InputRun, recordId: string, into: Map<string, ScoreQa>, signal?: AbortSignal): Promise<void> {
  const record = input.records.find((r) => r.spec.id === recordId)
  if (!record) return
  for await (const it of input.items(record, new Set(['qa']), input.dir, signal)) {
    if (it.kind === 'qa' && !into.has((it as QaItem).id)) into.set((it as QaItem).id, toScoreQa(it as QaItem, input.dir))
  }
}

/** A run's QA item as scoring reads it; its paths are relative to `runDir`. */
export function toScoreQa(q: QaItem, runDir: string): ScoreQa {
  const image = q.inputs?.images?.paths[0]
  return {
    id: q.id, caseId: q.caseId, taskType: q.taskType, question: q.question, answer: q.answer, gold: q.gold,
    ...(image ? { image: path.resolve(runDir, image) } : {}),
  }
}

/** A prediction item as scoring reads it. */
export function toScorePrediction(p: PredictionItem): ScorePrediction {
  return { qaId: p.qaId, model: p.model, ...(p.modelId ? { modelId: p.modelId } : {}), modality: p.modality, answer: p.answer, ...(p.error ? { error: { code: p.error.code, message: p.error.message } } : {}) }
}
