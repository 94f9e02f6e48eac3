// Per-token embeddings for F1-Bio from a local ONNX export of a BERT model, run
// in-process with onnxruntime-node; nothing is downloaded. The layer: bert_score cuts the
// model to its first `num_layers` layers and takes the last output, so export the model with
// `num_hidden_layers` set to the layer wanted (BERT adds nothing after its last layer) and read
// `last_hidden_state`, or export all hidden states and name the output to read.
// onnxruntime-node is loaded lazily (it is large and only F1-Bio needs it); tests may pass
// their own module. Texts are embedded in padded batches with an attention mask, as
// bert_score does; each text keeps only its own rows. Batches are formed from the texts sorted
// by token count (bert_score sorts by length too), so a short answer is not padded to a long
// report's width; results come back in the caller's order.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'
import type { TokenEmbeddings } from './bertscore-match.ts'
import { createWordPiece, type WordPieceOptions } from './bertscore-wordpiece.ts'

/** The part of onnxruntime-node's API used here. */
export interface OrtModule {
  InferenceSession: { create(model: string | Uint8Array, options?: { intraOpNumThreads?: number }): Promise<OrtSession> }
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => unknown
}
interface OrtSession {
  inputNames: readonly string[]
  outputNames: readonly string[]
  run(feeds: Record<string, unknown>): Promise<Record<string, { type: string; data: unknown; dims: readonly number[] }>>
  release(): Promise<void>
}

export interface BertModelOptions extends WordPieceOptions {
  /** The .onnx file (or its bytes). */
  model: string | Uint8Array
  /** The model's vocab.txt. */
  vocabFile: string
  /** Output to read, [batch, seq, dims]; default `last_hidden_state`. */
  output?: string
  batchSize?: number
  threads?: number
  ort?: OrtModule
}

export interface EmbeddedText {
  tokens: string[]
  ids: Int32Array
  embeddings: TokenEmbeddings
}

export interface BertEmbedder {
  embed(texts: readonly string[], signal?: AbortSignal): Promise<EmbeddedText[]>
  /** The token ids embed() would give each text (for idf over references), without running the model. */
  tokenize(texts: readonly string[]): Int32Array[]
  /** The ids of [CLS] and [SEP], weighted 0 by idf. */
  specialIds: readonly number[]
  close(): Promise<void>
}

/** onnxruntime-node, or an error that says how to install it. */
export async function loadOnnxRuntime(): Promise<OrtModule> {
  const name = 'onnxruntime-node'
  try {
    return (await import(name)) as OrtModule
  } catch (cause) {
    throw new PipelineError('E_CONFIG_VALUE', 'F1-Bio needs onnxruntime-node, which is not installed; run `ONNXRUNTIME_NODE_INSTALL=skip npm i --no-save -E onnxruntime-node@1.30.0` (the skip keeps its installer from fetching GPU files; --no-save leaves package.json as it is)', { field: 'model' }, { cause })
  }
}

/** An embedder over a local ONNX BERT and its vocab.txt. */
export async function createBertEmbedder(options: BertModelOptions): Promise<BertEmbedder> {
  const vocabText = await readFile(options.vocabFile, 'utf8').catch((cause: unknown) => {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT'
    throw new PipelineError(missing ? 'E_FILE_MISSING' : 'E_IO', `cannot read the tokenizer vocabulary ${options.vocabFile}${missing ? ': it does not exist' : ''}; give the vocab.txt exported with the model`, { file: options.vocabFile }, { cause })
  })
  const tokenizer = createWordPiece(vocabText, options)
  const ort = options.ort ?? (await loadOnnxRuntime())
  const file = typeof options.model === 'string' ? options.model : undefined
  const sessionOptions = options.threads === undefined ? {} : { intraOpNumThreads: options.threads }
  const session = await ort.InferenceSession.create(options.model, sessionOptions).catch((cause: unknown) => {
    const missing = file !== undefined && !existsSync(file)
    throw new PipelineError(missing ? 'E_FILE_MISSING' : 'E_IO', `cannot load the ONNX model ${file ?? '(bytes)'}: ${missing ? 'it does not exist' : (cause as Error).message}; export the model with optimum-cli (docs/benchmark.md, docs/metrics.md)`, { file }, { cause })
  })
  const output = options.output ?? 'last_hidden_state'
  if (!session.outputNames.includes(output)) {
    await session.release()
    throw new PipelineError('E_CONFIG_VALUE', `the ONNX model has no output "${output}"; it has ${session.outputNames.join(', ')}`, { file, field: 'output' })
  }
  const batchSize = options.batchSize ?? 16
  // [rows.length, width] int64, each row padded with `fill`.
  const int64 = (rows: ArrayLike<number>[], width: number, fill: number) => {
    const data = new BigInt64Array(rows.length * width).fill(BigInt(fill))
    rows.forEach((r, b) => {
      for (let i = 0; i < r.length; i++) data[b * width + i] = BigInt(r[i])
    })
    return new ort.Tensor('int64', data, [rows.length, width])
  }

  return {
    async embed(texts, signal) {
      const encoded = texts.map((t) => tokenizer.encode(t))
      const order = encoded.map((_, i) => i).sort((a, b) => encoded[a].ids.length - encoded[b].ids.length)
      const out = new Array<EmbeddedText>(texts.length)
      for (let start = 0; start < order.length; start += batchSize) {
        signal?.throwIfAborted()
        const at = order.slice(start, start + batchSize)
        const batch = at.map((i) => encoded[i])
        const width = Math.max(...batch.map((e) => e.ids.length))
        const feeds: Record<string, unknown> = {
          input_ids: int64(batch.map((e) => e.ids), width, tokenizer.ids.pad),
          attention_mask: int64(batch.map((e) => new Uint8Array(e.ids.length).fill(1)), width, 0),
        }
        if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = int64(batch.map(() => []), width, 0)
        const result = (await session.run(feeds))[output]
        const [rows, seq, dims] = result.dims
        if (result.dims.length !== 3 || rows !== batch.length || seq !== width || result.type !== 'float32') {
          throw new PipelineError('E_CONFIG_VALUE', `the ONNX model's output "${output}" is ${result.dims.join('x')}, expected ${batch.length}x${width}xdims of float32; name an output of token vectors`, { file, field: 'output' })
        }
        batch.forEach((e, b) => {
          const n = e.ids.length
          const vectors = result.data as Float32Array
          out[at[b]] = {
            tokens: e.tokens,
            ids: e.ids,
            embeddings: { vectors: vectors.slice(b * seq * dims, (b * seq + n) * dims), dims, special: Uint8Array.from(e.ids, (id) => (id === tokenizer.ids.cls || id === tokenizer.ids.sep ? 1 : 0)) },
          }
        })
      }
      return out
    },
    tokenize: (texts) => texts.map((t) => tokenizer.encode(t).ids),
    specialIds: [tokenizer.ids.cls, tokenizer.ids.sep],
    close: () => session.release(),
  }
}
