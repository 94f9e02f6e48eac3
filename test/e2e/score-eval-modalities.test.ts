// Table 11 end to end with real model calls: a small benchmark rendered as text and strips, an
// evaluation declaring one server model twice, as an eval does (`m-text` shown text, `m-strips`
// shown the strips, both `model: test-model`), answered by the loopback chat server (every text
// request "A", every image request "B"), then `pipeline score` of the evaluation. The two names
// are one model (the predictions carry modelId), so the report compares its modalities with
// paired intervals, and `--win-contests task-modality` makes it one competitor per modality.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PredictionItem } from '../../src/core/items.ts'
import type { ScoreReport } from '../../src/report/report-types.ts'
import { startChatServer, type ChatServer } from '../helpers/chat-server.ts'
import { runCli } from '../helpers/child.ts'
import { smallBenchYaml } from '../helpers/small-bench.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-score-eval-')
const at = (...p: string[]) => path.join(work, ...p)
let server: ChatServer
let report: ScoreReport
let md: string
let predictions: PredictionItem[]

describe('pipeline score of an evaluation with one model in two modalities', () => {
  beforeAll(async () => {
    server = await startChatServer({ answer: (body) => (JSON.stringify(body).includes('image_url') ? 'B' : 'A') })
    writeFileSync(at('bench.yaml'), smallBenchYaml({ inputs: ['text', 'images'] }))
    const bench = await runCli(['run', at('bench.yaml'), '--out', at('bench')])
    expect(bench.code, bench.stderr).toBe(0)
    const model = (name: string, modality: string) => ({ name, kind: 'openai-compatible', baseURL: server.url, model: 'test-model', modality, concurrency: 4, retries: 0 })
    writeFileSync(at('eval.yaml'), [
      'name: eval',
      `input: {run: ${at('bench')}, kinds: [qa]}`,
      'stages:',
      `  - {use: infer, options: {models: ${JSON.stringify([model('m-text', 'text'), model('m-strips', 'images')])}}}`,
      '',
    ].join('\n'))
    const run = await runCli(['run', at('eval.yaml'), '--out', at('eval')])
    expect(run.code, run.stderr).toBe(0)
    predictions = readFileSync(at('eval', 'prediction.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as PredictionItem).filter((p) => p.kind === 'prediction')
    const score = await runCli(['score', at('eval'), '--out', at('report'), '--resamples', '200', '--samples', '1', '--win-contests', 'task-modality'])
    expect(score.code, score.stderr).toBe(0)
    report = JSON.parse(readFileSync(at('report', 'report.json'), 'utf8')) as ScoreReport
    md = readFileSync(at('report', 'report.md'), 'utf8')
  }, 240_000)

  afterAll(async () => {
    await server?.close()
  })

  it('each prediction carries the server model id, and the two names answered as the server said', () => {
    expect(predictions.length).toBeGreaterThan(0)
    expect(new Set(predictions.map((p) => p.modelId))).toEqual(new Set(['test-model']))
    const answers = (name: string) => new Set(predictions.filter((p) => p.model === name && !p.error).map((p) => p.answer))
    expect(answers('m-text')).toEqual(new Set(['A']))
    expect(answers('m-strips')).toEqual(new Set(['B']))
  })

  it('compares the one model\'s modalities per task, with paired intervals, in report.json and report.md', () => {
    expect(report.systems.map((s) => [s.system, s.modelId])).toEqual([['m-text', 'test-model'], ['m-strips', 'test-model']])
    expect(report.modalities.length).toBeGreaterThan(0)
    for (const d of report.modalities) {
      expect(d).toMatchObject({ model: 'test-model (m-text, m-strips)', a: 'm-text', b: 'm-strips' })
      const row = (system: string) => report.rows.find((r) => r.system === system && r.task === d.task)!.metrics[d.metric]!.value
      if (d.difference !== null) {
        expect(d.difference).toBeCloseTo(row('m-strips')! - row('m-text')!, 9)
        expect(d.ci.low!).toBeLessThanOrEqual(d.difference + 1e-9)
        expect(d.ci.high!).toBeGreaterThanOrEqual(d.difference - 1e-9)
      }
    }
    expect(md).toContain('**Table 11: one model shown different modalities (text, images)')
    expect(md).toMatch(/^\| closed_presence \| test-model \(m-text, m-strips\) \| Acc \| /m)
  })

  it('with task x modality contests, the model is one competitor in a text and an images contest per task', () => {
    expect(Object.keys(report.winRates.systems)).toEqual(['test-model'])
    const closed = report.winRates.contests.filter((c) => c.task === 'closed_presence')
    expect(closed.map((c) => c.setting)).toEqual(['text', 'images'])
    expect(report.winRates.systems['test-model'].contests).toBe(report.winRates.contests.length)
  })
})
