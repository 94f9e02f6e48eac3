// `pipeline score --judge <file.yaml>` in process, through the command's own yargs definition
// (src/cli/score.ts): a small real run (bundled records 100 and 101, the report tasks asked about
// a whole-record excerpt set as in pipelines/bench-mitdb.yaml, answered by two baselines) scored
// with the loopback chat server as ScoreGPT's judge. The judge answers every criterion the task's
// prompt asks for with one score per task, so each report row's ScoreGPT is known exactly.
// Checked: ScoreGPT and its signature in report.json, report.md and index.html; a second scoring
// asks the judge nothing (the replies are in <out>/judge-cache, or the --judge-cache named);
// a judge answering 500 and then nonsense gives per-item errors counted in the report, which is
// still written; the judge file is validated once, its problems naming the file, key and line.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import yargs from 'yargs'
import { parse, stringify } from 'yaml'
import score from '../../src/cli/score.ts'
import { runCommand } from '../../src/commands/run.ts'
import { createScoreJudge, readJudgeConfig } from '../../src/commands/score-judge.ts'
import { PipelineError } from '../../src/core/errors.ts'
import { JUDGED_TASKS } from '../../src/metrics/judge-criteria.ts'
import { judgeMessages } from '../../src/metrics/judge-prompt.ts'
import { judgeSignatureFor } from '../../src/models/judge.ts'
import type { ScoreReport } from '../../src/report/report-types.ts'
import { startChatServer, type ChatServer } from '../helpers/chat-server.ts'
import { ROOT } from '../helpers/shared.ts'
import { smallBenchYaml } from '../helpers/small-bench.ts'
import { pipelineRejection as thrown } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const dir = tmpDir('hp-score-judge-')
const signal = new AbortController().signal
const KEY_ENV = 'HP_SCORE_JUDGE_KEY'
const KEY = 'sk-judge-loopback'
const REPORT_TASKS = Object.keys(JUDGED_TASKS)
// The score the loopback judge gives every criterion of a task: ScoreGPT of every answer.
const GIVES: Record<string, number> = { report_general_summary: 80, report_statistical_overview: 60 }
const run = path.join(dir, 'bench')
let server: ChatServer

// The judged task whose prompt a request carries (its system message is the task's own).
function taskOf(body: { messages: { content: string }[] }): string {
  const task = REPORT_TASKS.find((t) => judgeMessages(t, '', '')[0].content === body.messages[0].content)
  if (!task) throw new Error('the request is not a judge prompt')
  return task
}

const scoresFor = (body: { messages: { content: string }[] }) => {
  const task = taskOf(body)
  return JSON.stringify(Object.fromEntries(JUDGED_TASKS[task].map((k) => [k, GIVES[task]])))
}

function judgeFile(name: string, over: Record<string, unknown> = {}): string {
  const file = path.join(dir, `${name}.yaml`)
  writeFileSync(file, stringify({ name, kind: 'openai-compatible', baseURL: server.url, model: 'test-model', apiKeyEnv: KEY_ENV, temperature: 0, ...over }))
  return file
}

// `pipeline score ...args` through the command's yargs definition, in process.
async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough()
  let out = ''
  stdout.on('data', (d: Buffer) => (out += d.toString()))
  const env = { signal, stdout: stdout as unknown as NodeJS.WriteStream, stderr: process.stderr, args: ['score', ...args] }
  let code = -1
  await yargs(['score', ...args])
    .command(score.command, score.describe, score.builder, async (a) => void (code = await score.handler(a as never, env)))
    .strict()
    .fail((msg, err) => {
      throw err ?? new Error(msg)
    })
    .parseAsync()
  return { code, out }
}

const readReport = (out: string) => JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ScoreReport
const reportRows = (r: ScoreReport) => r.rows.filter((row) => REPORT_TASKS.includes(row.task))

beforeAll(async () => {
  process.env[KEY_ENV] = KEY
  server = await startChatServer({ apiKey: KEY, answer: scoresFor })
  const dataset = parse(smallBenchYaml({ records: ['100', '101'], inputs: ['text'] })) as { stages: ({ use: string; options: any } | string)[] }
  const qa = dataset.stages.findIndex((s) => typeof s === 'object' && s.use === 'qa')
  // The question tasks on the 20-second excerpts; the report tasks on the whole record (bench-mitdb's qa-record).
  const qaStage = dataset.stages[qa] as { options: { sets: Record<string, unknown> } }
  qaStage.options.sets = {
    'qa-1min': { tasks: ['closed_presence', 'open_event_counting'], inputs: ['text'] },
    'qa-record': { tasks: REPORT_TASKS },
  }
  dataset.stages.splice(qa, 0, { use: 'excerpt', options: { set: 'qa-record', whole: { maxSec: 1900 } } })
  dataset.stages.push({ use: 'infer', options: { models: [{ name: 'random', kind: 'random', seed: 1 }, { name: 'holter-dsp', kind: 'holter-dsp' }] } })
  const yaml = path.join(dir, 'bench.yaml')
  writeFileSync(yaml, stringify(dataset))
  let err = ''
  const errStream = new PassThrough()
  errStream.on('data', (d: Buffer) => (err += d.toString()))
  expect(await runCommand({ dataset: yaml, out: run, signal, err: errStream }), err).toBe(0)
})

afterAll(async () => {
  delete process.env[KEY_ENV]
  await server?.close()
})

describe('pipeline score --judge', () => {
  const out = path.join(dir, 'report')
  let file: string
  let first: { code: number; out: string }
  let requests = 0

  beforeAll(async () => {
    file = judgeFile('loopback-judge')
    first = await cli(run, '--judge', file, '--out', out, '--resamples', '100')
    requests = server.requests.length
  })

  it('adds ScoreGPT to every report row, with the judge\'s signature, in report.json, report.md and index.html', async () => {
    expect(first.code).toBe(0)
    const report = readReport(out)
    const rows = reportRows(report)
    expect(new Set(rows.map((r) => r.task))).toEqual(new Set(REPORT_TASKS))
    expect(new Set(rows.map((r) => r.system))).toEqual(new Set(['random', 'holter-dsp']))
    for (const r of rows) expect([r.task, r.system, r.n, r.metrics.scoreGpt?.value, r.metrics.scoreGpt?.signature]).toEqual([r.task, r.system, 2, GIVES[r.task], 'scoreGpt'])
    for (const r of report.rows.filter((x) => !REPORT_TASKS.includes(x.task))) expect(r.metrics.scoreGpt, r.task).toBeUndefined()
    const signature = judgeSignatureFor(await readJudgeConfig(file))
    expect(report.settings.scoreGpt).toBe(signature)
    expect(report.signatures.scoreGpt).toContain(signature)
    for (const t of REPORT_TASKS) expect(report.winRates.metricByTask[t]).toBe('scoreGpt')
    expect(report.problems.filter((p) => p.kind === 'judge-error')).toEqual([])
    const md = readFileSync(path.join(out, 'report.md'), 'utf8')
    expect(md).toContain(signature)
    expect(md).toMatch(/^\| holter-dsp \| none \| report_general_summary \| 2 \| 80\.0 \[80\.0, 80\.0\] \|/m)
    expect(md).not.toContain('not computed')
    const html = readFileSync(path.join(out, 'index.html'), 'utf8')
    expect(html).toContain('ScoreGPT')
    expect(html).toContain('80.0 [80.0, 80.0]')
    expect(html).toContain(signature)
    expect(html).not.toContain('not computed')
  })

  it('sends each distinct report answer once, with the key from apiKeyEnv, and says what it did', () => {
    expect(requests).toBeGreaterThan(0)
    expect(requests).toBeLessThanOrEqual(8)
    expect(server.requests.every((r) => r.status === 200 && r.headers.authorization === `Bearer ${KEY}`)).toBe(true)
    expect(server.repeatedCompleted()).toEqual([])
    expect(first.out).toContain(`judge loopback-judge (test-model): ${requests} calls, ${8 - requests} cached, 0 failed, 0 invalid replies; replies kept in ${path.join(out, 'judge-cache', 'judge')}`)
    expect(readdirSync(path.join(out, 'judge-cache', 'judge')).length).toBeGreaterThan(0)
  })

  it('scoring again asks the judge nothing: every reply comes from <out>/judge-cache, or the --judge-cache named', async () => {
    const again = await cli(run, '--judge', file, '--out', out, '--resamples', '100')
    expect(again.code).toBe(0)
    expect(again.out).toContain('judge loopback-judge (test-model): 0 calls, 8 cached, 0 failed')
    const other = path.join(dir, 'report-elsewhere')
    const shared = await cli(run, '--judge', file, '--judge-cache', path.join(out, 'judge-cache'), '--out', other, '--resamples', '100')
    expect(shared.code).toBe(0)
    expect(server.requests.length).toBe(requests)
    const scores = (r: ScoreReport) => reportRows(r).map((x) => [x.task, x.system, x.metrics.scoreGpt?.value])
    expect(scores(readReport(out))).toEqual(scores(readReport(other)))
    expect(existsSync(path.join(other, 'judge-cache'))).toBe(false)
  })

  it('a judge answering 500 and then nonsense gives per-item errors, counted in the report, which is still written', async () => {
    let k = 0
    server.setBehaviour(() => {
      k++
      if (k <= 2) return { kind: 'status', status: 500 }
      if (k === 3) return { kind: 'answer', text: 'A fine report, I would give it 8/10.' }
      return undefined
    })
    try {
      // One at a time, so the server's replies reach the items in a known order.
      const flaky = judgeFile('flaky-judge', { retries: 1, backoff: { minMs: 0, maxMs: 0 }, concurrency: 1 })
      const badOut = path.join(dir, 'report-flaky')
      const r = await cli(run, '--judge', flaky, '--out', badOut, '--resamples', '100')
      expect(r.code).toBe(0)
      const report = readReport(badOut)
      const problem = report.problems.find((p) => p.kind === 'judge-error')!
      expect(problem.count).toBe(2)
      expect(problem.examples!.join('\n')).toMatch(/@\S+: http-500: judge "flaky-judge" failed after 2 attempt\(s\)[^]*@\S+: invalid-reply: the judge's reply is not a JSON object of scores/)
      const values = reportRows(report).map((x) => x.metrics.scoreGpt?.value)
      expect(values.every((v, i) => v === null || v === GIVES[reportRows(report)[i].task])).toBe(true)
      expect(values.filter((v) => v !== null).length).toBeGreaterThan(0)
      expect(r.out).toContain('judge flaky-judge (test-model): 7 calls, 0 cached, 1 failed, 1 invalid replies')
      expect(readFileSync(path.join(badOut, 'report.md'), 'utf8')).toContain('the judge could not score 2 report answers')
      expect(existsSync(path.join(badOut, 'index.html'))).toBe(true)
    } finally {
      server.setBehaviour(undefined)
    }
  })
})

describe('the judge file', () => {
  it('is validated once, before anything is read or written: each problem names the file, the key and its line', async () => {
    const file = path.join(dir, 'bad-judge.yaml')
    writeFileSync(file, ['name: j', 'kind: openai-compatible', 'baseURL: http://user:pw@127.0.0.1:8000/v1', 'model: m', 'temperature: 5', 'tempreature: 0', 'backoff: {minMs: 1, max: 2}', ''].join('\n'))
    const out = path.join(dir, 'never-written')
    const err = await thrown(cli(run, '--judge', file, '--out', out))
    expect(err).toBeInstanceOf(PipelineError)
    expect((err as PipelineError).context.file).toBe(file)
    expect((err as PipelineError).message).toBe([
      '4 problems:',
      '  line 3 baseURL: a URL without a user, password or query (it is written to the manifest): put a key in the variable apiKeyEnv names, found "http://user:pw@127.0.0.1:8000/v1"',
      '  line 5 temperature: Too big: expected number to be <=2, found 5',
      '  line 6 tempreature: unknown key "tempreature"; allowed keys here: name, only, kind, baseURL, model, apiKeyEnv, modality, video, temperature, maxTokens, seed, timeoutMs, body, limits, overBudget, concurrency, rpm, tpm, retries, backoff, onError, prices',
      '  line 7 backoff.max: unknown key "max"; allowed keys here: minMs, maxMs, maxRetryAfterMs',
    ].join('\n'))
    expect(existsSync(out)).toBe(false)
  })

  it('says what a judge cannot be, and reports bad YAML, an empty file and a missing one like a dataset file', async () => {
    const write = (name: string, text: string) => {
      const file = path.join(dir, name)
      writeFileSync(file, text)
      return file
    }
    const images = write('images-judge.yaml', 'name: j\nkind: openai-compatible\nbaseURL: http://127.0.0.1:8000/v1\nmodel: m\nmodality: images\n')
    expect(await thrown(readJudgeConfig(images))).toMatchObject({ code: 'E_CONFIG_VALUE', context: { file: images, yamlPath: 'modality', line: 5 } })
    const noModel = write('no-model.yaml', 'name: j\nkind: openai-compatible\nbaseURL: http://127.0.0.1:8000/v1\n')
    expect(await thrown(readJudgeConfig(noModel))).toMatchObject({ code: 'E_CONFIG_VALUE', message: 'required string is missing', context: { file: noModel, yamlPath: 'model' } })
    const yaml = write('broken.yaml', 'name: j\nkind: [openai-compatible\n')
    expect(await thrown(readJudgeConfig(yaml))).toMatchObject({ code: 'E_CONFIG_YAML', context: { file: yaml }, message: expect.stringMatching(/^invalid YAML at line \d/) })
    expect(await thrown(readJudgeConfig(write('empty.yaml', '')))).toMatchObject({ code: 'E_CONFIG_VALUE', message: expect.stringContaining('found an empty file') })
    expect(await thrown(readJudgeConfig(path.join(dir, 'nope.yaml')))).toMatchObject({ code: 'E_FILE_MISSING' })
    expect(await thrown(cli(run, '--judge-cache', dir))).toMatchObject({ code: 'E_USAGE', message: expect.stringContaining('give it with --judge') })
    expect(await thrown(cli(run, '--judge', images, '--judge', images))).toMatchObject({ code: 'E_USAGE', message: '--judge was given 2 times; give it once' })
  })

  it('the examples are valid; the OpenAI one needs its key before anything is scored', async () => {
    const openai = await readJudgeConfig(path.join(ROOT, 'pipelines/examples/judge-openai.yaml'))
    expect(openai).toMatchObject({ kind: 'openai-compatible', model: 'gpt-4o', apiKeyEnv: 'OPENAI_API_KEY', temperature: 0 })
    const local = await readJudgeConfig(path.join(ROOT, 'pipelines/examples/judge-local.yaml'))
    expect(local).toMatchObject({ baseURL: 'http://127.0.0.1:8000/v1', temperature: 0 })
    expect(local.apiKeyEnv).toBeUndefined()
    const missing = await thrown(createScoreJudge(path.join(ROOT, 'pipelines/examples/judge-openai.yaml'), { cacheDir: path.join(dir, 'c'), signal, env: {} }))
    expect(missing).toMatchObject({ code: 'E_SECRET_MISSING', message: expect.stringContaining('OPENAI_API_KEY') })
  })
})
