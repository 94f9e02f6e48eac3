import { describe, expect, it } from 'vitest'
import { aggregate } from '../../src/report/aggregate.ts'
import { applyScoreHooks, type ScoreHooks } from '../../src/report/score-hooks.ts'
import type { ItemScore } from '../../src/report/score-types.ts'

// BLEU statistics of an answer with no n-gram (the text metrics here are set by hand).
const NO_STATS = { counts: [0, 0, 0, 0], totals: [0, 0, 0, 0], sysLen: 0, refLen: 0 }

function item(task: string, n: number, part: Partial<ItemScore> = {}): ItemScore {
  return { qaId: `q${n}`, caseId: `c${n}`, task, model: 'm', modality: 'text', status: 'scored', hyp: `answer ${n}`, ref: `reference ${n}`, text: { bleu1: 0, bleu4: 0, rougeL: 0, stats: NO_STATS }, ...part }
}

describe('applyScoreHooks', () => {
  it('adds F1-Bio to open and report items and ScoreGPT to report items; a judge failure is that item\'s error', async () => {
    const items = [item('closed_presence', 0, { text: undefined, correct: true }), item('open_diagnosis', 1), item('report_general_summary', 2), item('report_general_summary', 3), item('report_general_summary', 4, { status: 'failed', text: undefined })]
    const qa = new Map(items.map((i) => [i.qaId, `question ${i.qaId}`]))
    const asked: string[] = []
    const hooks: ScoreHooks = {
      f1Bio: { signature: 'bertscore:test|L1', score: async (pairs) => pairs.map((p) => (p.hyp.endsWith('1') ? 0.5 : 0.75)) },
      judge: {
        signature: 'judge:test|t:0',
        score: async (x) => {
          asked.push(x.question)
          return x.answer.endsWith('3') ? { error: 'E_JUDGE: not JSON' } : { score: 80 }
        },
      },
    }
    await applyScoreHooks(items, qa, hooks)
    expect(items.map((i) => i.f1Bio)).toEqual([undefined, 50, 75, 75, undefined])
    expect(items.map((i) => i.scoreGpt)).toEqual([undefined, undefined, 80, undefined, undefined])
    expect(items[3].judgeError).toBe('E_JUDGE: not JSON')
    expect(asked).toEqual(['question q2', 'question q3'])
    const r = aggregate(items, new Map(), { title: 't', tool: { name: 'x', version: '0' }, sources: {}, seed: 1, resamples: 50, vocabularySize: 0, f1Bio: hooks.f1Bio!.signature, scoreGpt: hooks.judge!.signature })
    const report = r.rows.find((x) => x.task === 'report_general_summary')!
    expect(report.metrics.scoreGpt!.value).toBe(80)
    expect(report.metrics.f1Bio!.value).toBe(75)
    expect(r.signatures.scoreGpt).toContain('judge:test|t:0')
    expect(r.settings.f1Bio).toBe('bertscore:test|L1')
    expect(r.winRates.metricByTask.report_general_summary).toBe('scoreGpt')
  })

  it('gives F1-Bio each task\'s references (one per item) before its pairs, and a task\'s pairs item by item', async () => {
    const items = [
      item('report_general_summary', 2), item('open_diagnosis', 1), item('report_general_summary', 1),
      item('report_general_summary', 2, { model: 'other' }), item('report_general_summary', 1, { model: 'other' }),
    ]
    const calls: string[] = []
    const hooks: ScoreHooks = {
      f1Bio: {
        signature: 's',
        prepare: async (refs) => void calls.push(`prepare ${refs.join(',')}`),
        score: async (pairs) => {
          calls.push(`score ${pairs.map((p) => p.ref).join(',')}`)
          return pairs.map(() => 1)
        },
      },
    }
    await applyScoreHooks(items, new Map(), hooks)
    expect(calls).toEqual(['prepare reference 1,reference 2', 'score reference 1,reference 1,reference 2,reference 2', 'prepare reference 1', 'score reference 1'])
    expect(items.every((i) => i.f1Bio === 100)).toBe(true)
  })

  it('stops every judge worker once one call throws, so nothing is sent after the scoring failed', async () => {
    const items = Array.from({ length: 40 }, (_, n) => item('report_general_summary', n))
    let calls = 0
    const judge = {
      signature: 'j', concurrency: 4,
      score: async () => {
        const k = ++calls
        await new Promise((r) => setTimeout(r, 2))
        if (k === 2) throw new Error('disk full')
        return { score: 50 }
      },
    }
    await expect(applyScoreHooks(items, new Map(), { judge })).rejects.toThrow('disk full')
    await new Promise((r) => setTimeout(r, 30))
    expect(calls).toBeLessThanOrEqual(5)
  })

  it('judges up to the hook\'s concurrency at once, and one report at a time without it', async () => {
    const items = Array.from({ length: 7 }, (_, n) => item('report_general_summary', n))
    for (const [concurrency, most] of [[3, 3], [undefined, 1]] as const) {
      let inFlight = 0
      let peak = 0
      const judge = {
        signature: 'j', concurrency,
        score: async () => {
          peak = Math.max(peak, ++inFlight)
          await new Promise((r) => setTimeout(r, 5))
          inFlight--
          return { score: 50 }
        },
      }
      await applyScoreHooks(items, new Map(), { judge })
      expect(peak).toBe(most)
      expect(items.every((i) => i.scoreGpt === 50)).toBe(true)
    }
  })
})
