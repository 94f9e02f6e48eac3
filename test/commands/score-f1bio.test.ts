// `pipeline score --f1-bio`: the model's settings from an export folder or a YAML file, with
// errors that name the file and the key; then F1-Bio end to end through the command with a tiny
// BERT-shaped ONNX model, checked against the same model computed in plain JS
// (tinyBertReference) and matched by bertscoreMatch: an answer equal to its reference scores
// 100, another answer scores what bert_score's matching gives, with and without idf (idf over
// each task's references).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { resolveF1Bio } from '../../src/commands/score-f1bio.ts'
import { scoreCommand } from '../../src/commands/score.ts'
import { computeIdf, idfWeights } from '../../src/metrics/bertscore-idf.ts'
import { bertscoreMatch, type TokenEmbeddings } from '../../src/metrics/bertscore-match.ts'
import { createWordPiece } from '../../src/metrics/bertscore-wordpiece.ts'
import type { ScoreReport } from '../../src/report/report-types.ts'
import { describeWithOrt } from '../helpers/ort.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { TEST_VOCAB, tinyBertOnnx, tinyBertReference, tinyBertWeights } from '../metrics/bertscore-tiny-onnx.ts'

const dir = tmpDir('hp-f1bio-')
const weights = tinyBertWeights(TEST_VOCAB.split('\n').length - 1, 8)

// An export folder as optimum-cli writes one (the files F1-Bio reads).
function exportFolder(name: string, files: { config?: object | string; tokenizer?: object | null } = {}): string {
  const folder = path.join(dir, name)
  mkdirSync(folder, { recursive: true })
  writeFileSync(path.join(folder, 'model.onnx'), tinyBertOnnx(weights))
  writeFileSync(path.join(folder, 'vocab.txt'), TEST_VOCAB)
  const config = files.config ?? { _name_or_path: 'tiny-test-bert', num_hidden_layers: 1 }
  writeFileSync(path.join(folder, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config))
  if (files.tokenizer !== null) writeFileSync(path.join(folder, 'tokenizer_config.json'), JSON.stringify(files.tokenizer ?? { do_lower_case: true }))
  return folder
}

describe('--f1-bio settings', () => {
  it('reads an export folder: layer, case and name from its config files, the model file hashed', async () => {
    const s = await resolveF1Bio(exportFolder('plain'))
    expect(s).toMatchObject({ name: 'tiny-test-bert', layer: 1, lowerCase: true, idf: false, output: 'last_hidden_state', undefinedAs: 'nan' })
    expect(s.onnx).toBe(path.join(dir, 'plain', 'model.onnx'))
    expect(s.sha256).toMatch(/^[0-9a-f]{64}$/)
  })

  it('a YAML file overrides and adds (paths relative to it), and says what a folder cannot', async () => {
    exportFolder('bare', { config: {}, tokenizer: null })
    await expect(resolveF1Bio(path.join(dir, 'bare'))).rejects.toMatchObject({ code: 'E_CONFIG_VALUE', context: { field: 'layer' }, message: expect.stringContaining('has no num_hidden_layers') })
    const yaml = path.join(dir, 'bare.yaml')
    writeFileSync(yaml, 'model: bare\nlayer: 9\n')
    await expect(resolveF1Bio(yaml)).rejects.toMatchObject({ context: { field: 'lowerCase', file: yaml }, message: expect.stringContaining('tokenizer_config.json is missing; set lowerCase: true') })
    writeFileSync(yaml, 'model: bare/model.onnx\nvocab: bare/vocab.txt\nname: my-bert\nlayer: 9\nlowerCase: false\nidf: true\nbaseline: {P: 0.5, R: 0.5, F: 0.5}\n')
    expect(await resolveF1Bio(yaml)).toMatchObject({ name: 'my-bert', layer: 9, lowerCase: false, idf: true, baseline: { P: 0.5, R: 0.5, F: 0.5 }, vocab: path.join(dir, 'bare', 'vocab.txt') })
  })

  it('names the file, key and line of every problem in a YAML file', async () => {
    const yaml = path.join(dir, 'bad.yaml')
    writeFileSync(yaml, 'model: plain\nlayer: -1\nidff: true\n')
    const err = (await resolveF1Bio(yaml).catch((e: unknown) => e)) as Error & { context: { file?: string } }
    expect(err.context.file).toBe(yaml)
    expect(String(err)).toContain('line 2 layer: Too small')
    expect(String(err)).toMatch(/unknown key "idff"; allowed keys here: model, vocab, name, layer, lowerCase, idf/)
  })

  it('refuses a missing target, a file that is not YAML, a missing model.onnx and a broken config.json', async () => {
    await expect(resolveF1Bio(path.join(dir, 'nowhere'))).rejects.toMatchObject({ code: 'E_FILE_MISSING', message: expect.stringContaining('does not exist; give the folder optimum-cli exported') })
    await expect(resolveF1Bio(path.join(dir, 'plain', 'vocab.txt'))).rejects.toMatchObject({ code: 'E_USAGE' })
    const broken = exportFolder('broken', { config: '{"num_hidden_layers": ' })
    await expect(resolveF1Bio(broken)).rejects.toMatchObject({ code: 'E_CONFIG_VALUE', message: expect.stringContaining('config.json is not valid JSON') })
    const empty = path.join(dir, 'no-model')
    mkdirSync(empty)
    writeFileSync(path.join(empty, 'config.json'), JSON.stringify({ num_hidden_layers: 2 }))
    writeFileSync(path.join(empty, 'tokenizer_config.json'), JSON.stringify({ do_lower_case: false }))
    await expect(resolveF1Bio(empty)).rejects.toMatchObject({ code: 'E_FILE_MISSING', message: expect.stringContaining('should hold model.onnx') })
  })

  it('the example file is valid but for its model, which you export yourself', async () => {
    await expect(resolveF1Bio('pipelines/examples/f1-bio.yaml')).rejects.toMatchObject({ context: { field: 'model' }, message: expect.stringContaining('biobert-L9-onnx does not exist') })
  })
})

const element = (id: string, task: string, question: string, answer: string) => ({ id, task_type: task, qa_pair: { question, answer }, tag: 'valid' })

// Two report tasks (each with its own references, so idf is per task) and three models.
const ITEMS: Record<string, { id: string; answer: string }[]> = {
  report_general_summary: [
    { id: 'A1', answer: 'Sinus rhythm at 72 bpm.' },
    { id: 'A2', answer: 'Sinus bradycardia, premature beats.' },
    { id: 'A3', answer: 'Premature beats, ST-segment depression.' },
  ],
  report_statistical_overview: [
    { id: 'A1', answer: 'Sinus rhythm, 72 bpm, premature beats.' },
    { id: 'A2', answer: 'ST-segment depression at 72 bpm.' },
  ],
}
const TERSE = 'sinus rhythm'

function writeQa(): { qa: string; predictions: string } {
  const root = path.join(dir, 'hc', 'valid', 'Report-Generation')
  mkdirSync(root, { recursive: true })
  const lines: object[] = []
  for (const [task, items] of Object.entries(ITEMS)) {
    writeFileSync(path.join(root, `${task}.json`), JSON.stringify(items.map((i) => element(i.id, task, 'Summarise the recording.', i.answer))))
    items.forEach((item, index) => {
      lines.push({ task_type: task, index, model: 'echo', prediction: item.answer })
      lines.push({ task_type: task, index, model: 'terse', prediction: TERSE })
    })
  }
  const predictions = path.join(dir, 'preds.jsonl')
  writeFileSync(predictions, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  return { qa: path.dirname(root), predictions }
}

// F1 of a pair with the model computed in JS, optionally weighted by an idf over `refs`.
function expectedF1(hyp: string, ref: string, refs?: string[]): number {
  const wp = createWordPiece(TEST_VOCAB, { lowerCase: true })
  const table = refs ? computeIdf(refs.map((r) => wp.encode(r).ids), [wp.ids.cls, wp.ids.sep]) : undefined
  const side = (text: string): TokenEmbeddings => {
    const e = wp.encode(text)
    return {
      vectors: tinyBertReference(weights, e.ids, 'last_hidden_state'), dims: weights.dims,
      special: Uint8Array.from(e.tokens, (t) => (t === '[CLS]' || t === '[SEP]' ? 1 : 0)),
      ...(table ? { weights: idfWeights(table, e.ids) } : {}),
    }
  }
  return bertscoreMatch(side(hyp), side(ref)).f1
}

describeWithOrt('pipeline score --f1-bio with a tiny ONNX BERT', () => {
  async function run(f1BioPath: string, name: string): Promise<{ report: ScoreReport; out: string }> {
    const { qa, predictions } = writeQa()
    const stdout = new PassThrough()
    let text = ''
    stdout.on('data', (d: Buffer) => (text += d.toString()))
    const out = path.join(dir, name)
    expect(await scoreCommand({ runDirs: [], qa, predictions, out, f1BioPath, seed: 1, resamples: 50, stdout })).toBe(0)
    return { report: JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ScoreReport, out: text }
  }
  const f1Of = (r: ScoreReport, task: string, system: string) => r.rows.find((x) => x.task === task && x.system === system)!.metrics.f1Bio!

  it('scores every report answer: 100 for the reference itself, bert_score\'s F1 for another', async () => {
    const { report, out } = await run(exportFolder('tiny'), 'plain')
    for (const [task, items] of Object.entries(ITEMS)) {
      expect(f1Of(report, task, 'echo').value).toBeCloseTo(100, 4)
      const want = (100 * items.reduce((s, i) => s + expectedF1(TERSE, i.answer), 0)) / items.length
      expect(f1Of(report, task, 'terse').value).toBeCloseTo(want, 4)
      expect(f1Of(report, task, 'terse').value!).toBeLessThan(99)
      expect(f1Of(report, task, 'terse').ci).toBeDefined()
    }
    expect(report.signatures.f1Bio).toMatch(/^f1-bio\|bertscore:tiny-test-bert#sha256:[0-9a-f]{12}\|L1\|no-idf\|raw\|undefined=nan\|.*tok:wordpiece\(uncased,max512\)\|out:last_hidden_state/)
    expect(out).toContain(`F1-Bio with tiny-test-bert (layer 1) from ${path.join(dir, 'tiny', 'model.onnx')}: `)
  })

  it('keeps the scores in <out>/f1bio-cache: scoring again embeds nothing and gives the same numbers', async () => {
    const first = await run(exportFolder('tiny'), 'plain')
    expect(first.out).toMatch(/: 0 pairs scored, 10 from the cache /)
    const other = await run(exportFolder('tiny'), 'plain-again')
    // A fresh report folder has a cache of its own: the 10 pairs (5 items x 2 models) are scored.
    expect(other.out).toMatch(/: 10 pairs scored, 0 from the cache /)
    expect(other.report.rows.map((r) => r.metrics.f1Bio?.value)).toEqual(first.report.rows.map((r) => r.metrics.f1Bio?.value))
  })

  it('with idf, weighs tokens by an idf over each task\'s own references', async () => {
    const yaml = path.join(dir, 'idf.yaml')
    writeFileSync(yaml, 'model: tiny\nidf: true\nbatchSize: 2\n')
    const { report } = await run(yaml, 'idf')
    for (const [task, items] of Object.entries(ITEMS)) {
      const refs = items.map((i) => i.answer)
      expect(f1Of(report, task, 'echo').value).toBeCloseTo(100, 4)
      const want = (100 * items.reduce((s, i) => s + expectedF1(TERSE, i.answer, refs), 0)) / items.length
      const plain = (100 * items.reduce((s, i) => s + expectedF1(TERSE, i.answer), 0)) / items.length
      expect(f1Of(report, task, 'terse').value).toBeCloseTo(want, 4)
      expect(Math.abs(want - plain)).toBeGreaterThan(0.01)
    }
    expect(report.signatures.f1Bio).toContain('|idf|')
    expect(report.signatures.f1Bio).toContain('idf-docs:task-references')
  })
})
