// Issue 15, "End to end on the bundled records": bench -> baselines -> score. The small bench
// (test/helpers/small-bench.ts: records 100, 101 and 208, 20-second excerpts rendered as text and
// strips, every task) with an infer stage of the random, blind and holter-dsp baselines, then
// `pipeline score <run> --compare holter-dsp:random --compare holter-dsp:blind`: holter-dsp, which
// reads the detector's beats, must beat both blind answerers on every closed task present, and the
// McNemar p-values of those pairs must be in the report. Then `pipeline score --qa` on the public
// release's valid split with predictions made here: the gold answers of half the items (so 100 %
// on those), the other half unanswered, and junk lines reported as unmatched.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import type { ScoreReport } from '../../src/report/report-types.ts'
import { runCli, type Exit } from '../helpers/child.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
import { smallBenchYaml } from '../helpers/small-bench.ts'
import { tmpDir } from '../helpers/tmp.ts'

const dir = tmpDir('hp-score-bench-')
const BASELINES = [{ name: 'random', kind: 'random', seed: 1 }, { name: 'blind', kind: 'blind' }, { name: 'holter-dsp', kind: 'holter-dsp' }]
const readReport = (out: string) => JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ScoreReport

describe('pipeline score over the small bench with its baselines', () => {
  const run = path.join(dir, 'bench')
  let scored: Exit
  let report: ScoreReport

  beforeAll(async () => {
    const dataset = parse(smallBenchYaml({ records: ['100', '101', '208'], inputs: ['text', 'images'], perHour: 120 })) as { stages: unknown[] }
    dataset.stages.push({ use: 'infer', options: { models: BASELINES } })
    const yaml = path.join(dir, 'bench.yaml')
    writeFileSync(yaml, stringify(dataset))
    const ran = await runCli(['run', yaml, '--out', run])
    expect(ran.code, ran.stderr).toBe(0)
    scored = await runCli(['score', run, '--compare', 'holter-dsp:random', '--compare', 'holter-dsp:blind'])
    expect(scored.code, scored.stderr).toBe(0)
    report = readReport(path.join(run, 'report'))
  }, 120_000)

  it('writes report.json, report.md and the HTML report under <run>/report and prints the tables', () => {
    expect(readdirSync(path.join(run, 'report')).sort()).toEqual(expect.arrayContaining(['charts', 'index.html', 'report.json', 'report.md']))
    expect(readdirSync(path.join(run, 'report', 'charts')).sort()).toEqual(['chart-closed.png', 'chart-open.png', 'chart-report.png'])
    const md = readFileSync(path.join(run, 'report', 'report.md'), 'utf8')
    for (const table of ['(Table 4)', '(Table 5)', '(Table 6)', '(Table 9)', '(Table 10)', '(Table 12)']) expect(md).toContain(table)
    expect(scored.stdout).toContain(md)
    expect(report.systems.map((s) => s.system)).toEqual(['random', 'blind', 'holter-dsp'])
    expect(report.sources.runs).toEqual([run])
  })

  it('holter-dsp beats random and blind on every closed task present', () => {
    const closed = report.tasks.filter((t) => t.startsWith('closed_'))
    expect(closed.length).toBeGreaterThanOrEqual(3)
    const acc = (system: string, task: string) => report.rows.find((r) => r.system === system && r.task === task)!.metrics.accuracy!.value!
    const lost = closed.flatMap((t) => ['random', 'blind'].filter((b) => !(acc('holter-dsp', t) > acc(b, t))).map((b) => `${t}: holter-dsp ${acc('holter-dsp', t)} vs ${b} ${acc(b, t)}`))
    expect(lost).toEqual([])
    for (const r of report.rows) expect([r.failed, r.missing, r.noGold, r.unparsed], `${r.system} ${r.task}`).toEqual([0, 0, 0, 0])
  })

  it('reports the McNemar p-values of the pairs asked, per closed task and pooled', () => {
    for (const b of ['random', 'blind']) {
      const pooled = report.comparisons.find((c) => c.a === 'holter-dsp' && c.b === b && c.task === 'all closed')!
      expect(pooled.n).toBe(report.rows.filter((r) => r.system === b && r.task.startsWith('closed_')).reduce((n, r) => n + r.n, 0))
      expect(pooled.table[0][1]).toBeGreaterThan(pooled.table[1][0])
      expect(pooled.pValue).toBeGreaterThan(0)
      expect(pooled.pValue).toBeLessThan(0.05)
      expect(report.comparisons.filter((c) => c.b === b).length).toBe(report.tasks.filter((t) => t.startsWith('closed_')).length + 1)
    }
    const md = readFileSync(path.join(run, 'report', 'report.md'), 'utf8')
    expect(md).toMatch(/^\| holter-dsp \| random \| all closed \| \d+ \|/m)
    expect(md).toMatch(/^\| holter-dsp \| blind \| all closed \| \d+ \|/m)
  })

  it('gives every number its signature, ScoreMAE its baselines, and samples with their strip images', () => {
    for (const r of report.rows) for (const m of Object.values(r.metrics)) expect(report.signatures[m!.signature], `${r.task} ${m!.signature}`).toBeDefined()
    for (const s of report.scoreMae) expect(s.baselines).toEqual(['random', 'holter-dsp'])
    expect(report.settings.baselines).toEqual({ declared: ['random', 'prior', 'holter-dsp'], default: true })
    expect(report.samples.length).toBeGreaterThan(0)
    const withImage = report.samples.filter((s) => s.image)
    expect(withImage.length).toBeGreaterThan(0)
    for (const s of withImage) expect(existsSync(s.image!), s.image).toBe(true)
    for (const s of report.samples) expect(s.answers.map((a) => a.system)).toEqual(['random', 'blind', 'holter-dsp'])
  })
})

describe('pipeline score over runs over runs: the QA items are in the input run (or an exported folder)', () => {
  const bench = path.join(dir, 'bench')
  const out = path.join(dir, 'over-report')
  let report: ScoreReport

  // An evaluation that writes only predictions: its QA items stay in its input.
  const evalYaml = (name: string, input: string, model: Record<string, unknown>) => {
    const file = path.join(dir, `${name}.yaml`)
    writeFileSync(file, stringify({ name, input: { run: input, kinds: ['qa'] }, output: { exclude: ['block', 'qa'] }, stages: [{ use: 'infer', options: { models: [model] } }] }))
    return file
  }

  beforeAll(async () => {
    const cli = async (...args: string[]) => expect((await runCli(args)).code).toBe(0)
    await cli('qa', 'export', bench, path.join(dir, 'export'))
    await cli('run', evalYaml('eval', bench, { name: 'random2', kind: 'random', seed: 2 }), '--out', path.join(dir, 'eval'))
    await cli('run', evalYaml('eval-export', path.join(dir, 'export'), { name: 'random3', kind: 'random', seed: 3 }), '--out', path.join(dir, 'eval-export'))
    expect(existsSync(path.join(dir, 'eval', 'qa.ndjson'))).toBe(false)
    await cli('score', bench, path.join(dir, 'eval'), path.join(dir, 'eval-export'), '--out', out, '--baselines', 'random,random2,random3', '--resamples', '200')
    report = readReport(out)
  }, 120_000)

  it('scores every system on the same items, none missing, each from its own run', () => {
    expect(report.systems.map((s) => [s.system, s.sources.map((x) => path.basename(x))])).toEqual([
      ['random', ['bench']], ['blind', ['bench']], ['holter-dsp', ['bench']], ['random2', ['eval']], ['random3', ['eval-export']],
    ])
    const n = (system: string) => report.rows.filter((r) => r.system === system).map((r) => [r.task, r.n, r.missing])
    expect(n('random2')).toEqual(n('holter-dsp'))
    expect(n('random3')).toEqual(n('holter-dsp'))
    expect(report.problems).toEqual([])
    for (const s of report.scoreMae) expect(s.baselines).toEqual(['random', 'random2', 'random3'])
  })
})

describeShared('pipeline score --qa on the public release', () => {
  const valid = sharedPath('data/holtercare-qa/valid')
  const out = path.join(dir, 'public-report')
  let report: ScoreReport
  let total = 0
  let answered = 0

  beforeAll(async () => {
    const lines: string[] = []
    for (const tier of readdirSync(valid)) {
      for (const file of readdirSync(path.join(valid, tier))) {
        const items = JSON.parse(readFileSync(path.join(valid, tier, file), 'utf8')) as { task_type: string; qa_pair: { answer: string } }[]
        items.forEach((x, index) => {
          total++
          if (index % 2 === 0) lines.push(JSON.stringify({ task_type: x.task_type, index, prediction: x.qa_pair.answer, model: 'gold-half' }), '')
        })
      }
    }
    answered = lines.filter(Boolean).length
    lines.push('not json', JSON.stringify({ task_type: 'closed_presence', index: 100_000, prediction: 'Yes', model: 'gold-half' }), JSON.stringify({ task_type: 'closed_nothing', index: 0, prediction: 'A' }))
    const preds = path.join(dir, 'preds.jsonl')
    writeFileSync(preds, lines.join('\n') + '\n')
    const r = await runCli(['score', '--qa', valid, '--predictions', preds, '--out', out, '--resamples', '200'])
    expect(r.code, r.stderr).toBe(0)
    report = readReport(out)
  }, 60_000)

  it('scores the gold answers of half the items at 100 % on every closed task', () => {
    const closed = report.rows.filter((r) => r.task.startsWith('closed_'))
    expect(closed.map((r) => r.task)).toEqual(['closed_presence', 'closed_event_counting', 'closed_event_timing', 'closed_HR_extremum_timing', 'closed_diagnosis'])
    for (const r of closed) expect([r.task, r.metrics.accuracy!.value, r.unparsed, r.noGold]).toEqual([r.task, 100, 0, 0])
    const open = (task: string) => report.rows.find((r) => r.task === task)!.metrics
    expect(open('open_event_counting').mae!.value).toBe(0)
    expect(open('open_HR_extremum_timing').mae!.value).toBe(0)
    expect(open('open_event_timing').timestampF1!.value).toBe(100)
    expect(open('open_diagnosis').labelF1!.value).toBe(100)
    expect(open('open_evidence_reasoning').yesNoAccuracy!.value).toBe(100)
    expect(open('report_general_summary').rougeL!.value).toBeCloseTo(100, 9)
  })

  it('counts the other half as missing and reports the junk lines as unmatched, not guessed', () => {
    const counted = report.rows.reduce((n, r) => n + r.n + r.noGold, 0)
    expect(counted).toBe(answered)
    expect(report.rows.reduce((n, r) => n + r.missing, 0)).toBe(total - answered)
    const unmatched = report.problems.find((p) => p.kind === 'unmatched-line')!
    expect(unmatched.count).toBe(3)
    expect(unmatched.examples!.join('\n')).toMatch(/not JSON[^]*no item 100000 in valid\/closed_presence[^]*"closed_nothing" is not one of the 12 task types/)
    expect(report.problems.find((p) => p.kind === 'no-prediction')!.count).toBe(total - answered)
    expect(report.sources).toEqual({ qa: valid, predictions: path.join(dir, 'preds.jsonl') })
  })
})
