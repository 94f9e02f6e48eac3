// A tiny BERT-shaped ONNX model written byte by byte (no Python, no onnx package), so the
// F1-Bio model plumbing can be tested end to end with onnxruntime-node. It takes BERT's three
// inputs (input_ids, attention_mask, token_type_ids, int64 [batch, seq]) and gives
//   embeddings        = E_word[input_ids] + E_type[token_type_ids]                 [b, s, d]
//   last_hidden_state = tanh(embeddings @ W1 + masked_mean(embeddings) @ W2 + b)   [b, s, d]
// so a token's output depends on the other (unmasked) tokens, like a contextual encoder.
// `tinyBertReference` computes the same in plain JS to check what onnxruntime returns.
// Protobuf field numbers are those of onnx/onnx.proto (IR version 8, opset 13).
import { floatTensor, pbBytes, pbInt, pbMsg, pbStr, valueInfo } from '../helpers/onnx-proto.ts'

/** A small vocab.txt (text) for the tokenizer and the tiny model's tests. */
export const TEST_VOCAB = [
  '[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'sinus', 'rhythm', 'brady', '##card', '##cardia', 'at', '72', 'bpm', '.', ',',
  'st', '-', 'segment', 'depression', 'cafe', 'Cafe', '中', '文', 'a', '##b', 'un', '##aff', '##able', 'premature', 'beats',
].join('\n') + '\n'

export interface TinyBertWeights {
  vocab: number
  dims: number
  word: Float32Array // vocab x dims
  type: Float32Array // 2 x dims
  w1: Float32Array // dims x dims
  w2: Float32Array // dims x dims
  bias: Float32Array // dims
}

/** Seeded small weights (a linear congruential generator, so every run builds the same model). */
export function tinyBertWeights(vocab: number, dims: number, seed = 7): TinyBertWeights {
  let s = seed >>> 0
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1
  const fill = (n: number, scale: number) => Float32Array.from({ length: n }, () => rnd() * scale)
  return { vocab, dims, word: fill(vocab * dims, 1), type: fill(2 * dims, 0.1), w1: fill(dims * dims, 0.6), w2: fill(dims * dims, 0.6), bias: fill(dims, 0.1) }
}

/** The model as ONNX bytes. */
export function tinyBertOnnx(w: TinyBertWeights): Uint8Array {
  const d = w.dims
  const node = (op: string, inputs: string[], outputs: string[], attrs: Uint8Array[] = []) =>
    pbMsg([...inputs.map((x) => pbStr(1, x)), ...outputs.map((x) => pbStr(2, x)), pbStr(3, outputs[0]), pbStr(4, op), ...attrs.map((a) => pbBytes(5, a))])
  const intAttr = (name: string, v: number) => pbMsg([pbStr(1, name), pbInt(3, v), pbInt(20, 2)])
  const graph = pbMsg([
    pbBytes(1, node('Gather', ['word_table', 'input_ids'], ['word_emb'])),
    pbBytes(1, node('Gather', ['type_table', 'token_type_ids'], ['type_emb'])),
    pbBytes(1, node('Add', ['word_emb', 'type_emb'], ['embeddings'])),
    pbBytes(1, node('Cast', ['attention_mask'], ['mask_f'], [intAttr('to', 1)])),
    pbBytes(1, node('Unsqueeze', ['mask_f', 'axis_last'], ['mask3'])),
    pbBytes(1, node('Mul', ['embeddings', 'mask3'], ['masked'])),
    pbBytes(1, node('ReduceSum', ['masked', 'axis_seq'], ['sum'], [intAttr('keepdims', 1)])),
    pbBytes(1, node('ReduceSum', ['mask3', 'axis_seq'], ['count'], [intAttr('keepdims', 1)])),
    pbBytes(1, node('Div', ['sum', 'count'], ['context'])),
    pbBytes(1, node('MatMul', ['embeddings', 'w1'], ['own'])),
    pbBytes(1, node('MatMul', ['context', 'w2'], ['ctx'])),
    pbBytes(1, node('Add', ['own', 'ctx'], ['mixed'])),
    pbBytes(1, node('Add', ['mixed', 'bias'], ['pre'])),
    pbBytes(1, node('Tanh', ['pre'], ['last_hidden_state'])),
    pbStr(2, 'tiny_bert'),
    pbBytes(5, floatTensor('word_table', [w.vocab, d], w.word)),
    pbBytes(5, floatTensor('type_table', [2, d], w.type)),
    pbBytes(5, floatTensor('w1', [d, d], w.w1)),
    pbBytes(5, floatTensor('w2', [d, d], w.w2)),
    pbBytes(5, floatTensor('bias', [d], w.bias)),
    pbBytes(5, int64Tensor('axis_last', [-1])),
    pbBytes(5, int64Tensor('axis_seq', [1])),
    ...['input_ids', 'attention_mask', 'token_type_ids'].map((n) => pbBytes(11, valueInfo(n, 7, ['batch', 'seq']))),
    pbBytes(12, valueInfo('last_hidden_state', 1, ['batch', 'seq', d])),
    pbBytes(12, valueInfo('embeddings', 1, ['batch', 'seq', d])),
  ])
  return pbMsg([pbInt(1, 8), pbStr(2, 'holter-pipeline test'), pbBytes(7, graph), pbBytes(8, pbMsg([pbStr(1, ''), pbInt(2, 13)]))])
}

/** What the model computes, in plain JS (float64), for one unpadded sequence. */
export function tinyBertReference(w: TinyBertWeights, ids: ArrayLike<number>, layer: 'embeddings' | 'last_hidden_state'): Float64Array {
  const d = w.dims
  const n = ids.length
  const emb = new Float64Array(n * d)
  for (let t = 0; t < n; t++) for (let k = 0; k < d; k++) emb[t * d + k] = w.word[ids[t] * d + k] + w.type[k]
  if (layer === 'embeddings') return emb
  const ctx = new Float64Array(d)
  for (let t = 0; t < n; t++) for (let k = 0; k < d; k++) ctx[k] += emb[t * d + k] / n
  const out = new Float64Array(n * d)
  for (let t = 0; t < n; t++) {
    for (let j = 0; j < d; j++) {
      let s = w.bias[j]
      for (let k = 0; k < d; k++) s += emb[t * d + k] * w.w1[k * d + j] + ctx[k] * w.w2[k * d + j]
      out[t * d + j] = Math.tanh(s)
    }
  }
  return out
}

function int64Tensor(name: string, values: number[]): Uint8Array {
  const raw = new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer)
  return pbMsg([pbInt(1, values.length), pbInt(2, 7), pbStr(8, name), pbBytes(9, raw)])
}
