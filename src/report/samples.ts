// The items a report shows in full (issue 15: "per task, a sample of items ... so a person can
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

/** Up to `perTask` items per task, chosen with the seed, with every system's answer. */
export function pickSamples(items: readonly ItemScore[], qa: ReadonlyMap<string, ScoreQa>, systemOf: (i: ItemScore) => string, tasks: readonly string[], opts: { perTask: number; seed: number }): ReportSample[] {
  const byItem = new Map<string, ItemScore[]>()
  for (const i of items) {
    const list = byItem.get(i.qaId) ?? []
    byItem.set(i.qaId, list)
    list.push(i)
  }
  const out: ReportSample[] = []
  for (const task of tasks) {
    const ids = [...byItem.keys()].filter((id) => qa.get(id)?.taskType === task && byItem.get(id)!.some((i) => i.status !== 'missing'))
    const rng = createSeededRandom(`${opts.seed}:samples:${task}`)
    // A partial Fisher-Yates shuffle: the first `perTask` places, then back in item order.
    const k = Math.min(opts.perTask, ids.length)
    for (let j = 0; j < k; j++) {
      const r = j + rng.below(ids.length - j)
      ;[ids[j], ids[r]] = [ids[r], ids[j]]
    }
    const chosen = new Set(ids.slice(0, k))
    for (const id of [...byItem.keys()].filter((x) => chosen.has(x))) {
      const q = qa.get(id)!
      out.push({
        task, qaId: id, caseId: q.caseId, question: q.question, gold: q.answer,
        ...(q.image ? { image: q.image } : {}),
        answers: byItem.get(id)!.map((i) => ({ system: systemOf(i), answer: i.hyp, status: i.status, score: scoreText(i) })),
      })
    }
  }
  return out
}
