// `pipeline models check` against a real chat-completions server on 127.0.0.1 and a real small
// benchmark run (record 100, 20-second excerpts as text): one short call per API model, each
// failure said in words a user can act on (key refused, model unknown, server down, key variable
// unset), and every item's budget checked with no other request sent.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { modelsCheckCommand } from '../../src/commands/models-check.ts'
import { runCommand } from '../../src/commands/run.ts'
import { startChatServer, type ChatServer } from '../helpers/chat-server.ts'
import { ndjson } from '../helpers/qa-run.ts'
import { smallBenchYaml } from '../helpers/small-bench.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-models-check-')
const signal = new AbortController().signal
let server: ChatServer

function sink(): Writable & { text: string } {
  const w = Object.assign(new Writable({ write: (chunk, _, done) => ((w.text += String(chunk)), done()) }), { text: '' })
  return w
}

beforeAll(async () => {
  server = await startChatServer({ apiKey: 'right-key' })
  writeFileSync(path.join(work, 'bench.yaml'), smallBenchYaml({ inputs: ['text'] }))
  const err = sink()
  expect(await runCommand({ dataset: path.join(work, 'bench.yaml'), out: path.join(work, 'bench'), signal, err }), err.text).toBe(0)
})
afterAll(() => server.close())

function evalYaml(models: string[]): string {
  const file = path.join(work, `eval-${Math.random().toString(36).slice(2)}.yaml`)
  writeFileSync(file, ['name: e', 'input: {run: bench, kinds: [qa]}', 'stages:', '  - use: infer', '    options:', '      models:', ...models.map((m) => `        - ${m}`), ''].join('\n'))
  return file
}

// A model entry as flow YAML (JSON is YAML); `over` replaces or adds fields.
const api = (name: string, over: Record<string, unknown> = {}) => JSON.stringify({ name, kind: 'openai-compatible', baseURL: server.url, model: 'test-model', apiKeyEnv: 'HP_CHECK_KEY', ...over })

describe('pipeline models check', () => {
  it('says which models answer and why the others do not, with one request each', async () => {
    const items = ndjson(path.join(work, 'bench/qa.ndjson')).length
    const n = server.requests.length
    const out = sink()
    const code = await modelsCheckCommand({
      dataset: evalYaml([
        api('good'),
        api('wrong-key', { apiKeyEnv: 'HP_CHECK_WRONG' }),
        api('unknown', { model: 'no-such-model' }),
        '{name: down, kind: openai-compatible, baseURL: "http://127.0.0.1:9/v1", model: m}',
        api('unset', { apiKeyEnv: 'HP_CHECK_UNSET' }),
        '{name: rnd, kind: random}',
      ]),
      out, signal, env: { HP_CHECK_KEY: 'right-key', HP_CHECK_WRONG: 'wrong-key' },
    })
    expect(code).toBe(1)
    expect(out.text).toMatch(/^good: ok - .* answered as test-model/m)
    expect(out.text).toMatch(/^wrong-key: FAILED - the key in HP_CHECK_WRONG was refused/m)
    expect(out.text).toMatch(/^unknown: FAILED - the server does not know model "no-such-model"/m)
    expect(out.text).toMatch(/^down: FAILED - http:\/\/127\.0\.0\.1:9\/v1 cannot be reached/m)
    expect(out.text).toMatch(/^unset: FAILED - the environment variable HP_CHECK_UNSET is not set/m)
    expect(out.text).toMatch(/^rnd: built-in baseline \(random\), no call needed/m)
    // good, wrong-key and unknown reached the server (the first with a 1-word answer asked for); nothing else was sent.
    expect(server.requests.slice(n).map((r) => r.behaviour)).toEqual(['answer', 'unauthorized', 'unknown-model'])
    expect(server.requests[n].body.max_tokens).toBeLessThanOrEqual(16)
    expect(out.text).toContain(`good | text | ${items} | ${items} | 0 | 0 | 0 | 0`)
  })

  it('counts what each budget policy would do, and fails when an item would fail the run', async () => {
    const env = { HP_CHECK_KEY: 'right-key' }
    const tokens = ndjson<{ inputs: { text: { tokens: number } } }>(path.join(work, 'bench/qa.ndjson')).map((q) => q.inputs.text.tokens)
    const small = Math.min(...tokens) + 200
    const out = sink()
    const n = server.requests.length
    const code = await modelsCheckCommand({ dataset: evalYaml([api('skip', { limits: { contextTokens: small } }), api('down', { limits: { contextTokens: small }, overBudget: 'downsample' }), api('images', { modality: 'images' })]), out, signal, env })
    expect(code).toBe(0)
    expect(server.requests.length - n).toBe(3)
    const row = (name: string) => out.text.split('\n').find((l) => l.startsWith(`${name} |`))!.split(' | ')
    const [, , items, fit, down, skip, fail, none] = row('skip').map(Number)
    expect(items).toBe(tokens.length)
    expect(fit + skip).toBe(items)
    expect(skip).toBeGreaterThan(0)
    expect([down, fail, none]).toEqual([0, 0, 0])
    expect(row('down').slice(3, 6).map(Number)).toEqual([fit, skip, 0])
    expect(row('images').slice(2).map(Number)).toEqual([items, 0, 0, 0, 0, items])
    expect(out.text).toMatch(/contextTokens \d+ > \d+ -> skip/)
    const failing = sink()
    expect(await modelsCheckCommand({ dataset: evalYaml([api('fail', { limits: { contextTokens: small }, overBudget: 'fail' })]), out: failing, signal, env })).toBe(1)
    expect(failing.text).toMatch(/-> fail/)
  })
})
