// The qa stage's optional writer model (src/models/answer-writer.ts) on a real small benchmark of
// record 100, against the loopback chat server: faithful rewrites replace the template answers,
// a reply that changes a number or is not JSON is rejected and the template kept (the item says
// why), tasks not named keep their templates, and a rerun sends no request (the cache).
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCommand } from '../../src/commands/run.ts'
import type { QaItem } from '../../src/core/items.ts'
import { startChatServer, type ChatServer } from '../helpers/chat-server.ts'
import { ndjson } from '../helpers/qa-run.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-qa-writer-')
const signal = new AbortController().signal
let server: ChatServer

// Which reply a draft gets: a faithful rewrite, a number changed, or no JSON at all.
function variant(draft: string): 'faithful' | 'number' | 'garbage' {
  const h = createHash('sha256').update(draft).digest()[0] % 3
  return h === 0 ? 'number' : h === 1 ? 'garbage' : 'faithful'
}

function reply(body: { messages: { content: string }[] }): string {
  const { draft } = JSON.parse(body.messages[1].content) as { draft: string }
  const v = variant(draft)
  if (v === 'garbage') return 'Sure! Here is the answer you asked for.'
  if (v === 'number') return JSON.stringify({ answer: draft.replace(/\d+/, (d) => String(Number(d) + 7)) })
  return JSON.stringify({ answer: draft.replaceAll('; ', '. ') + ' ' })
}

function sink(): Writable & { text: string } {
  const w = Object.assign(new Writable({ write: (chunk, _, done) => ((w.text += String(chunk)), done()) }), { text: '' })
  return w
}

async function run(restart: boolean): Promise<QaItem[]> {
  const err = sink()
  expect(await runCommand({ dataset: path.join(work, 'bench.yaml'), out: path.join(work, 'bench'), signal, err, restart }), err.text).toBe(0)
  return ndjson<QaItem>(path.join(work, 'bench/qa.ndjson'))
}

beforeAll(async () => {
  server = await startChatServer({ answer: reply })
  writeFileSync(path.join(work, 'bench.yaml'), [
    'name: bench',
    'records:',
    `  - path: ${path.join(ROOT, 'samples/mitdb/100')}`,
    `cache: ${path.join(work, 'cache')}`,
    'stages: [read, annotate, quality, clean, detect,',
    '  {use: excerpt, options: {set: s, stratified: {lengthSec: 20, perHour: 12, seed: 1}}},',
    '  {use: excerpt, options: {set: rec, whole: {maxSec: 1900}}},',
    '  {use: qa, options: {seed: 1, sets: {s: [open_evidence_reasoning, open_event_counting], rec: [report_general_summary, report_statistical_overview]},',
    `    writer: {model: {name: writer, baseURL: "${server.url}", model: test-model, concurrency: 3}}}}]`,
    '',
  ].join('\n'))
})
afterAll(() => server.close())

describe('qa: answers written by a model, checked against the facts', () => {
  it('keeps a written answer only when it says the same facts, and says why not otherwise', async () => {
    const items = await run(false)
    const written = items.filter((q) => q.written)
    expect(written.length).toBe(items.filter((q) => q.taskType !== 'open_event_counting').length)
    expect(new Set(written.map((q) => q.taskType))).toEqual(new Set(['open_evidence_reasoning', 'report_general_summary', 'report_statistical_overview']))
    expect(server.requests).toHaveLength(written.length)
    const by = (s: string) => written.filter((q) => q.written!.status === s)
    expect(by('accepted').length).toBeGreaterThan(0)
    expect(by('rejected').length).toBeGreaterThan(0)
    for (const q of by('accepted')) {
      expect(variant(q.written!.template!)).toBe('faithful')
      expect(q.answer).toBe(q.written!.template!.replaceAll('; ', '. '))
      expect(q.answer).not.toBe(q.written!.template)
    }
    for (const q of by('rejected')) {
      expect(q.written!.template).toBeUndefined()
      expect(q.written!.reason).toMatch(variant(q.answer) === 'garbage' ? /not the JSON object/ : /states \d+, which is not one of the facts' numbers/)
      expect(q.written!.reason).toMatch(/template answer is kept/)
    }
    // Each request carried the item's facts: its question and its template answer.
    const asked = server.requests.map((r) => JSON.parse(r.body.messages[1].content) as { question: string; draft: string })
    for (const q of written) expect(asked).toContainEqual(expect.objectContaining({ question: q.question, draft: q.written!.template ?? q.answer }))
  })

  it('a rerun from scratch sends no request and writes the same items', async () => {
    const before = readFileSync(path.join(work, 'bench/qa.ndjson'), 'utf8')
    const n = server.requests.length
    await run(true)
    expect(server.requests.length).toBe(n)
    expect(readFileSync(path.join(work, 'bench/qa.ndjson'), 'utf8')).toBe(before)
  })
})
