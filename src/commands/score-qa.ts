// What `pipeline score --qa <dir> --predictions <file>` reads: any Holtercare-format folder (ours
// exported, or the public release) and predictions made by another harness, one JSON line each:
//   {"task_type": "closed_presence", "index": 12, "prediction": "Yes", "model": "m", "modality": "text", "split": "valid"}
// `index` is the item's position in its task file (the public files have no item ids); `model`
// (default "model") scores several models from one file; `split` is needed only when the folder
// holds several splits; a line with an `error` instead of a prediction counts as failed. A line
// that matches no item is reported with why, never guessed; items no line answers are counted
// missing (score.ts). Gold comes from the answer text (src/report/public-gold.ts). The folder is
// read whole; the predictions file a chunk at a time, as it is scored.
import { createReadStream } from 'node:fs'
import { access } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { PipelineError } from '../core/errors.ts'
import { readHoltercareFolder } from '../holtercare/folder.ts'
import { isTaskType } from '../holtercare/format.ts'
import { publicScoreQa } from '../report/public-gold.ts'
import type { PredictionChunk, PredictionSet } from '../report/collect-scores.ts'
import type { ScoreReport } from '../report/report-types.ts'
import type { ScorePrediction, ScoreQa } from '../report/score-types.ts'

export interface QaPredictionSet {
  /** The predictions file's lines, matched to the folder's items, in chunks of CHUNK lines. */
  set: PredictionSet
  /** Lines that match no item and items whose gold could not be read: complete once the set was read. */
  problems: ScoreReport['problems']
}

const EXAMPLES = 5
// Predictions held at once: the folder's items stay in memory (they are what lines are matched
// to), the predictions file is read as it is scored.
const CHUNK = 2000

/** Reads the folder now and the predictions file as the set is read, matching lines to items by split, task and index. */
export async function qaPredictionSet(dir: string, file: string, signal?: AbortSignal): Promise<QaPredictionSet> {
  const folder = await readHoltercareFolder(dir)
  if (!folder.items.length) throw new PipelineError('E_USAGE', `${dir} holds no well-formed Holtercare item; give a folder of <split>/<tier>/<task_type>.json files (pipeline qa validate ${dir} says what is wrong)`, { file: dir })
  await access(file).catch((cause: unknown) => {
    throw new PipelineError('E_FILE_MISSING', `no predictions file ${file}; give a JSON-lines file of {task_type, index, prediction}`, { file }, { cause })
  })
  const qa = new Map<string, ScoreQa>()
  const sizes = new Map<string, number>()
  for (const f of folder.items) {
    const id = `${f.split}/${f.item.task_type}/${f.index}`
    qa.set(id, publicScoreQa(f.item, id))
    sizes.set(`${f.split}/${f.item.task_type}`, Math.max(sizes.get(`${f.split}/${f.item.task_type}`) ?? 0, f.index + 1))
  }
  const problems: ScoreReport['problems'] = []
  const noGold = [...qa.values()].filter((q) => q.gold === null)
  if (noGold.length) problems.push({ kind: 'no-gold', count: noGold.length, message: `${noGold.length} items have an answer whose gold could not be read; they are counted "no gold", not scored`, examples: noGold.slice(0, EXAMPLES).map((q) => `${q.id}: ${q.goldProblem}`) })
  async function* chunks(): AsyncGenerator<PredictionChunk> {
    const unmatched: string[] = []
    const seen = new Set<string>()
    let predictions: ScorePrediction[] = []
    let line = 0
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8', signal }), crlfDelay: Infinity })
    for await (const text of lines) {
      line++
      if (text.trim() === '') continue
      const r = matchLine(text, folder.splits, qa, sizes)
      if (typeof r === 'string') {
        unmatched.push(`line ${line}: ${r}`)
        continue
      }
      const key = `${r.qaId}\u0000${r.model}\u0000${r.modality}`
      if (seen.has(key)) unmatched.push(`line ${line}: a second prediction of ${r.model} for ${r.qaId}; the first is kept`)
      else predictions.push(r)
      seen.add(key)
      if (predictions.length >= CHUNK) {
        yield { qa, predictions }
        predictions = []
      }
    }
    yield { qa, predictions }
    if (unmatched.length) problems.unshift({ kind: 'unmatched-line', count: unmatched.length, message: `${unmatched.length} prediction lines of ${file} match no item and were not scored`, examples: unmatched.slice(0, EXAMPLES) })
  }
  return { set: { source: path.resolve(file), chunks: chunks() }, problems }
}

// A line as a prediction, or why it matches no item.
function matchLine(text: string, splits: readonly string[], qa: ReadonlyMap<string, ScoreQa>, sizes: ReadonlyMap<string, number>): ScorePrediction | string {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return `not JSON: ${JSON.stringify(text.slice(0, 60))}`
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object {task_type, index, prediction}'
  const o = v as Record<string, unknown>
  if (typeof o.task_type !== 'string' || !isTaskType(o.task_type)) return `task_type ${JSON.stringify(o.task_type)} is not one of the 12 task types`
  if (!Number.isInteger(o.index) || (o.index as number) < 0) return `index ${JSON.stringify(o.index)} is not a position (an integer from 0)`
  let split = o.split
  if (split === undefined) {
    if (splits.length > 1) return `the folder holds the splits ${splits.join(', ')}: add "split" to the line`
    split = splits[0]
  }
  if (typeof split !== 'string' || !splits.includes(split)) return `split ${JSON.stringify(split)} is not in the folder (${splits.join(', ')})`
  const id = `${split}/${o.task_type}/${o.index}`
  if (!qa.has(id)) return `no item ${o.index} in ${split}/${o.task_type} (it has ${sizes.get(`${split}/${o.task_type}`) ?? 0} items, from 0)`
  const model = o.model ?? 'model'
  const modality = o.modality ?? 'unspecified'
  if (typeof model !== 'string' || model === '' || typeof modality !== 'string') return '"model" and "modality" must be non-empty strings'
  if (o.error !== undefined && o.error !== null) return { qaId: id, model, modality, answer: '', error: { code: 'error', message: String(typeof o.error === 'object' ? JSON.stringify(o.error) : o.error) } }
  if (typeof o.prediction !== 'string') return `"prediction" must be a string (the model's answer), found ${JSON.stringify(o.prediction)?.slice(0, 40)}`
  return { qaId: id, model, modality, answer: o.prediction }
}
