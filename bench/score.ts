// `pipeline score`'s speed (issue 15): all metrics but F1-Bio and the judge over 10,000, 25,000
// and 50,000 predictions (target: 50,000 in under 30 s, memory flat), and F1-Bio's throughput
// (pairs per second of embedding + matching) with the tests' tiny ONNX model and with a model
// of BERT-base's shape and size built here with seeded random weights.
// The predictions are real: the bundled MIT-BIH records (100, 101, 102 as EDF, 208) listed many
// times under other ids (so the excerpt stage's seeded offsets and the qa stage's choices differ,
// as in infer-throughput.ts) through bench-mitdb's chain: read -> annotate -> quality -> clean ->
// detect -> excerpt (1-minute tiles, stratified, every clean tile) -> render-text and
// render-strip (one 60 s strip an excerpt) -> excerpt (the whole record) -> qa (the 12 tasks) ->
// infer with four baselines (random, blind and prior learning from a train run of the four
// records under ids of their own, holter-dsp). A first run without renders or infer counts each
// record's QA items; each size's run is the shortest prefix of that record list whose items x 4
// models reach the size (every baseline answers every item). Each size is then scored by
// `pipeline score <run> --compare holter-dsp:random` as a child (the bundle), rounds interleaved.
// F1-Bio: the scorer's own hook loop (applyScoreHooks, batches of 64 pairs of one task, item by
// item) over the open and report items of the smallest run, with the hook `--f1-bio` uses
// (f1BioHook: each distinct text of a batch embedded once by createBertEmbedder in
// length-sorted batches, onnxruntime-node, BERTSCORE_ORT may name a copy), no idf.
//
// Memory: peak RSS depends on when V8 collects garbage as much as on what is kept, so each size
// is also scored once with the old generation capped (--max-old-space-size, --heap-mb): if it
// runs in the same memory at every size, what is kept does not grow with the predictions.
// --reuse scores the runs a previous invocation left in bench/data/score/runs (same sizes).
//
//   npx tsx bench/score.ts [--runs 3] [--sizes 10000,25000,50000] [--records 2] [--pairs 2000] [--base-pairs 64] [--no-base] [--heap-mb 64] [--reuse]
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { runPredictionSet } from '../src/commands/score-runs.ts'
import { f1BioHook } from '../src/commands/score-f1bio.ts'
import { createBertEmbedder, type BertEmbedder, type OrtModule } from '../src/metrics/bertscore-model.ts'
import { collectScores } from '../src/report/collect-scores.ts'
import { applyScoreHooks, type F1BioHook } from '../src/report/score-hooks.ts'
import type { ItemScore } from '../src/report/score-types.ts'
import { hasTextMetrics, taskKind } from '../src/report/task-metrics.ts'
import { DEFAULT_VOCABULARY } from '../src/qa/vocabulary.ts'
import { TEST_VOCAB, tinyBertOnnx, tinyBertWeights } from '../test/metrics/bertscore-tiny-onnx.ts'
import { floatTensor, pbBytes, pbInt, pbMsg, pbStr, valueInfo } from '../test/helpers/onnx-proto.ts'
import { buildBundle } from './bench-setup.ts'
import { measureChild, median } from './measure-child.ts'
import { writeResultsKeepingNotes } from './results-file.ts'
import { resultsTable } from './side-by-side.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const DIR = path.join(here, 'data/score')
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, sizes: { type: 'string', default: '10000,25000,50000' }, records: { type: 'string', default: '2' }, pairs: { type: 'string', default: '2000' }, 'base-pairs': { type: 'string', default: '64' }, 'no-base': { type: 'boolean', default: false }, reuse: { type: 'boolean', default: false }, 'heap-mb': { type: 'string', default: '64' } } })
const runs = Number(args.runs)
const sizes = args.sizes!.split(',').map(Number).sort((a, b) => a - b)
const log = (s: string) => process.stderr.write(s + '\n')
buildBundle()
const cli = (argv: string[]) => execFileSync(process.execPath, [path.join(root, 'dist/cli.mjs'), ...argv], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })

const RECORDINGS = [['100', 'mitdb/100'], ['101', 'mitdb/101'], ['102', 'edf/mitdb102.edf'], ['208', 'mitdb/208']]
const MODELS = 4
const QA_TASKS = 'closed_presence, closed_event_counting, closed_event_timing, closed_HR_extremum_timing, closed_diagnosis, open_event_counting, open_HR_extremum_timing, open_event_timing, open_diagnosis, open_evidence_reasoning'
const REPORT_TASKS = 'report_statistical_overview, report_general_summary'
// One copy of the four records gives about 500 QA items (2,000 predictions); the count run lists enough copies.
const COPIES = Math.ceil(sizes.at(-1)! / (MODELS * 400)) + 2

/** bench-mitdb's chain (video left out: scoring never reads it), with or without renders and infer. */
function chain(full: boolean, train: string): string[] {
  return [
    'stages:', '  - read', '  - annotate', '  - quality', '  - clean', '  - detect',
    '  - {use: excerpt, options: {set: q, stratified: {lengthSec: 60, perHour: 60, seed: 1}}}',
    ...(full ? [
      '  - {use: render-text, options: {windows: false, excerpts: [q], rate: 100, leads: [0], file: qa-text.txt}}',
      '  - {use: render-strip, options: {windows: false, excerpts: [q], excerptTileSec: 60, markers: none}}',
    ] : []),
    '  - {use: excerpt, options: {set: rec, whole: {maxSec: 1900}}}',
    `  - {use: qa, options: {seed: 1, sets: {q: {tasks: [${QA_TASKS}], inputs: [${full ? 'text, images' : ''}]}, rec: {tasks: [${REPORT_TASKS}]}}, budgets: {maxTextTokens: 32000}}}`,
    ...(full && train ? [
      '  - use: infer', '    options:', '      models:',
      '        - {name: random, kind: random, seed: 1}',
      `        - {name: blind, kind: blind, train: ${train}}`,
      `        - {name: prior, kind: prior, train: ${train}}`,
      '        - {name: holter-dsp, kind: holter-dsp}',
    ] : []),
    'output: {exclude: [block, annotation, beat, window, quality, excerpt, rhythm, render]}',
  ]
}

/** Runs the chain over `records` ([id, path]) into DIR/<name>; returns the run directory. */
async function runChain(name: string, records: string[][], full: boolean, train = ''): Promise<string> {
  const yaml = path.join(DIR, `${name}.yaml`)
  await writeFile(yaml, ['# written by bench/score.ts', `name: score-${name}`, `concurrency: {records: ${Number(args.records)}}`, 'records:', ...records.map(([id, p]) => `  - {id: ${id}, path: ${p}}`), ...chain(full, train)].join('\n') + '\n')
  const out = path.join(DIR, 'runs', name)
  cli(['run', yaml, '--out', out, '--restart'])
  return out
}

/** Each finished record's line counts by kind (checkpoints.ndjson), in the run's order. */
async function recordCounts(run: string): Promise<Map<string, Record<string, number>>> {
  const lines = (await readFile(path.join(run, 'checkpoints.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { recordId: string; status: string; counts: Record<string, number> })
  return new Map(lines.filter((l) => l.status === 'done').map((l) => [l.recordId, l.counts]))
}

interface SizeRun { size: number; dir: string; records: number; qa: number; predictions: number; bytes: number }

/** The train run, the count run and one run per size. */
async function buildRuns(): Promise<SizeRun[]> {
  // The dataset refuses a path listed twice: each copy reads samples/ through a link of its own.
  await mkdir(path.join(DIR, 'copies'), { recursive: true })
  const listed = (prefix: string, copies: number) => Array.from({ length: copies }, (_, k) => RECORDINGS.map(([id, p]) => [`${prefix}${k + 1}-${id}`, path.join(DIR, 'copies', `${prefix}${k + 1}`, p)])).flat()
  for (const id of [...new Set([...listed('c', COPIES), ...listed('t', 1)].map(([rid]) => rid.split('-')[0]))]) {
    await rm(path.join(DIR, 'copies', id), { force: true })
    await symlink(path.join(root, 'samples'), path.join(DIR, 'copies', id))
  }
  log('the train run (blind and prior learn from it)...')
  const train = await runChain('train', listed('t', 1), true)
  log(`counting the QA items of ${COPIES * RECORDINGS.length} records...`)
  const all = listed('c', COPIES)
  const counts = await recordCounts(await runChain('count', all, false))
  const out: SizeRun[] = []
  for (const size of sizes) {
    let n = 0
    const prefix = all.slice(0, all.findIndex(([id]) => (n += (counts.get(id)?.qa ?? 0) * MODELS) >= size) + 1)
    if (n < size) throw new Error(`the ${all.length} records give ${n} predictions, fewer than ${size}: raise COPIES`)
    log(`the ${size} run: ${prefix.length} records, ${n} predictions...`)
    const dir = await runChain(`p${size}`, prefix, true, train)
    const got = [...(await recordCounts(dir)).values()].reduce((s, c) => ({ qa: s.qa + (c.qa ?? 0), prediction: s.prediction + (c.prediction ?? 0) }), { qa: 0, prediction: 0 })
    if (got.prediction !== n || got.qa * MODELS !== n) throw new Error(`run p${size}: ${got.qa} QA items and ${got.prediction} predictions, expected ${n / MODELS} and ${n} (the count run's)`)
    const bytes = (await stat(path.join(dir, 'qa.ndjson'))).size + (await stat(path.join(dir, 'prediction.ndjson'))).size
    out.push({ size, dir, records: prefix.length, qa: got.qa, predictions: n, bytes })
  }
  return out
}

interface Scored { wall: number[]; cpu: number[]; rss: number[] }

/** One `pipeline score` child over a size's run (its heap capped at `heapMb` if given); checks every prediction was scored. */
async function measureScore(r: SizeRun, into: Scored, heapMb?: number): Promise<string> {
  const out = path.join(DIR, `report-${r.size}`)
  await rm(out, { recursive: true, force: true })
  const cap = heapMb ? [`--max-old-space-size=${heapMb}`] : []
  const m = await measureChild(process.execPath, [...cap, path.join(root, 'dist/cli.mjs'), 'score', r.dir, '--compare', 'holter-dsp:random', '--out', out], root)
  const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as { rows: { n: number; failed: number; missing: number }[]; tasks: object; problems: unknown[] }
  const n = report.rows.reduce((s, x) => s + x.n, 0)
  if (n !== r.predictions || Object.keys(report.tasks).length !== 12) throw new Error(`score p${r.size}: ${n} predictions scored in ${Object.keys(report.tasks).length} tasks, expected ${r.predictions} in 12`)
  into.wall.push(m.wallSec)
  into.cpu.push(m.cpuSec)
  into.rss.push(m.peakRssBytes)
  return `${r.predictions} predictions${heapMb ? ` (heap capped at ${heapMb} MB)` : ''}: ${m.wallSec.toFixed(2)} s, CPU ${m.cpuSec.toFixed(2)} s, peak RSS ${(m.peakRssBytes / 1e6).toFixed(0)} MB`
}

// F1-Bio as `pipeline score --f1-bio` runs it (f1BioHook: each text of a batch embedded once,
// no idf), with the embedder's time measured apart from the matching.
function timedHook(embedder: BertEmbedder, model: string, timing: { embed: number; tokens: number; texts: number }): F1BioHook {
  const timed: BertEmbedder = {
    ...embedder,
    async embed(texts, signal) {
      const t = performance.now()
      const out = await embedder.embed(texts, signal)
      timing.embed += performance.now() - t
      for (const e of out) timing.tokens += e.tokens.length
      timing.texts += out.length
      return out
    },
  }
  return f1BioHook(timed, { onnx: model, vocab: '', name: model, layer: 12, lowerCase: true, idf: false, output: 'last_hidden_state', undefinedAs: 'nan', batchSize: 16, maxLength: 512, sha256: '0'.repeat(64) })
}

interface F1Row { model: string; tier: string; pairs: number; rate: number[]; embedShare: number[]; tokens: number; words: number }

/** Pairs per second of applyScoreHooks with F1-Bio alone over `items`, median of `runs`. */
async function measureF1Bio(model: string, make: () => Promise<BertEmbedder>, tier: string, items: ItemScore[], qa: Parameters<typeof applyScoreHooks>[1]): Promise<F1Row> {
  const row: F1Row = { model, tier, pairs: items.length, rate: [], embedShare: [], tokens: 0, words: 0 }
  const words = items.reduce((s, i) => s + i.hyp!.split(/\s+/).filter(Boolean).length + i.ref!.split(/\s+/).filter(Boolean).length, 0)
  for (let round = 1; round <= runs; round++) {
    const embedder = await make()
    try {
      const timing = { embed: 0, tokens: 0, texts: 0 }
      const copy = items.map((i) => ({ ...i }))
      const t = performance.now()
      await applyScoreHooks(copy, qa, { f1Bio: timedHook(embedder, model, timing) })
      const sec = (performance.now() - t) / 1000
      const matchMs = sec * 1000 - timing.embed
      if (copy.some((i) => i.f1Bio === undefined && i.hyp!.trim() && i.ref!.trim())) throw new Error(`${model}: F1-Bio missing on a pair of two non-empty texts`)
      row.rate.push(items.length / sec)
      row.embedShare.push(timing.embed / (timing.embed + matchMs))
      row.tokens = timing.tokens / timing.texts
      row.words = words / (2 * items.length)
      log(`F1-Bio ${model} ${tier} round ${round}: ${items.length} pairs in ${sec.toFixed(2)} s = ${(items.length / sec).toFixed(1)} pairs/s (embedding ${(100 * timing.embed / (sec * 1000)).toFixed(0)} %), ${timing.texts} texts embedded, ${row.tokens.toFixed(0)} tokens a text`)
    } finally {
      await embedder.close()
    }
  }
  return row
}

async function f1BioRows(run: SizeRun): Promise<{ rows: F1Row[]; note: string }> {
  const ortPath = process.env.BERTSCORE_ORT ?? 'onnxruntime-node'
  const ort = (await import(ortPath).catch(() => undefined)) as OrtModule | undefined
  if (!ort) return { rows: [], note: `F1-Bio: not measured, onnxruntime-node could not be loaded (${ortPath}); install it (ONNXRUNTIME_NODE_INSTALL=skip npm i --no-save -E onnxruntime-node@1.30.0) or set BERTSCORE_ORT to its entry file.` }
  const collected = await collectScores([await runPredictionSet(run.dir)], { vocabulary: DEFAULT_VOCABULARY.map((e) => e.name), keepText: () => true })
  const text = collected.pending.filter((i) => i.text !== undefined && hasTextMetrics(i.task))
  const tiers: [string, ItemScore[]][] = [['report', text.filter((i) => taskKind(i.task) === 'report')], ['open', text.filter((i) => taskKind(i.task) !== 'report')]]
  const rows: F1Row[] = []
  const tinyVocab = path.join(DIR, 'tiny-vocab.txt')
  await writeFile(tinyVocab, TEST_VOCAB)
  const tiny = tinyBertOnnx(tinyBertWeights(TEST_VOCAB.split('\n').length - 1, 8))
  for (const [tier, items] of tiers) rows.push(await measureF1Bio('tiny test model (8 dims, 30-token vocab)', () => createBertEmbedder({ model: tiny, vocabFile: tinyVocab, lowerCase: true, ort }), tier, items.slice(0, Number(args.pairs)), collected.questions))
  if (!args['no-base']) {
    const file = path.join(DIR, 'bert-base-shaped.onnx')
    const vocabFile = path.join(DIR, 'bert-base-shaped-vocab.txt')
    await writeFile(vocabFile, corpusVocab(text.flatMap((i) => [i.hyp!, i.ref!]), 30522))
    if (!existsSync(file)) {
      log('writing a BERT-base-shaped ONNX model (12 layers, 768 dims, 30,522 tokens, random weights)...')
      await writeFile(file, bertBaseShapedOnnx(30522))
    }
    for (const [tier, items] of tiers) rows.push(await measureF1Bio('BERT-base shape, random weights (12 x 768, 110 M parameters)', () => createBertEmbedder({ model: file, vocabFile, lowerCase: true, ort }), tier, items.slice(0, Number(args['base-pairs'])), collected.questions))
  }
  return { rows, note: `F1-Bio: the open and report items of the ${run.predictions} run (${tiers.map(([t, i]) => `${i.length} ${t} pairs`).join(', ')}), the first --pairs (tiny) or --base-pairs (BERT-base shape) of each, through applyScoreHooks and f1BioHook (batches of 64 pairs of one task, ordered by item, each distinct text embedded once; createBertEmbedder's batches of 16 texts sorted by length, padded) with onnxruntime-node ${(ort as unknown as { env?: { versions?: { common?: string } } }).env?.versions?.common ?? ''} from ${ortPath} on its default threads; pairs/s includes tokenizing, embedding and matching. The BERT-base-shaped model has BERT-base's graph (embeddings + LayerNorm, 12 layers of 12-head self-attention and a 3,072 GELU feed-forward, post-LayerNorm) and size with seeded random weights (its F1 values mean nothing; its time is BERT-base's), and a vocab.txt written from the texts (whole words up to 7 characters, longer words and numbers in 3-character pieces), so tokens per text approximate a real cased vocabulary's. A real BioBERT cannot be downloaded here.` }
}

// A model of BERT-base's shape and size as ONNX bytes (opset 17), seeded random weights
// (uniform, standard deviation 0.02 as BERT's initialiser; LayerNorm scale 1, shift 0): the
// graph an export of bert-base or BioBERT has (word + position + type embeddings, LayerNorm,
// `layers` x [12-head self-attention with the padding mask, add & LayerNorm, GELU feed-forward,
// add & LayerNorm]), so onnxruntime does the same work, without downloading one. Written with
// the protobuf field numbers of onnx/onnx.proto, as test/metrics/bertscore-tiny-onnx.ts does.
function bertBaseShapedOnnx(vocab: number, layers = 12, d = 768, heads = 12, ff = 3072, maxPos = 512): Uint8Array {
  const nodes: Uint8Array[] = []
  const inits: Uint8Array[] = []
  let seed = 7
  let count = 0
  const node = (op: string, inputs: string[], attrs: Uint8Array[] = [], out = `t${count++}`) => {
    nodes.push(pbMsg([...inputs.map((x) => pbStr(1, x)), pbStr(2, out), pbStr(3, out), pbStr(4, op), ...attrs.map((a) => pbBytes(5, a))]))
    return out
  }
  const weight = (name: string, dims: number[], fill?: number) => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1))
    if (fill !== undefined) data.fill(fill)
    else for (let i = 0; i < data.length; i++) data[i] = ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5) * 0.0693
    inits.push(floatTensor(name, dims, data))
    return name
  }
  const ints = (name: string, values: number[], scalar = false) => {
    inits.push(pbMsg([...(scalar ? [] : [pbInt(1, values.length)]), pbInt(2, 7), pbStr(8, name), pbBytes(9, new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer))]))
    return name
  }
  const scalar = (name: string, v: number) => {
    inits.push(pbMsg([pbInt(2, 1), pbStr(8, name), pbBytes(9, new Uint8Array(Float32Array.of(v).buffer))]))
    return name
  }
  const attrInt = (name: string, v: number) => pbMsg([pbStr(1, name), pbInt(3, v), pbInt(20, 2)])
  const attrInts = (name: string, vs: number[]) => pbMsg([pbStr(1, name), ...vs.map((v) => pbInt(8, v)), pbInt(20, 7)])
  const attrFloat = (name: string, v: number) => pbMsg([pbStr(1, name), Uint8Array.of(0x15, ...new Uint8Array(Float32Array.of(v).buffer)), pbInt(20, 1)])
  const layerNorm = (x: string, p: string) => node('LayerNormalization', [x, weight(`${p}.g`, [d], 1), weight(`${p}.b`, [d], 0)], [attrInt('axis', -1), attrFloat('epsilon', 1e-12)])
  const dense = (x: string, p: string, rows: number, cols: number) => node('Add', [node('MatMul', [x, weight(`${p}.w`, [rows, cols])]), weight(`${p}.b`, [cols], 0)])
  const [one, zero, oneF, shape4, shape3] = [ints('one', [1], true), ints('zero', [0], true), scalar('oneF', 1), ints('shape4', [0, 0, heads, d / heads]), ints('shape3', [0, 0, d])]
  const positions = node('Range', [zero, node('Gather', [node('Shape', ['input_ids']), one], [attrInt('axis', 0)]), one])
  const emb = node('Add', [node('Add', [node('Gather', [weight('word', [vocab, d]), 'input_ids']), node('Gather', [weight('type', [2, d]), 'token_type_ids'])]), node('Gather', [weight('position', [maxPos, d]), positions])])
  let x = layerNorm(emb, 'emb.ln')
  const mask = node('Unsqueeze', [node('Cast', ['attention_mask'], [attrInt('to', 1)]), ints('axes12', [1, 2])])
  const maskBias = node('Mul', [node('Sub', [oneF, mask]), scalar('minus', -10000)])
  const headsOf = (t: string, perm: number[]) => node('Transpose', [node('Reshape', [t, shape4])], [attrInts('perm', perm)])
  for (let l = 0; l < layers; l++) {
    const q = headsOf(dense(x, `l${l}.q`, d, d), [0, 2, 1, 3])
    const k = headsOf(dense(x, `l${l}.k`, d, d), [0, 2, 3, 1])
    const v = headsOf(dense(x, `l${l}.v`, d, d), [0, 2, 1, 3])
    const scores = node('Add', [node('Mul', [node('MatMul', [q, k]), scalar(`l${l}.scale`, 1 / Math.sqrt(d / heads))]), maskBias])
    const context = node('Reshape', [node('Transpose', [node('MatMul', [node('Softmax', [scores], [attrInt('axis', -1)]), v])], [attrInts('perm', [0, 2, 1, 3])]), shape3])
    const x1 = layerNorm(node('Add', [dense(context, `l${l}.o`, d, d), x]), `l${l}.ln1`)
    const h = dense(x1, `l${l}.ff1`, d, ff)
    const gelu = node('Mul', [node('Mul', [h, scalar(`l${l}.half`, 0.5)]), node('Add', [oneF, node('Erf', [node('Mul', [h, scalar(`l${l}.rsqrt2`, Math.SQRT1_2)])])])])
    x = layerNorm(node('Add', [dense(gelu, `l${l}.ff2`, ff, d), x1]), `l${l}.ln2`)
  }
  node('Identity', [x], [], 'last_hidden_state')
  const graph = pbMsg([
    ...nodes.map((n) => pbBytes(1, n)), pbStr(2, 'bert_base_shaped'), ...inits.map((t) => pbBytes(5, t)),
    ...['input_ids', 'attention_mask', 'token_type_ids'].map((n) => pbBytes(11, valueInfo(n, 7, ['batch', 'seq']))),
    pbBytes(12, valueInfo('last_hidden_state', 1, ['batch', 'seq', d])),
  ])
  return pbMsg([pbInt(1, 8), pbStr(2, 'holter-pipeline bench'), pbBytes(7, graph), pbBytes(8, pbMsg([pbStr(1, ''), pbInt(2, 17)]))])
}


/**
 * A vocab.txt of `size` tokens for lower-cased text, written from `texts` so WordPiece splits them
 * roughly as a real vocabulary would: every character (alone and as "##"), words of up to 7
 * letters whole, longer words and numbers of more than 3 digits as 3-character pieces, then
 * [unusedN] up to the size.
 */
function corpusVocab(texts: readonly string[], size: number): string {
  const tokens = new Set(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'])
  for (const text of texts) {
    const lower = text.toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '')
    for (const ch of lower) if (!/\s/u.test(ch)) tokens.add(ch).add(`##${ch}`)
    for (const w of lower.split(/[^\p{L}\p{N}]+/u)) {
      if (!w) continue
      if (/^\d+$/.test(w) ? w.length <= 3 : w.length <= 7) tokens.add(w)
      else for (let i = 0; i < w.length; i += 3) tokens.add((i ? '##' : '') + w.slice(i, i + 3))
    }
  }
  if (tokens.size > size) throw new Error(`the texts need ${tokens.size} vocabulary tokens, more than ${size}`)
  const list = [...tokens]
  for (let i = 0; list.length < size; i++) list.push(`[unused${i}]`)
  return list.join('\n') + '\n'
}

/** The runs a previous invocation built, for --reuse. */
async function reuseRuns(): Promise<SizeRun[]> {
  return Promise.all(sizes.map(async (size) => {
    const dir = path.join(DIR, 'runs', `p${size}`)
    const counts = [...(await recordCounts(dir)).values()]
    const qa = counts.reduce((s, c) => s + (c.qa ?? 0), 0)
    const bytes = (await stat(path.join(dir, 'qa.ndjson'))).size + (await stat(path.join(dir, 'prediction.ndjson'))).size
    return { size, dir, records: counts.length, qa, predictions: counts.reduce((s, c) => s + (c.prediction ?? 0), 0), bytes }
  }))
}

await mkdir(DIR, { recursive: true })
const sized = args.reuse ? await reuseRuns() : await buildRuns()
const results = new Map(sized.map((r) => [r.size, { wall: [], cpu: [], rss: [] } as Scored]))
for (let round = 1; round <= runs; round++) {
  for (const r of sized) log(`round ${round}/${runs} ${await measureScore(r, results.get(r.size)!)}`)
}
const heapMb = Number(args['heap-mb'])
const capped = new Map(sized.map((r) => [r.size, { wall: [], cpu: [], rss: [] } as Scored]))
for (const r of sized) log(await measureScore(r, capped.get(r.size)!, heapMb))
const f1 = await f1BioRows(sized[0])

const range = (xs: number[], d: number) => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(d)}-${Math.max(...xs).toFixed(d)})` : '')
const rows = sized.map((r) => {
  const m = results.get(r.size)!
  const c = capped.get(r.size)!
  return `| ${r.predictions.toLocaleString('en')} (${r.qa.toLocaleString('en')} items x ${MODELS} models, ${r.records} records, ${(r.bytes / 1e6).toFixed(0)} MB) | ${median(m.wall).toFixed(2)}${range(m.wall, 2)} | ${median(m.cpu).toFixed(2)} | ${(median(m.rss) / 1e6).toFixed(0)}${range(m.rss.map((b) => b / 1e6), 0)} | ${(r.predictions / median(m.wall)).toFixed(0)} | ${c.wall[0].toFixed(2)} s, ${(c.rss[0] / 1e6).toFixed(0)} MB |`
})
const f1Rows = f1.rows.map((r) => `| ${r.model} | ${r.tier} | ${r.pairs} | ${r.words.toFixed(0)} / ${r.tokens.toFixed(0)} | ${median(r.rate).toFixed(1)}${range(r.rate, 1)} | ${(100 * median(r.embedShare)).toFixed(0)} % |`)
const md = resultsTable('Scoring speed: `pipeline score` over 10,000 to 50,000 predictions, and F1-Bio', 'bench/score.ts', [
  `Median of ${runs} interleaved round(s) (with the lowest and highest), ${os.availableParallelism()} CPUs (nproc). Each case is \`node dist/cli.mjs score <run> --compare holter-dsp:random --out <fresh folder>\` (the bundle): every metric but F1-Bio and ScoreGPT (accuracy with unparsed counts, MAE and ScoreMAE, timestamp and label F1, BLEU-1/4 sentence and corpus, ROUGE-L, 1,000-resample bootstrap CIs by case, McNemar, win rates), report.json, report.md, index.html and the chart PNGs written. Wall time is the whole child (node start included); CPU is its user + system time; peak RSS its ru_maxrss (GNU time %M). Checked: the report's rows count every prediction, in 12 tasks.`,
  `Predictions: the bundled MIT-BIH records 100, 101, 102 (EDF) and 208 listed many times under other ids through bench-mitdb's chain (video left out) with an infer stage of four baselines (random, blind and prior learning from a train run, holter-dsp), all 12 task types; a size's run is the shortest prefix of the records whose items x 4 reach it (MB: its qa.ndjson + prediction.ndjson).`,
  `Last column: the same, once, with node's old generation capped at ${heapMb} MB (--max-old-space-size): wall time and peak RSS. It completing in the same memory at every size is what "flat" means here; without the cap V8 lets garbage pile up longer on bigger inputs.`,
  'Target (issue 15): 50,000 predictions in under 30 s, memory flat.',
], ['predictions (input)', 'wall s', 'CPU s', 'peak RSS MB', 'predictions/s (wall)', `heap capped at ${heapMb} MB`], rows)
const f1Md = f1.rows.length ? ['', '## F1-Bio throughput', '', f1.note, '', '| model | items | pairs | words / tokens a text | pairs/s | embedding share of the time |', '|---|---|---|---|---|---|', ...f1Rows, ''].join('\n') : `\n${f1.note}\n`
await writeResultsKeepingNotes(path.join(here, 'results/score.md'), md + f1Md)
process.stdout.write(md + f1Md)
