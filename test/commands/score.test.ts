// `pipeline score` in process: --qa against a small Holtercare folder, --multitask, and usage errors.
// The command on real runs and on the public release: test/e2e/score-bench.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { scoreCommand, type ScoreArgs } from '../../src/commands/score.ts'
import type { ScoreReport } from '../../src/report/report-types.ts'
import { tmpDir } from '../helpers/tmp.ts'

const dir = tmpDir('hp-score-cmd-')

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough()
  let text = ''
  stream.on('data', (d: Buffer) => (text += d.toString()))
  return { stream, text: () => text }
}

async function score(args: Partial<ScoreArgs>): Promise<{ code: number; out: string }> {
  const s = sink()
  const code = await scoreCommand({ runDirs: [], seed: 1, resamples: 100, stdout: s.stream, ...args })
  return { code, out: s.text() }
}

const element = (id: string, task: string, question: string, answer: string) => ({ id, task_type: task, qa_pair: { question, answer }, tag: 'valid' })

function writeFolder(): string {
  const root = path.join(dir, 'hc', 'valid')
  mkdirSync(path.join(root, 'Closed-QA'), { recursive: true })
  mkdirSync(path.join(root, 'Open-QA'), { recursive: true })
  writeFileSync(path.join(root, 'Closed-QA', 'closed_event_counting.json'), JSON.stringify([
    element('A1', 'closed_event_counting', 'How many PVCs? A. 2; B. 0; C. 3; D. 1', 'D. 1'),
    element('A1', 'closed_event_counting', 'How many PACs? A. 2; B. 0; C. 3; D. 1', 'A. 2'),
    element('A2', 'closed_event_counting', 'How many PVCs? A. 4; B. 5; C. 3; D. 1', 'C. 3'),
  ]))
  writeFileSync(path.join(root, 'Open-QA', 'open_event_counting.json'), JSON.stringify([
    element('A1', 'open_event_counting', 'How many PVCs?', 'There are 2 occurrences of PVC.'),
    element('A2', 'open_event_counting', 'How many PACs?', 'There are 4 occurrences of PAC.'),
  ]))
  return root
}

describe('pipeline score --qa', () => {
  it('scores lines by task and index, reports unmatched lines and unanswered items, never guesses', async () => {
    const hc = writeFolder()
    const preds = path.join(dir, 'preds.jsonl')
    writeFileSync(preds, [
      { task_type: 'closed_event_counting', index: 0, prediction: 'The answer is D.' },
      { task_type: 'closed_event_counting', index: 1, prediction: 'B' },
      { task_type: 'closed_event_counting', index: 2, error: 'timeout' },
      { task_type: 'open_event_counting', index: 1, prediction: 'I count 3 PACs.' },
      { task_type: 'closed_event_counting', index: 3, prediction: 'A' },
      { task_type: 'closed_event_counting', index: 0, prediction: 'A' },
      { task_type: 'closed_event_counting', index: 0, prediction: 'A', split: 'test' },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n{oops\n')
    const out = path.join(dir, 'qa-report')
    const r = await score({ qa: hc, predictions: preds, out })
    expect(r.code).toBe(0)
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ScoreReport
    const closed = report.rows.find((x) => x.task === 'closed_event_counting')!
    expect(closed).toMatchObject({ system: 'model', modality: 'unspecified', n: 2, failed: 1, missing: 0 })
    expect(closed.metrics.accuracy!.value).toBe(50)
    const open = report.rows.find((x) => x.task === 'open_event_counting')!
    expect(open).toMatchObject({ n: 1, missing: 1 })
    expect(open.metrics.mae!.value).toBe(1)
    const unmatched = report.problems.find((p) => p.kind === 'unmatched-line')!
    expect(unmatched.count).toBe(4)
    expect(unmatched.examples).toEqual([
      'line 5: no item 3 in valid/closed_event_counting (it has 3 items, from 0)',
      'line 6: a second prediction of model for valid/closed_event_counting/0; the first is kept',
      'line 7: split "test" is not in the folder (valid)',
      'line 8: not JSON: "{oops"',
    ])
    expect(report.problems.find((p) => p.kind === 'no-prediction')).toMatchObject({ count: 1, examples: ['valid/open_event_counting/0'] })
    expect(r.out).toContain('## Closed tasks')
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('(Table 4)')
  })

  it('reads a predictions file longer than one chunk: every line scored once, a repeat in a later chunk reported', async () => {
    const root = path.join(dir, 'hc-big', 'valid', 'Closed-QA')
    mkdirSync(root, { recursive: true })
    const n = 2600
    writeFileSync(path.join(root, 'closed_event_counting.json'), JSON.stringify(Array.from({ length: n }, (_, k) => element(`P${k % 40}`, 'closed_event_counting', 'How many PVCs? A. 2; B. 0; C. 3; D. 1', 'D. 1'))))
    const lines = ['a', 'b'].flatMap((model) => Array.from({ length: n }, (_, index) => ({ task_type: 'closed_event_counting', index, model, prediction: model === 'a' || index % 4 === 0 ? 'D' : 'A' })))
    lines.push({ task_type: 'closed_event_counting', index: 5, model: 'a', prediction: 'A' })
    const preds = path.join(dir, 'big-preds.jsonl')
    writeFileSync(preds, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
    const out = path.join(dir, 'big-report')
    await score({ qa: path.dirname(root), predictions: preds, out })
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ScoreReport
    expect(report.rows.map((r) => [r.system, r.n, r.missing, r.metrics.accuracy!.value])).toEqual([['a', n, 0, 100], ['b', n, 0, 25]])
    expect(report.problems).toEqual([expect.objectContaining({ kind: 'unmatched-line', count: 1, examples: [`line ${2 * n + 1}: a second prediction of a for valid/closed_event_counting/5; the first is kept`] })])
  })

  it('scores reports with a judge when one is given, and says ScoreGPT was not computed otherwise', async () => {
    const root = path.join(dir, 'hc-report', 'valid', 'Report-Generation')
    mkdirSync(root, { recursive: true })
    writeFileSync(path.join(root, 'report_general_summary.json'), JSON.stringify([element('A1', 'report_general_summary', 'Summarise.', 'Sinus rhythm, 3 PVCs.')]))
    const preds = path.join(dir, 'report-preds.jsonl')
    writeFileSync(preds, JSON.stringify({ task_type: 'report_general_summary', index: 0, prediction: 'Sinus rhythm.' }) + '\n')
    const judge = { signature: 'judge:test|prompt:abc|t:0', score: async () => ({ score: 64 }) }
    await score({ qa: path.dirname(root), predictions: preds, out: path.join(dir, 'judged'), judge })
    const judged = JSON.parse(readFileSync(path.join(dir, 'judged', 'report.json'), 'utf8')) as ScoreReport
    expect(judged.rows[0].metrics.scoreGpt).toMatchObject({ value: 64, signature: 'scoreGpt' })
    expect(judged.signatures.scoreGpt).toContain('judge:test|prompt:abc|t:0')
    await score({ qa: path.dirname(root), predictions: preds, out: path.join(dir, 'unjudged') })
    const plain = JSON.parse(readFileSync(path.join(dir, 'unjudged', 'report.json'), 'utf8')) as ScoreReport
    expect(plain.rows[0].metrics.scoreGpt).toMatchObject({ value: null, note: expect.stringContaining('no judge configured') })
  })

  it('needs --qa and --predictions together, and run directories or --qa', async () => {
    await expect(score({ qa: dir })).rejects.toThrow(/--qa and --predictions go together/)
    await expect(score({})).rejects.toThrow(/name at least one run directory/)
    await expect(score({ runDirs: [path.join(dir, 'nope')] })).rejects.toThrow(/not a run directory/)
  })
})

describe('pipeline score --multitask', () => {
  it('prints each model\'s MAE, F1 and accuracy per task and their win rates, and writes them with --out', async () => {
    const file = path.join(dir, 'mt.jsonl')
    const lines = [
      { id: '1', task: 'rr_interval', prediction: '800', label: 820, model: 'a' },
      { id: '1', task: 'rr_interval', prediction: '700', label: 820, model: 'b' },
      { id: '2', task: 'gender', prediction: 'female', label: 1, model: 'a' },
      { id: '2', task: 'gender', prediction: 'female', label: 0, model: 'b' },
    ]
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
    const out = path.join(dir, 'mt')
    const r = await score({ multitask: file, out })
    expect(r.code).toBe(0)
    expect(r.out).toContain('| a | rr_interval | mae | 20.00 | 1 | 0 |')
    expect(r.out).toContain('| b | gender | f1 | 0.0 | 1 | 0 |')
    expect(r.out).toContain('| a | 2 | 2 | 100.0 % |')
    expect(JSON.parse(readFileSync(path.join(out, 'multitask.json'), 'utf8')).signatures.multitask).toMatch(/^multitask\|/)
  })

  it('names the line that is not JSON', async () => {
    const file = path.join(dir, 'bad.jsonl')
    writeFileSync(file, '{"id": 1, "task": "age", "prediction": 3, "label": 4}\nnope\n')
    await expect(score({ multitask: file })).rejects.toThrow(/bad\.jsonl:2 is not JSON/)
  })
})
