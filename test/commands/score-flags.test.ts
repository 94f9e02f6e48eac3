// The scoring settings of `pipeline score` as flags, through the command's yargs definition:
// timestamp F1's tolerance, ROUGE-L's stemming and tokenizer, McNemar's variant and the win
// rates' ties each change the numbers they should and are in the report's settings and
// signatures; values out of range are usage errors naming the flag.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import yargs from 'yargs'
import score from '../../src/cli/score.ts'
import type { ScoreReport } from '../../src/report/report-types.ts'
import { tmpDir } from '../helpers/tmp.ts'

const dir = tmpDir('hp-score-flags-')
const element = (id: string, task: string, question: string, answer: string) => ({ id, task_type: task, qa_pair: { question, answer }, tag: 'valid' })

// Closed items both models read (McNemar), one timing item, two report items (stems, non-ASCII).
const CLOSED = Array.from({ length: 12 }, (_, k) => element(`C${k}`, 'closed_presence', 'Which event is present? A. PVC; B. PAC; C. AF; D. VT', 'A. PVC'))
const TIMING = [element('T1', 'open_event_timing', 'When did the PVCs occur?', 'A total of 2 episodes of Premature Ventricular Contraction are detected. The specific timestamps are: 10000, 20000 ms.')]
const REPORTS = [
  element('R1', 'report_general_summary', 'Summarise.', 'Frequent premature beats were recorded.'),
  element('R2', 'report_general_summary', 'Summarise.', 'Синусовый ритм, частые экстрасистолы.'),
]

function writeInputs(): { qa: string; predictions: string } {
  const root = path.join(dir, 'hc', 'valid')
  for (const [tier, task, items] of [['Closed-QA', 'closed_presence', CLOSED], ['Open-QA', 'open_event_timing', TIMING], ['Report-Generation', 'report_general_summary', REPORTS]] as const) {
    mkdirSync(path.join(root, tier), { recursive: true })
    writeFileSync(path.join(root, tier, `${task}.json`), JSON.stringify(items))
  }
  const lines = [
    // a right on all 12, b right on 2: 10 discordant pairs, all one way.
    ...CLOSED.map((_, index) => ({ task_type: 'closed_presence', index, model: 'a', prediction: 'A' })),
    ...CLOSED.map((_, index) => ({ task_type: 'closed_presence', index, model: 'b', prediction: index < 2 ? 'A' : 'B' })),
    { task_type: 'open_event_timing', index: 0, model: 'a', prediction: 'At 10300 ms and 20000 ms.' },
    { task_type: 'open_event_timing', index: 0, model: 'b', prediction: 'At 10000 ms and 20000 ms.' },
    { task_type: 'report_general_summary', index: 0, model: 'a', prediction: 'Frequent premature beat were record.' },
    { task_type: 'report_general_summary', index: 1, model: 'a', prediction: 'Синусовый ритм, частые экстрасистолы.' },
    { task_type: 'report_general_summary', index: 0, model: 'b', prediction: 'Frequent premature beats were recorded.' },
    { task_type: 'report_general_summary', index: 1, model: 'b', prediction: 'Синусовый ритм, частые экстрасистолы.' },
  ]
  const predictions = path.join(dir, 'preds.jsonl')
  writeFileSync(predictions, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  return { qa: root, predictions }
}

async function cli(...args: string[]): Promise<ScoreReport> {
  const stdout = new PassThrough()
  stdout.resume()
  const env = { signal: new AbortController().signal, stdout: stdout as unknown as NodeJS.WriteStream, stderr: process.stderr, args: ['score', ...args] }
  let out = ''
  await yargs(['score', ...args])
    .command(score.command, score.describe, score.builder, async (a) => {
      out = (a as { out: string }).out
      await score.handler(a as never, env)
    })
    .strict()
    .fail((msg, err) => {
      throw err ?? new Error(msg)
    })
    .parseAsync()
  return JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ScoreReport
}

describe('pipeline score scoring flags', () => {
  const { qa, predictions } = writeInputs()
  const base = ['--qa', qa, '--predictions', predictions, '--resamples', '20', '--compare', 'a:b']
  const value = (r: ScoreReport, task: string, model: string, m: string) => r.rows.find((x) => x.task === task && x.model === model)!.metrics[m as 'rougeL']!.value

  it('defaults: 150 ms, rouge-score\'s tokenizer without stemming, exact McNemar, shared ties', async () => {
    const r = await cli(...base, '--out', path.join(dir, 'default'))
    expect(r.settings).toMatchObject({ toleranceMs: 150, rouge: { stem: false, tokenizer: 'rouge-score' }, mcnemar: { exact: true }, winRateTies: 'shared' })
    expect(value(r, 'open_event_timing', 'a', 'timestampF1')).toBe(50)
    expect(value(r, 'open_event_timing', 'b', 'timestampF1')).toBe(100)
    // The Russian report scores 0 for both with rouge-score's ASCII tokenizer (as rouge-score does).
    expect(value(r, 'report_general_summary', 'b', 'rougeL')).toBe(50)
    expect(value(r, 'report_general_summary', 'a', 'rougeL')).toBeLessThan(50)
    const pooled = r.comparisons.find((c) => c.task === 'closed_presence')!
    expect(pooled.table).toEqual([[2, 10], [0, 0]])
    expect(pooled.pValue).toBeCloseTo(2 * 0.5 ** 10, 12)
    expect(r.signatures.timestampF1).toContain('tol:150ms')
  })

  it('--tolerance-ms, --rouge-stem, --rouge-tokenizer unicode and --mcnemar chi2 change what they should', async () => {
    const r = await cli(...base, '--out', path.join(dir, 'set'), '--tolerance-ms', '500', '--rouge-stem', '--rouge-tokenizer', 'unicode', '--mcnemar', 'chi2', '--win-ties', 'none')
    expect(r.settings).toMatchObject({ toleranceMs: 500, rouge: { stem: true, tokenizer: 'unicode' }, mcnemar: { exact: false }, winRateTies: 'none' })
    expect(value(r, 'open_event_timing', 'a', 'timestampF1')).toBe(100)
    expect(value(r, 'report_general_summary', 'a', 'rougeL')).toBe(100)
    expect(value(r, 'report_general_summary', 'b', 'rougeL')).toBe(100)
    const pooled = r.comparisons.find((c) => c.task === 'closed_presence')!
    // chi-square with continuity correction: (|10 - 0| - 1)^2 / 10 = 8.1.
    expect(pooled.statistic).toBeCloseTo(8.1, 12)
    expect(r.signatures.mcnemar).toContain('chi2')
    expect(r.signatures.timestampF1).toContain('tol:500ms')
    expect(r.signatures.rougeL).toMatch(/tok:unicode\|stem:porter/)
    // a and b tie on every text task: with ties counting nothing, the tied tasks are no one's win.
    expect(r.winRates.contests.find((c) => c.task === 'report_general_summary')!.best).toEqual(['a', 'b'])
    expect(r.winRates.systems.a.wins).toBe(1)
    expect(r.signatures.winRate).toMatch(/ties:none\|.*\|contest:task$/)
  })

  it('--win-contests task-modality makes models compete per task and modality', async () => {
    const r = await cli(...base, '--out', path.join(dir, 'per-modality'), '--win-contests', 'task-modality')
    expect(r.settings.winContests).toBe('task-modality')
    expect(r.winRates.contestKind).toBe('task-modality')
    // These lines give no modality: every contest is the one setting "unspecified".
    expect(r.winRates.contests.every((c) => c.setting === 'unspecified')).toBe(true)
    expect(r.signatures.winRate).toContain('|contest:task-modality')
  })

  it('refuses values out of range, naming the flag', async () => {
    await expect(cli(...base, '--tolerance-ms', '-5')).rejects.toMatchObject({ code: 'E_USAGE', message: expect.stringContaining('--tolerance-ms: expected a number of ms >= 0, found -5') })
    await expect(cli(...base, '--mcnemar', 'fisher')).rejects.toThrow(/Invalid values[^]*mcnemar[^]*Given: "fisher", Choices: "exact", "chi2"/)
  })
})
