// Per-item scores of everything `pipeline score` read (score.ts): each set of predictions (a run,
// or a predictions file) against the QA items it answers. A system (model x modality) found in
// several sets is scored once per item: a second prediction for the same item is reported and
// left out. Every item of a set's QA that a system of that set did not answer is `missing`
// (counted beside the metrics, and listed in problems with examples). Pure.
import type { ScoreReport } from './report-types.ts'
import { missingItem, scoreItem, type ScoreItemOptions } from './score-items.ts'
import type { ItemScore, ScorePrediction, ScoreQa } from './score-types.ts'

/** One source of predictions and the QA items it answers. */
export interface PredictionSet {
  /** A run directory, or the predictions file. */
  source: string
  qa: ReadonlyMap<string, ScoreQa>
  predictions: readonly ScorePrediction[]
}

export interface CollectedScores {
  items: ItemScore[]
  qa: Map<string, ScoreQa>
  /** Sources per system, keyed `model\u0000modality` (aggregate.ts). */
  systemSources: Map<string, string[]>
  problems: ScoreReport['problems']
}

const EXAMPLES = 5

/** Scores every prediction of every set and marks the items each system left unanswered. */
export function collectScores(sets: readonly PredictionSet[], opts: ScoreItemOptions): CollectedScores {
  const items: ItemScore[] = []
  const qa = new Map<string, ScoreQa>()
  const systemSources = new Map<string, string[]>()
  const universe = new Map<string, Set<string>>()
  const answered = new Set<string>()
  const duplicates: string[] = []
  const orphans: string[] = []
  for (const set of sets) {
    for (const [id, q] of set.qa) if (!qa.has(id)) qa.set(id, q)
    for (const p of set.predictions) {
      const sys = `${p.model}\u0000${p.modality}`
      const sources = systemSources.get(sys) ?? []
      if (!sources.includes(set.source)) systemSources.set(sys, [...sources, set.source])
      const ids = universe.get(sys) ?? new Set<string>()
      universe.set(sys, ids)
      if (!sources.includes(set.source)) for (const id of set.qa.keys()) ids.add(id)
      const q = set.qa.get(p.qaId)
      if (!q) {
        orphans.push(`${p.qaId}@${p.model} (${set.source})`)
        continue
      }
      const key = `${p.qaId}\u0000${sys}`
      if (answered.has(key)) {
        duplicates.push(`${p.qaId}@${p.model} (${p.modality}) again in ${set.source}`)
        continue
      }
      answered.add(key)
      items.push(scoreItem(q, p, opts))
    }
  }
  const problems: ScoreReport['problems'] = []
  for (const [sys, ids] of universe) {
    const [model, modality] = sys.split('\u0000')
    const missing = [...ids].filter((id) => !answered.has(`${id}\u0000${sys}`))
    for (const id of missing) items.push(missingItem(qa.get(id)!, model, modality))
    if (missing.length) problems.push({ kind: 'no-prediction', count: missing.length, message: `${model} (${modality}) has no prediction for ${missing.length} items; they are counted missing`, examples: missing.slice(0, EXAMPLES) })
  }
  if (orphans.length) problems.push({ kind: 'unknown-item', count: orphans.length, message: `${orphans.length} predictions answer QA items that were not found (neither in their run nor in its input run); they are not scored`, examples: orphans.slice(0, EXAMPLES) })
  if (duplicates.length) problems.push({ kind: 'duplicate-prediction', count: duplicates.length, message: `${duplicates.length} predictions repeat a system's answer to an item already scored from another source; the first is kept`, examples: duplicates.slice(0, EXAMPLES) })
  return { items, qa, systemSources, problems }
}
