// `pipeline score --f1-bio <folder | file.yaml>`: F1-Bio's model. The folder is what
// `optimum-cli export onnx --task feature-extraction` writes: model.onnx and vocab.txt, with
// config.json (num_hidden_layers: the layer whose output last_hidden_state is; _name_or_path:
// the model's name) and tokenizer_config.json (do_lower_case). A YAML file names such a folder
// or an .onnx file and may set what the folder cannot say (idf, a rescaling baseline, another
// output, the layer, the name); its paths are relative to it. Everything is checked before
// anything is scored, and the signature says which model file (its SHA-256) scored.
// The hook (score-hooks.ts F1BioHook) scores pairs with bertscore-pairs.ts; with idf, each
// task's references give the idf table, as bert_score computes it over the references it scores.
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { readYamlFile } from '../config/yaml-file.ts'
import { PipelineError } from '../core/errors.ts'
import { z } from '../core/stage-options.ts'
import type { IdfTable } from '../metrics/bertscore-idf.ts'
import { bertscoreSignature, type BertScoreSettings } from '../metrics/bertscore-match.ts'
import { createBertEmbedder, type BertEmbedder, type OrtModule } from '../metrics/bertscore-model.ts'
import { referenceIdf, scoreBertPairs } from '../metrics/bertscore-pairs.ts'
import type { F1BioHook } from '../report/score-hooks.ts'
import { openPairScoreCache, pairKey, type PairScoreCache } from '../run/pair-score-cache.ts'

const EXAMPLE = 'pipelines/examples/f1-bio.yaml'

const baselineSchema = z.strictObject({ P: z.number(), R: z.number(), F: z.number() })

export const f1BioSchema = z.strictObject({
  /** An optimum-cli export folder, or an .onnx file. */
  model: z.string().min(1),
  /** vocab.txt; default <folder>/vocab.txt. */
  vocab: z.string().min(1).optional(),
  /** The model's name in the signature; default config.json's _name_or_path, or the folder's name. */
  name: z.string().min(1).optional(),
  /** The hidden layer the output is (bert_score's num_layers); default config.json's num_hidden_layers. */
  layer: z.number().int().min(0).optional(),
  /** Default tokenizer_config.json's do_lower_case. */
  lowerCase: z.boolean().optional(),
  idf: z.boolean().default(false),
  /** bert_score's rescale baseline for this model and layer; rescales P, R and F. */
  baseline: baselineSchema.optional(),
  output: z.string().min(1).default('last_hidden_state'),
  undefinedAs: z.enum(['nan', 'zero']).default('nan'),
  batchSize: z.number().int().min(1).max(1024).default(16),
  threads: z.number().int().min(1).max(256).optional(),
  maxLength: z.number().int().min(3).max(8192).default(512),
})
export type F1BioFile = z.infer<typeof f1BioSchema>

/** Everything F1-Bio needs, resolved and checked. */
export interface F1BioSettings {
  onnx: string
  vocab: string
  name: string
  layer: number
  lowerCase: boolean
  idf: boolean
  baseline?: { P: number; R: number; F: number }
  output: string
  undefinedAs: 'nan' | 'zero'
  batchSize: number
  threads?: number
  maxLength: number
  /** SHA-256 of the .onnx file, hex. */
  sha256: string
}

export interface ScoreF1Bio {
  settings: F1BioSettings
  /** Where its scores are kept, when a cache folder was given. */
  cache?: PairScoreCache
  hook: F1BioHook
  close(): Promise<void>
}

/** The F1-Bio hook of --f1-bio <folder | file.yaml>, its scores kept under `cacheDir` when given. */
export async function createScoreF1Bio(target: string, o: { ort?: OrtModule; cacheDir?: string } = {}): Promise<ScoreF1Bio> {
  const settings = await resolveF1Bio(target)
  const cache = o.cacheDir ? await openPairScoreCache(o.cacheDir, f1BioSignature(settings)) : undefined
  const embedder = await createBertEmbedder({
    model: settings.onnx, vocabFile: settings.vocab, lowerCase: settings.lowerCase, maxLength: settings.maxLength,
    output: settings.output, batchSize: settings.batchSize, threads: settings.threads, ort: o.ort,
  })
  return { settings, cache, hook: f1BioHook(embedder, settings, cache), close: () => embedder.close() }
}

/**
 * An F1BioHook over an embedder: F1 of each pair, idf per task's references when asked. With a
 * cache, a pair scored before with the same settings (and, with idf, the same references) is
 * not embedded again, and each batch's new scores are kept before the next batch.
 */
export function f1BioHook(embedder: BertEmbedder, s: F1BioSettings, cache?: PairScoreCache): F1BioHook {
  let idf: IdfTable<number> | undefined
  // With idf a pair's score depends on the task's references: they are part of its key.
  let idfKey = ''
  return {
    signature: f1BioSignature(s),
    async prepare(references) {
      if (!s.idf) return
      idf = referenceIdf(embedder, references)
      idfKey = pairKey(...references)
    },
    async score(pairs, signal) {
      const keys = cache ? pairs.map((p) => pairKey(idfKey, p.hyp, p.ref)) : []
      const out = new Array<number>(pairs.length)
      const todo: number[] = []
      pairs.forEach((_, k) => {
        const kept = cache?.get(keys[k])
        if (kept === undefined) todo.push(k)
        else out[k] = kept ?? NaN
      })
      if (todo.length) {
        const scores = await scoreBertPairs(embedder, todo.map((k) => pairs[k]), { idf, baseline: s.baseline, undefinedAs: s.undefinedAs }, signal)
        todo.forEach((k, j) => {
          out[k] = scores[j].f1
          cache?.put(keys[k], Number.isFinite(scores[j].f1) ? scores[j].f1 : null)
        })
        await cache?.flush()
      }
      return out
    },
  }
}

/** bertscoreSignature of the settings, with the model file's hash, the tokenizer and where idf comes from. */
export function f1BioSignature(s: F1BioSettings): string {
  const settings: BertScoreSettings = { model: `${s.name}#sha256:${s.sha256.slice(0, 12)}`, layer: s.layer, idf: s.idf, rescale: s.baseline !== undefined, baseline: s.baseline, undefinedAs: s.undefinedAs }
  const parts = [bertscoreSignature(settings), `tok:wordpiece(${s.lowerCase ? 'uncased' : 'cased'},max${s.maxLength})`, `out:${s.output}`]
  if (s.idf) parts.push('idf-docs:task-references')
  return parts.join('|')
}

/** The settings of --f1-bio: a folder is read as an export; a YAML file as f1BioSchema. */
export async function resolveF1Bio(target: string): Promise<F1BioSettings> {
  const abs = path.resolve(target)
  const kind = await stat(abs).then((st) => (st.isDirectory() ? 'dir' : 'file'), (cause: unknown) => {
    throw new PipelineError('E_FILE_MISSING', `--f1-bio: ${abs} does not exist; give the folder optimum-cli exported the model to, or a YAML file (${EXAMPLE})`, { file: abs, field: 'f1-bio' }, { cause })
  })
  if (kind === 'dir') return fromFile({ model: abs, idf: false, output: 'last_hidden_state', undefinedAs: 'nan', batchSize: 16, maxLength: 512 }, abs, null)
  if (!/\.ya?ml$/i.test(abs)) {
    throw new PipelineError('E_USAGE', `--f1-bio: ${abs} is neither a folder nor a .yaml file; give the folder optimum-cli exported the model to (model.onnx, vocab.txt, config.json), or a YAML file naming it (${EXAMPLE})`, { file: abs, field: 'f1-bio' })
  }
  const file = await readYamlFile(abs, { schema: f1BioSchema, what: 'F1-Bio model file', hint: `a YAML file naming an exported BERT (${EXAMPLE})` })
  return fromFile(file, path.dirname(abs), abs)
}

async function fromFile(f: F1BioFile, base: string, yamlFile: string | null): Promise<F1BioSettings> {
  const where = yamlFile ?? path.resolve(base, f.model)
  const fail = (field: string, message: string): never => {
    throw new PipelineError('E_CONFIG_VALUE', message, { file: where, field })
  }
  const modelPath = path.resolve(base, f.model)
  const isDir = await stat(modelPath).then((st) => st.isDirectory(), () => fail('model', `${modelPath} does not exist; name the folder optimum-cli exported the model to, or its .onnx file`))
  const folder = isDir ? modelPath : path.dirname(modelPath)
  const onnx = isDir ? path.join(folder, 'model.onnx') : modelPath
  const vocab = f.vocab ? path.resolve(base, f.vocab) : path.join(folder, 'vocab.txt')
  const config = await readJson(path.join(folder, 'config.json'))
  const tokenizer = await readJson(path.join(folder, 'tokenizer_config.json'))
  const layer = f.layer ?? (f.output === 'last_hidden_state' && typeof config?.num_hidden_layers === 'number' ? config.num_hidden_layers : undefined)
  if (layer === undefined) fail('layer', `the layer of "${f.output}" is not known: ${path.join(folder, 'config.json')} ${config ? 'has no num_hidden_layers' : 'is missing'}; set layer: in a YAML file (${EXAMPLE})`)
  const lowerCase = f.lowerCase ?? (typeof tokenizer?.do_lower_case === 'boolean' ? tokenizer.do_lower_case : undefined)
  if (lowerCase === undefined) fail('lowerCase', `whether the tokenizer lower-cases is not known: ${path.join(folder, 'tokenizer_config.json')} ${tokenizer ? 'has no do_lower_case' : 'is missing'}; set lowerCase: true (uncased models) or false (cased ones such as BioBERT) in a YAML file (${EXAMPLE})`)
  const name = f.name ?? (typeof config?._name_or_path === 'string' && config._name_or_path ? config._name_or_path : path.basename(folder))
  return {
    onnx, vocab, name, layer: layer!, lowerCase: lowerCase!, idf: f.idf, baseline: f.baseline, output: f.output, undefinedAs: f.undefinedAs,
    batchSize: f.batchSize, maxLength: f.maxLength, ...(f.threads ? { threads: f.threads } : {}),
    sha256: await sha256(onnx),
  }
}

// A JSON file of the export, or null when it is absent; a file that does not parse is an error.
async function readJson(file: string): Promise<Record<string, unknown> | null> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return null
  }
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch (cause) {
    throw new PipelineError('E_CONFIG_VALUE', `${file} is not valid JSON (${(cause as Error).message}); export the model again or give the settings in a YAML file (${EXAMPLE})`, { file }, { cause })
  }
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256')
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT'
    throw new PipelineError(missing ? 'E_FILE_MISSING' : 'E_IO', `cannot read the ONNX model ${file}${missing ? ': it does not exist; the export folder should hold model.onnx' : ''}`, { file, field: 'model' }, { cause })
  }
  return hash.digest('hex')
}
