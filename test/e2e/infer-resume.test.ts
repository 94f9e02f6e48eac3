// Issue 14, "Done when": kill -9 a running `pipeline run` of the infer stage at several points,
// then rerun: every QA item has exactly one prediction, the server saw no repeated request for a
// completed call, and the API key appears in no file of the run directory.
// The kills are placed by the server, not by time: from a chosen request on it holds every request
// (`hang`), and the child is killed once two are held. The model's concurrency is 2, so both
// slots are then busy with held calls; as an answer is cached before its slot is released
// (src/models/api-predict.ts), every answer received before that moment is in the cache, and a
// rerun must send none of them again. The benchmark (records 100 and 101 as text, every task) is
// built once; the evaluation reads it (input: {run, kinds: [qa]}) one record at a time, so the
// last kill lands in the second record, after the first one is done.
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PredictionItem } from '../../src/models/model.ts'
import { startChatServer, type Behaviour, type ChatServer } from '../helpers/chat-server.ts'
import { linesOf, runCli, startCli, type Exit, type Started } from '../helpers/child.ts'
import { deferred } from '../helpers/deferred.ts'
import { smallBenchYaml } from '../helpers/small-bench.ts'
import { filesUnder, tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-infer-resume-')
const at = (...p: string[]) => path.join(work, ...p)
const bench = at('bench')
const cacheDir = at('cache')
const evalDir = at('eval')
const KEY = `sk-e2e-${randomBytes(12).toString('hex')}`
const env = { HP_E2E_KEY: KEY }

let server: ChatServer
let qaIds: string[]
const outputs: string[] = []
const live = new Set<Started>()

/** Writes an evaluation dataset: the benchmark's QA items before `models`, answers in the shared cache. */
function writeEvalDataset(file: string, models: Record<string, unknown>[]): string {
  writeFileSync(file, [
    `name: ${path.basename(file, '.yaml')}`,
    `input: {run: ${bench}, kinds: [qa]}`,
    'concurrency: {records: 1}',
    `cache: ${cacheDir}`,
    'stages:',
    `  - {use: infer, options: {models: ${JSON.stringify(models)}}}`,
    '',
  ].join('\n'))
  return file
}

function model(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'm1', kind: 'openai-compatible', baseURL: server.url, model: 'test-model', apiKeyEnv: 'HP_E2E_KEY', modality: 'text', concurrency: 2, retries: 2, backoff: { minMs: 10, maxMs: 50 }, ...over }
}

function start(args: string[]): Started {
  const run = startCli(args, { env })
  live.add(run)
  void run.exit.then((e) => {
    live.delete(run)
    outputs.push(e.stdout, e.stderr)
  })
  return run
}

async function finish(args: string[]): Promise<Exit> {
  const e = await start(args).exit
  expect(e.code, e.stderr).toBe(0)
  return e
}

/**
 * Runs the evaluation with every request held from the first one `holdFrom(k)` accepts on (k:
 * the session's 1-based request count), and sends `signal` once two are held: both model slots busy.
 */
async function stopWhenHeld(yaml: string, holdFrom: (k: number) => boolean, signal: NodeJS.Signals, hold: Behaviour = { kind: 'hang' }): Promise<Exit> {
  const twoHeld = deferred()
  let k = 0
  let held = 0
  server.setBehaviour(() => {
    if (held === 0 && !holdFrom(++k)) return undefined
    if (++held === 2) twoHeld.resolve()
    return hold
  })
  const run = start(['run', yaml, '--out', evalDir])
  try {
    const ended = await Promise.race([twoHeld.promise.then(() => null), run.exit])
    expect(ended, `the run ended before two requests were held: ${ended?.stderr}`).toBeNull()
    run.child.kill(signal)
    return await run.exit
  } finally {
    server.setBehaviour(undefined)
  }
}

const sent = (from = 0) => server.requests.slice(from)
const completedBodies = () => new Set(server.requests.filter((r) => r.completed).map((r) => r.bodyHash))
const cacheEntries = () => filesUnder(path.join(cacheDir, 'models')).filter((f) => f.endsWith('.json'))
const predictions = (dir: string) => linesOf(path.join(dir, 'prediction.ndjson')) as unknown as PredictionItem[]
const doneRecords = () => linesOf(path.join(evalDir, 'checkpoints.ndjson')).filter((c) => c.status === 'done').map((c) => c.recordId)

/** Every file under `dirs` (cache entries, partial ones included), none holding the key. */
function expectNoKeyIn(dirs: string[]): string[] {
  const files = dirs.flatMap((dir) => filesUnder(dir).map((f) => path.join(dir, f)))
  for (const f of files) expect(readFileSync(f).includes(KEY), f).toBe(false)
  return files
}

/** After a SIGKILL: every answer the server finished sending is in the cache, and none was sent twice. */
function expectEveryAnswerCached(): void {
  expect(cacheEntries()).toHaveLength(completedBodies().size)
  expect(server.repeatedCompleted().map((r) => r.id)).toEqual([])
}

describe('infer: interrupted runs resume without paying twice (CLI child, chat server with a key)', () => {
  const yaml = at('eval.yaml')

  beforeAll(async () => {
    server = await startChatServer({ apiKey: KEY })
    writeFileSync(at('bench.yaml'), smallBenchYaml({ records: ['100', '101'], inputs: ['text'] }))
    await finish(['run', at('bench.yaml'), '--out', bench])
    qaIds = linesOf(path.join(bench, 'qa.ndjson')).map((q) => q.id as string)
    expect(new Set(linesOf(path.join(bench, 'qa.ndjson')).map((q) => q.recordId))).toEqual(new Set(['100', '101']))
    writeEvalDataset(yaml, [model()])
  })

  afterAll(async () => {
    // A failed test may leave a child running (its requests held): it is ours, by its pid.
    for (const run of live) run.child.kill('SIGKILL')
    await Promise.all([...live].map((r) => r.exit))
    await server?.close()
  })

  it('SIGKILL at the third call: the two answers received are in the cache', async () => {
    const killed = await stopWhenHeld(yaml, (k) => k >= 3, 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    expect(sent().filter((r) => r.completed)).toHaveLength(2)
    expectEveryAnswerCached()
  })

  it('SIGKILL in the middle of the first record: the earlier answers come from the cache, not the server', async () => {
    const before = server.requests.length
    const killed = await stopWhenHeld(yaml, (k) => k >= 12, 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    expect(sent(before).filter((r) => r.completed)).toHaveLength(11)
    expect(doneRecords()).toEqual([])
    expectEveryAnswerCached()
  })

  it('SIGINT stops the run with exit code 130 and says how to resume; the calls on the wire are answered and stored first', async () => {
    const completed = completedBodies().size
    const stopped = await stopWhenHeld(yaml, (k) => k >= 6, 'SIGINT', { kind: 'answer', delayMs: 1500 })
    // The two calls held when Ctrl-C came were answered (and may be billed): both are in the cache.
    expect(completedBodies().size).toBe(completed + 5 + 2)
    expect(stopped.code).toBe(130)
    expect(stopped.stderr).toContain('run the same command again to resume')
    expect(linesOf(path.join(evalDir, 'progress.ndjson')).at(-1)).toMatchObject({ t: 'run-end', status: 'interrupted' })
    expectEveryAnswerCached()
  })

  it('SIGKILL in the second record, after the first is done', async () => {
    let after = 0
    const killed = await stopWhenHeld(yaml, () => doneRecords().length === 1 && ++after >= 3, 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    expect(doneRecords()).toHaveLength(1)
    expectEveryAnswerCached()
  })

  it('the rerun finishes: one prediction per QA item, none with an error, no completed call sent again', async () => {
    const before = server.requests.length
    const unanswered = qaIds.length - cacheEntries().length
    const done = await finish(['run', yaml, '--out', evalDir])
    expect(done.stderr).toContain('1 record done, 1 already done before, 0 failed')
    const preds = predictions(evalDir)
    expect(preds.map((p) => p.id).sort()).toEqual(qaIds.map((id) => `${id}@m1`).sort())
    expect(preds.filter((p) => p.error)).toEqual([])
    expect(server.repeatedCompleted().map((r) => r.id)).toEqual([])
    // Each item's answer is the one the server sent for its request (the default answer names the body's hash).
    const answers = new Set([...completedBodies()].map((h) => `B${h!.slice(0, 8)}`))
    expect(new Set(preds.map((p) => p.answer))).toEqual(answers)
    expect(answers.size).toBe(qaIds.length)
    expect(cacheEntries()).toHaveLength(qaIds.length)
    // The last session sent only what the kills had left unanswered; every request carried the key, no file holds it.
    expect(sent(before)).toHaveLength(unanswered)
    expect(sent().every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true)
    expectNoKeyIn([evalDir, cacheDir])
  })

  it('another run sharing the cache sends no request and answers every item from it', async () => {
    const before = server.requests.length
    const other = at('eval-2')
    await finish(['run', writeEvalDataset(at('eval-2.yaml'), [model()]), '--out', other])
    expect(sent(before)).toEqual([])
    const first = new Map(predictions(evalDir).map((p) => [p.id, p.answer]))
    const preds = predictions(other)
    expect(preds).toHaveLength(qaIds.length)
    for (const p of preds) expect(p, p.id).toMatchObject({ cached: true, answer: first.get(p.id) })
  })

  it('--restart with a second model sends requests for the new model only', async () => {
    const before = server.requests.length
    const two = writeEvalDataset(at('eval-two.yaml'), [model(), model({ name: 'm2', temperature: 0.5 })])
    await finish(['run', two, '--out', evalDir, '--restart'])
    const fresh = sent(before)
    expect(fresh).toHaveLength(qaIds.length)
    expect(fresh.every((r) => r.body.temperature === 0.5 && r.completed)).toBe(true)
    expect(server.repeatedCompleted().map((r) => r.id)).toEqual([])
    const preds = predictions(evalDir)
    expect(preds.map((p) => p.id).sort()).toEqual(qaIds.flatMap((id) => [`${id}@m1`, `${id}@m2`]).sort())
    expect(preds.filter((p) => p.model === 'm1').every((p) => p.cached)).toBe(true)
    expect(preds.filter((p) => p.model === 'm2').some((p) => p.cached)).toBe(false)
    expect(preds.filter((p) => p.error)).toEqual([])
  })

  it('the API key is in no file of the run directories or the cache, nor in any output of the CLI', () => {
    const files = expectNoKeyIn([evalDir, at('eval-2'), cacheDir]).map((f) => path.relative(work, f))
    for (const run of ['eval', 'eval-2']) {
      expect(files).toEqual(expect.arrayContaining(['manifest.json', 'progress.ndjson', 'checkpoints.ndjson', 'prediction.ndjson'].map((f) => `${run}/${f}`)))
    }
    expect(files.filter((f) => f.startsWith('cache/'))).toHaveLength(2 * qaIds.length)
    expect(outputs).toHaveLength(2 * 8) // the benchmark, four stopped sessions, the rerun, the shared-cache run, the restart
    for (const o of outputs) expect(o.includes(KEY)).toBe(false)
  })
})
