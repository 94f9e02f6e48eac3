// collectScores reads sets chunk by chunk (a run record by record) into the report's running
// sums, keeping no item score but those a hook needs, and gives the report aggregate() gives over
// all the items; the samples chosen depend on the items, not on the order they are read in.
import { describe, expect, it } from 'vitest'
import { aggregate, aggregateSums } from '../../src/report/aggregate.ts'
import { collectScores, type PredictionChunk } from '../../src/report/collect-scores.ts'
import { scoreItem } from '../../src/report/score-items.ts'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import { createSampleChooser } from '../../src/report/samples.ts'
import type { ScorePrediction, ScoreQa } from '../../src/report/score-types.ts'

const qa = (id: string, taskType: string, answer: string, gold: ScoreQa['gold'] = {}): ScoreQa => ({ id, caseId: id.split(':')[0], taskType, question: `question ${id}`, answer, gold })

// Records r0..r5, each with a closed item and a report item, answered by two models.
function chunks(): PredictionChunk[] {
  return Array.from({ length: 6 }, (_, r) => {
    const items = [
      qa(`r${r}:c`, 'closed_presence', 'A. PVC', { choices: ['PVC', 'PAC', 'AF', 'VT'], correct: 0 }),
      qa(`r${r}:s`, 'report_general_summary', `Sinus rhythm with ${r} PVCs.`),
    ]
    const predictions: ScorePrediction[] = items.flatMap((q) => ['a', 'b'].map((model) => ({ qaId: q.id, model, modality: 'text', answer: model === 'a' ? q.answer : 'B' })))
    return { qa: new Map(items.map((q) => [q.id, q])), predictions }
  })
}

describe('collectScores', () => {
  const OPTS = { title: 't', tool: { name: 'x', version: '0' }, sources: {}, seed: 3, resamples: 100, vocabularySize: 0, compare: [['a', 'b']] as [string, string][] }

  it('gives the report aggregate() gives over every item score, without keeping the items', async () => {
    const c = await collectScores([{ source: 'run', chunks: chunks() }], { vocabulary: [], samples: { perTask: 2, seed: 3 } })
    expect(c.pending).toEqual([])
    expect(c.questions.size).toBe(0)
    const items = chunks().flatMap((ch) => ch.predictions.map((p) => scoreItem(ch.qa.get(p.qaId)!, p, { vocabulary: [] })))
    const streamed = aggregateSums(c.sums, { ...OPTS, samples: c.samples })
    const whole = aggregate(items, new Map(chunks().flatMap((ch) => [...ch.qa])), { ...OPTS, samplesPerTask: 2 })
    expect(streamed.rows).toEqual(whole.rows)
    expect(streamed.comparisons).toEqual(whole.comparisons)
    expect(streamed.winRates).toEqual(whole.winRates)
    expect(streamed.samples).toEqual(whole.samples)
    expect(streamed.rows.find((r) => r.task === 'report_general_summary' && r.system === 'a')!.metrics.corpusBleu4!.value).toBeCloseTo(100, 9)
  })

  it('keeps the items scored by text, with their texts and report questions, for the hooks when asked', async () => {
    const kept = await collectScores([{ source: 'run', chunks: chunks() }], { vocabulary: [], keepText: () => true })
    expect(kept.pending.map((i) => i.task)).toEqual(Array(12).fill('report_general_summary'))
    expect(kept.pending.every((i) => i.hyp !== undefined && i.ref !== undefined)).toBe(true)
    expect(kept.questions.get('r3:s')).toBe('question r3:s')
    expect([...kept.sums.groups.values()].map((g) => g.task)).toEqual(['closed_presence', 'closed_presence'])
    const none = await collectScores([{ source: 'run', chunks: chunks() }], { vocabulary: [], keepText: (task) => task.startsWith('open_') })
    expect(none.pending).toEqual([])
  })

  it('places systems in the order they are first read, items held for a hook included', async () => {
    // System "z" answers only report items, and answers first.
    const c = chunks()
    c[0] = { qa: c[0].qa, predictions: [{ qaId: 'r0:s', model: 'z', modality: 'video', answer: 'x' }, ...c[0].predictions] }
    for (const keepText of [undefined, () => true]) {
      const got = await collectScores([{ source: 'run', chunks: c }], { vocabulary: [], keepText })
      expect([...got.sums.systems.keys()]).toEqual(['z\u0000video', 'a\u0000text', 'b\u0000text'])
    }
  })

  it('reads an async source and marks the items a system left unanswered in any chunk', async () => {
    async function* source(): AsyncGenerator<PredictionChunk> {
      for (const c of chunks()) yield { qa: c.qa, predictions: c.predictions.filter((p) => !(p.model === 'b' && p.qaId === 'r4:c')) }
    }
    const c = await collectScores([{ source: 'run', chunks: source() }], { vocabulary: [] })
    const b = c.sums.groups.get('b\u0000text\u0000closed_presence')!
    expect(b.status).toMatchObject({ scored: 5, missing: 1 })
    expect(c.problems).toEqual([expect.objectContaining({ kind: 'no-prediction', count: 1, examples: ['r4:c'] })])
  })

  it('chooses the same sample items whatever the order the chunks come in, with every system\'s answer text', async () => {
    const samples = { perTask: 2, seed: 7 }
    const forward = await collectScores([{ source: 'run', chunks: chunks() }], { vocabulary: [], samples })
    const backward = await collectScores([{ source: 'run', chunks: chunks().reverse() }], { vocabulary: [], samples })
    const ids = (x: typeof forward) => x.samples.map((s) => s.qaId).sort()
    expect(ids(forward)).toEqual(ids(backward))
    expect(forward.samples).toHaveLength(4)
    expect(new Set(forward.samples.map((s) => s.task))).toEqual(new Set(['closed_presence', 'report_general_summary']))
    for (const s of forward.samples) {
      expect(s.answers.map((a) => a.item.model)).toEqual(['a', 'b'])
      expect(s.answers[1].answer).toBe('B')
      expect(s.question).toBe(`question ${s.qaId}`)
    }
    const other = await collectScores([{ source: 'run', chunks: chunks() }], { vocabulary: [], samples: { perTask: 2, seed: 8 } })
    expect(ids(other)).not.toEqual(ids(forward))
  })
})

describe('createSampleChooser', () => {
  it('keeps the k lowest-ranked items per task, attaching later answers and missing systems to those only', () => {
    const chooser = createSampleChooser({ perTask: 3, seed: 1 })
    const items = Array.from({ length: 40 }, (_, n) => qa(`c${n}:q`, 'closed_presence', 'A'))
    const item = (q: ScoreQa, model: string) => ({ qaId: q.id, caseId: q.caseId, task: q.taskType, model, modality: 'text', status: 'scored' as const })
    for (const q of items) chooser.offer(q, item(q, 'a'), 'A')
    for (const q of items) chooser.offer(q, item(q, 'b'), 'B')
    for (const q of items) chooser.offerMissing({ ...item(q, 'c'), status: 'missing' })
    const chosen = chooser.chosen()
    expect(chosen).toHaveLength(3)
    expect(chosen.map((c) => c.answers.map((a) => `${a.item.model}:${a.answer}:${a.item.status}`))).toEqual(Array(3).fill(['a:A:scored', 'b:B:scored', 'c::missing']))
    // The 3 chosen are the 3 lowest seeded ranks of the 40, computed here on their own.
    const rankOf = (q: ScoreQa) => createSeededRandom(`1:samples:${q.taskType}:${q.id}`).next()
    const lowest = [...items].sort((x, y) => rankOf(x) - rankOf(y)).slice(0, 3).map((q) => q.id)
    expect(chosen.map((c) => c.qaId).sort()).toEqual(lowest.sort())
    expect(chosen.map((c) => c.order)).toEqual([...chosen.map((c) => c.order)].sort((x, y) => x - y))
    expect(createSampleChooser({ perTask: 0, seed: 1 }).chosen()).toEqual([])
  })
})
