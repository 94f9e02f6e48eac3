import { describe, expect, it } from 'vitest'
import { bootstrapByCase } from '../../src/metrics/bootstrap.ts'
import { aggregate, type AggregateOptions } from '../../src/report/aggregate.ts'
import { metricValue } from '../../src/report/metric-stats.ts'
import type { ItemScore, ScoreQa } from '../../src/report/score-types.ts'

// BLEU statistics of an answer with no n-gram (the text metrics here are set by hand).
const NO_STATS = { counts: [0, 0, 0, 0], totals: [0, 0, 0, 0], sysLen: 0, refLen: 0 }

const OPTS: AggregateOptions = { title: 't', tool: { name: 'holter-pipeline', version: '0' }, sources: { runs: ['/r'] }, seed: 1, resamples: 500, vocabularySize: 24 }

function item(task: string, model: string, caseId: string, n: number, part: Partial<ItemScore>): ItemScore {
  return { qaId: `${caseId}:${task}:${n}`, caseId, task, model, modality: 'none', status: 'scored', hyp: '', ref: '', ...part }
}

// Closed items of two models whose outcomes make the 2x2 table [[a, b], [c, d]], spread over cases.
function pairedTable(a: number, b: number, c: number, d: number): ItemScore[] {
  const out: ItemScore[] = []
  const cells: [boolean, boolean, number][] = [[true, true, a], [true, false, b], [false, true, c], [false, false, d]]
  let n = 0
  for (const [ra, rb, count] of cells) {
    for (let k = 0; k < count; k++, n++) {
      out.push(item('closed_diagnosis', 'A', `c${n % 5}`, n, { correct: ra }), item('closed_diagnosis', 'B', `c${n % 5}`, n, { correct: rb }))
    }
  }
  return out
}

const noQa = new Map<string, ScoreQa>()

describe('aggregate', () => {
  it('resamples cases, not items: two cases, one all right and one all wrong, give an interval from 0 to 100', () => {
    const items = [
      ...Array.from({ length: 20 }, (_, i) => item('closed_presence', 'm', 'good', i, { correct: true })),
      ...Array.from({ length: 20 }, (_, i) => item('closed_presence', 'm', 'bad', 100 + i, { correct: false })),
    ]
    const r = aggregate(items, noQa, OPTS)
    const acc = r.rows[0].metrics.accuracy!
    expect(acc.value).toBe(50)
    expect(acc.ci).toEqual({ low: 0, high: 100 })
    expect(r.rows[0]).toMatchObject({ n: 40, cases: 2, unparsed: 0, failed: 0, missing: 0 })
    expect(r.signatures[acc.signature]).toContain('unparsed:wrong')
    expect(r.signatures.bootstrap).toBe('bootstrap|unit:case|ci:percentile|level:0.95|n:500|seed:1|rng:mulberry32')
    // The same seed gives the same interval.
    expect(aggregate(items, noQa, OPTS).rows[0].metrics.accuracy).toEqual(acc)
  })

  it('gives the intervals bootstrapByCase gives when the metric is recomputed on the resampled items', () => {
    const items: ItemScore[] = []
    for (let i = 0; i < 60; i++) {
      const caseId = `c${(i * 7) % 11}`
      items.push(item('open_event_timing', 'm', caseId, i, { status: i % 9 ? 'scored' : 'unparsed', counts: { tp: i % 3, fp: i % 2, fn: (i % 5) % 2 }, text: { bleu1: i, bleu4: i / 2, rougeL: 100 - i, stats: NO_STATS } }))
    }
    items.push(item('open_event_timing', 'm', 'c99', 99, { status: 'failed' }))
    const row = aggregate(items, noQa, OPTS).rows[0]
    for (const key of ['timestampF1', 'rougeL', 'bleu4'] as const) {
      const counted = items.filter((i) => i.status !== 'failed')
      const direct = bootstrapByCase(counted, (i) => i.caseId, (xs) => metricValue(key, xs), { seed: `1:m:open_event_timing:${key}`, resamples: 500 })
      expect(row.metrics[key]!.value).toBeCloseTo(direct.estimate, 9)
      expect(row.metrics[key]!.ci!.low).toBeCloseTo(direct.low!, 9)
      expect(row.metrics[key]!.ci!.high).toBeCloseTo(direct.high!, 9)
    }
  })

  it('counts unparsed as wrong and leaves failed and missing out of accuracy, counting them', () => {
    const items = [
      item('closed_presence', 'm', 'a', 0, { correct: true }),
      item('closed_presence', 'm', 'a', 1, { status: 'unparsed', correct: false }),
      item('closed_presence', 'm', 'b', 2, { status: 'failed' }),
      item('closed_presence', 'm', 'b', 3, { status: 'missing' }),
    ]
    const row = aggregate(items, noQa, OPTS).rows[0]
    expect(row).toMatchObject({ n: 2, unparsed: 1, failed: 1, missing: 1, noGold: 0 })
    expect(row.metrics.accuracy!.value).toBe(50)
  })

  it('takes ScoreMAE\'s mu and sigma from the baselines present, and says which', () => {
    const mae = (model: string, errors: number[]) => errors.map((e, i) => item('open_event_counting', model, `c${i}`, i, { absError: e, text: { bleu1: 0, bleu4: 0, rougeL: 0, stats: NO_STATS } }))
    const items = [...mae('random', [4, 4]), ...mae('holter-dsp', [1, 1]), ...mae('gpt', [0, 1])]
    const r = aggregate(items, noQa, OPTS)
    const params = r.scoreMae[0]
    expect(params.baselines).toEqual(['random', 'holter-dsp'])
    expect(params.mu).toBe(2.5)
    expect(params.sigma).toBeCloseTo(Math.SQRT2 * 1.5, 12)
    const gpt = r.rows.find((x) => x.model === 'gpt')!
    expect(gpt.metrics.mae!.value).toBe(0.5)
    expect(gpt.metrics.scoreMae!.value).toBeCloseTo(100 / (1 + Math.exp((0.5 - 2.5) / (Math.SQRT2 * 1.5))), 10)
    expect(r.signatures[params.signature]).toBe('score-mae|baselines:holter-dsp,random|mu:2.5|sigma:2.12132|sd:sample|unparsed:excluded')
    // ScoreMAE's interval is the MAE's mapped through the decreasing logistic.
    expect(gpt.metrics.scoreMae!.ci!.low!).toBeLessThanOrEqual(gpt.metrics.scoreMae!.value!)
    // One declared baseline: sigma 0, a step; an absent one is reported.
    const one = aggregate(items, noQa, { ...OPTS, baselines: ['random', 'prior'] })
    expect(one.scoreMae[0]).toMatchObject({ baselines: ['random'], mu: 4, sigma: 0 })
    expect(one.rows.find((x) => x.model === 'gpt')!.metrics.scoreMae!.value).toBe(100)
    expect(one.problems).toEqual([expect.objectContaining({ kind: 'baseline-absent', examples: ['prior'] })])
    // No baseline at all: not computed, with why.
    const none = aggregate(mae('gpt', [1]), noQa, OPTS)
    expect(none.rows[0].metrics.scoreMae).toMatchObject({ value: null, note: expect.stringContaining('no baseline') })
  })

  it('runs McNemar\'s exact test on the closed items both answered, per task and pooled', () => {
    const r = aggregate(pairedTable(5, 8, 2, 5), noQa, { ...OPTS, compare: [['A', 'B']] })
    expect(r.comparisons.map((c) => c.task)).toEqual(['closed_diagnosis', 'all closed'])
    const c = r.comparisons[0]
    expect(c).toMatchObject({ a: 'A', b: 'B', n: 20, table: [[5, 8], [2, 5]], method: 'exact-binomial' })
    // 2 * P(X <= 2), X ~ Bin(10, 1/2) = 2 * 56 / 1024.
    expect(c.pValue).toBeCloseTo(0.109375, 12)
    expect(c.accuracyA).toBe(65)
    expect(r.signatures[c.signature]).toContain('test:exact-binomial')
  })

  it('leaves items one side did not answer out of the paired test', () => {
    const items = pairedTable(1, 3, 0, 0)
    items.push(item('closed_diagnosis', 'A', 'c9', 99, { correct: true }), item('closed_diagnosis', 'B', 'c9', 99, { status: 'failed' }))
    expect(aggregate(items, noQa, { ...OPTS, compare: [['A', 'B']] }).comparisons[0].n).toBe(4)
  })

  it('refuses a --compare side that names no system', () => {
    expect(() => aggregate(pairedTable(1, 1, 1, 1), noQa, { ...OPTS, compare: [['A', 'C']] })).toThrow(/no scored system is called C/)
  })

  it('counts win rates over tasks, MAE lower is better', () => {
    const items = [
      item('closed_presence', 'A', 'c', 0, { correct: true }), item('closed_presence', 'B', 'c', 0, { correct: false }),
      item('open_event_counting', 'A', 'c', 1, { absError: 3 }), item('open_event_counting', 'B', 'c', 1, { absError: 1 }),
      item('closed_diagnosis', 'A', 'c', 2, { correct: true }), item('closed_diagnosis', 'B', 'c', 2, { correct: false }),
    ]
    const w = aggregate(items, noQa, OPTS).winRates
    expect(w.metricByTask).toMatchObject({ closed_presence: 'accuracy', open_event_counting: 'mae' })
    expect(w.systems.A).toMatchObject({ wins: 2, contests: 3 })
    expect(w.systems.B).toMatchObject({ wins: 1, contests: 3 })
    expect(w.systems.A.rate).toBeCloseTo(2 / 3, 12)
  })

  it('names a model by its modality when it was scored in several', () => {
    const items = [item('closed_presence', 'gpt', 'c', 0, { correct: true, modality: 'text' }), item('closed_presence', 'gpt', 'c', 0, { correct: false, modality: 'video' })]
    const r = aggregate(items, noQa, OPTS)
    expect(r.systems.map((s) => s.system)).toEqual(['gpt (text)', 'gpt (video)'])
    expect(() => aggregate(items, noQa, { ...OPTS, compare: [['gpt', 'gpt (video)']] })).toThrow(/2 modalities/)
  })

  it('reports F1-Bio and ScoreGPT as missing, with why, unless a hook computed them', () => {
    // "a b" against "a c": one unigram of two matched.
    const items = [item('report_general_summary', 'm', 'c', 0, { text: { bleu1: 10, bleu4: 5, rougeL: 20, stats: { counts: [1, 0, 0, 0], totals: [2, 1, 0, 0], sysLen: 2, refLen: 2 } }, hyp: 'a b', ref: 'a c' })]
    const m = aggregate(items, noQa, OPTS).rows[0].metrics
    expect(m.f1Bio).toMatchObject({ value: null, note: expect.stringMatching(/^unavailable/) })
    expect(m.scoreGpt).toMatchObject({ value: null, note: expect.stringMatching(/^not computed/) })
    expect(m.rougeL!.value).toBe(20)
    expect(m.corpusBleu1!.value).toBeCloseTo(50, 9)
    const judged = aggregate([{ ...items[0], scoreGpt: 70 }], noQa, { ...OPTS, scoreGpt: 'judge|m|t:0' }).rows[0].metrics.scoreGpt
    expect(judged).toMatchObject({ value: 70 })
  })

  it('samples items per task with the seed, each with every system\'s answer', () => {
    const qa = new Map<string, ScoreQa>()
    const items: ItemScore[] = []
    for (let i = 0; i < 10; i++) {
      const q = item('closed_presence', 'A', `c${i}`, i, { correct: true })
      qa.set(q.qaId, { id: q.qaId, caseId: q.caseId, taskType: 'closed_presence', question: `q${i}`, answer: 'Yes', gold: { value: 'yes' }, image: `/abs/${i}.png` })
      items.push({ ...q, hyp: 'Yes', read: 'yes' }, { ...q, model: 'B', status: 'unparsed', correct: false, reason: 'refusal', hyp: 'no idea' })
    }
    const s = aggregate(items, qa, { ...OPTS, samplesPerTask: 3 }).samples
    expect(s).toHaveLength(3)
    expect(s[0].answers).toEqual([{ system: 'A', answer: 'Yes', status: 'scored', score: 'right (yes)' }, { system: 'B', answer: 'no idea', status: 'unparsed', score: 'unparsed (refusal)' }])
    expect(s[0].image).toMatch(/^\/abs\//)
    expect(aggregate(items, qa, { ...OPTS, samplesPerTask: 3 }).samples).toEqual(s)
    expect(aggregate(items, qa, { ...OPTS, seed: 2, samplesPerTask: 3 }).samples.map((x) => x.qaId)).not.toEqual(s.map((x) => x.qaId))
  })
})
