// The items a report shows in full ("per task, a sample of items ... so a person can
// see why a model failed"): per task a seeded choice of items that some system answered, each
// with its question, the gold answer, its first image input and every system's answer with its
// per-item score in words. The same seed gives the same items on every machine. Pure.
import { createSeededRandom } from '../excerpts/seeded-random.ts'
import type { ReportSample } from './report-types.ts'
import type { ItemScore, ScoreQa } from './score-types.ts'

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1))

/** An item's score in a few words ("right (B)", "|error| 3 (read 5)", "F1 67 (tp 1, fp 0, fn 1)"...). */
export function scoreText(i: ItemScore): string {
  switch (i.status) {
    case 'failed': return `failed (${i.reason ?? 'error'})`
    case 'missing': return 'no prediction'
    case 'no-gold': return `no gold (${i.reason ?? 'none'})`
    default: break
  }
  const parts: string[] = []
  if (i.status === 'unparsed') parts.push(`unparsed (${i.reason ?? 'no answer'})`)
  if (i.correct !== undefined && i.status === 'scored') parts.push(`${i.correct ? 'right' : 'wrong'}${i.read ? ` (${i.read})` : ''}`)
  if (i.absError !== undefined) parts.push(`|error| ${fmt(i.absError)} (read ${i.read})`)
  if (i.counts) {
    const { tp, fp, fn } = i.counts
    const f1 = tp + fp + fn === 0 ? 100 : (200 * tp) / (2 * tp + fp + fn)
    parts.push(`F1 ${fmt(f1)} (tp ${tp}, fp ${fp}, fn ${fn})`)
  }
  if (i.text) parts.push(`BLEU-4 ${fmt(i.text.bleu4)}, ROUGE-L ${fmt(i.text.rougeL)}`)
  if (i.f1Bio !== undefined) parts.push(`F1-Bio ${fmt(i.f1Bio)}`)
  if (i.scoreGpt !== undefined) parts.push(`ScoreGPT ${fmt(i.scoreGpt)}`)
  if (i.judgeError) parts.push(`judge failed (${i.judgeError})`)
  return parts.join('; ') || 'scored'
}

/** A chosen item: its question and gold, and each system's item score with its answer. */
export interface SampleCandidate extends Omit<ReportSample, 'answers'> {
  answers: { item: ItemScore; answer: string }[]
  /** Where to place the item: its position among the items offered, and its seeded rank in its task. */
  order: number
  rank: number
}

export interface SampleChooser {
  /** An item a system answered (failed and unparsed ones too), with the answer's text. */
  offer(qa: ScoreQa, item: ItemScore, answer: string): void
  /** An item a system did not answer: shown beside the others when the item is chosen. */
  offerMissing(item: ItemScore): void
  /** The chosen items, by task in order of first offer. */
  chosen(): SampleCandidate[]
}

/**
 * Up to `perTask` items per task that some system answered: the ones whose seeded rank (a hash of
 * seed, task and item id) is lowest. The choice depends on the items present, not on the order
 * they are read in, and needs only the chosen items' texts at any time: an item whose rank is
 * above the k lowest seen is dropped and never comes back, since ranks only get lower.
 */
export function createSampleChooser(opts: { perTask: number; seed: number }): SampleChooser {
  const byTask = new Map<string, SampleCandidate[]>()
  const byId = new Map<string, SampleCandidate>()
  let order = 0
  return {
    offer(qa, item, answer) {
      if (opts.perTask <= 0) return
      const have = byId.get(qa.id)
      if (have) {
        have.answers.push({ item, answer })
        return
      }
      const rank = createSeededRandom(`${opts.seed}:samples:${qa.taskType}:${qa.id}`).next()
      const list = byTask.get(qa.taskType) ?? []
      byTask.set(qa.taskType, list)
      if (list.length >= opts.perTask && rank >= list[list.length - 1].rank) return
      const c: SampleCandidate = {
        task: qa.taskType, qaId: qa.id, caseId: qa.caseId, question: qa.question, gold: qa.answer,
        ...(qa.image ? { image: qa.image } : {}), answers: [{ item, answer }], order: order++, rank,
      }
      const at = list.findIndex((x) => x.rank > rank)
      list.splice(at < 0 ? list.length : at, 0, c)
      byId.set(qa.id, c)
      if (list.length > opts.perTask) byId.delete(list.pop()!.qaId)
    },
    offerMissing(item) {
      byId.get(item.qaId)?.answers.push({ item, answer: '' })
    },
    chosen: () => [...byTask.values()].flatMap((list) => [...list].sort((a, b) => a.order - b.order)),
  }
}

/** The report's samples: the chosen items of each task, in task order, with system labels and scores in words. */
export function reportSamples(candidates: readonly SampleCandidate[], systemOf: (i: ItemScore) => string, tasks: readonly string[]): ReportSample[] {
  return tasks.flatMap((task) => candidates.filter((c) => c.task === task).map((c) => ({
    task, qaId: c.qaId, caseId: c.caseId, question: c.question, gold: c.gold,
    ...(c.image ? { image: c.image } : {}),
    answers: c.answers.map(({ item, answer }) => ({ system: systemOf(item), answer, status: item.status, score: scoreText(item) })),
  })))
}

/** The samples of items already scored (with their texts) and their QA items: the chooser fed in item order. */
export function pickSamples(items: readonly ItemScore[], qa: ReadonlyMap<string, ScoreQa>, opts: { perTask: number; seed: number }): SampleCandidate[] {
  const chooser = createSampleChooser(opts)
  for (const i of items) {
    const q = qa.get(i.qaId)
    if (q && i.status !== 'missing') chooser.offer(q, i, i.hyp ?? '')
  }
  for (const i of items) if (i.status === 'missing') chooser.offerMissing(i)
  return chooser.chosen()
}
