// BERTScore's scoring step (F1-Bio), equal to bert_score's `greedy_cos_idf`
// (Tiiiger/bert_score, utils.py) for one hypothesis/reference pair:
//   - every token embedding is divided by its L2 norm, so a dot product is a cosine;
//   - precision: each hypothesis token takes its best cosine over ALL reference tokens, [CLS]
//     and [SEP] included; recall the other way round;
//   - the per-token maxima are averaged with weights w / sum(w): idf weights, or 1 per token
//     without idf, and 0 for [CLS]/[SEP] (the `special` mask), so they match but never count;
//   - F = 2PR / (P + R).
// Empty text (a side with special tokens only) follows bert_score at commit 19e7f55, the
// version of ../shared/golden/metrics/bertscore-matching.json: P = R = 0 and F = NaN. Later
// releases turn that NaN F into 0 (`F.masked_fill(isnan(F), 0)`); `undefinedAs: 'zero'` does the
// same and sets `zeroed`, so a report can say which scores are not real matches.
// Scored pair by pair: bert_score pads a batch and multiplies padded cells by 0, so in a batch
// a token whose best cosine is negative gets max(best, 0) when the other side is shorter than
// the batch's longest. With BERT embeddings cosines of real tokens are positive in practice,
// and scoring unpadded keeps a pair's score independent of its batch.
import { PipelineError } from '../core/errors.ts'

/** Token embeddings of one text, row-major (`rows x dims`), with a mask of [CLS]/[SEP]-like tokens. */
export interface TokenEmbeddings {
  vectors: Float32Array | Float64Array
  dims: number
  /** 1 for special tokens ([CLS], [SEP]): matched, weighted 0, not counted as text. */
  special: Uint8Array
  /** Per-token idf weights; omitted means 1 per token (bert_score without idf). */
  weights?: Float32Array | Float64Array
}

export interface BertScoreOptions {
  /**
   * What to report where F (or P, R with an all-zero idf side) is undefined: 'nan' as bert_score
   * 19e7f55 does (default, golden parity), or 'zero' as bert_score releases do, with `zeroed` set.
   */
  undefinedAs?: 'nan' | 'zero'
}

export interface BertScore {
  precision: number
  recall: number
  f1: number
  /** Which side has no token besides the special ones. */
  empty: 'hypothesis' | 'reference' | 'both' | null
  /** True when an undefined (NaN) score was reported as 0 (`undefinedAs: 'zero'`). */
  zeroed: boolean
}

/** Precision, recall and F1 of greedy cosine matching, exactly as bert_score's greedy_cos_idf. */
export function bertscoreMatch(hyp: TokenEmbeddings, ref: TokenEmbeddings, options: BertScoreOptions = {}): BertScore {
  const nH = checkSide(hyp, 'hypothesis')
  const nR = checkSide(ref, 'reference')
  if (hyp.dims !== ref.dims) {
    throw new PipelineError('E_INTERNAL', `bertscore: hypothesis and reference embeddings differ in width (${hyp.dims} vs ${ref.dims}); embed both with the same model and layer`, { field: 'dims' })
  }
  const d = hyp.dims
  const h = unitRows(hyp.vectors, nH, d)
  const r = unitRows(ref.vectors, nR, d)
  const bestH = new Float64Array(nH).fill(-Infinity)
  const bestR = new Float64Array(nR).fill(-Infinity)
  for (let i = 0; i < nH; i++) {
    for (let j = 0; j < nR; j++) {
      let s = 0
      for (let k = 0; k < d; k++) s += h[i * d + k] * r[j * d + k]
      if (s > bestH[i]) bestH[i] = s
      if (s > bestR[j]) bestR[j] = s
    }
  }
  let P = weightedMean(bestH, tokenWeights(hyp, nH))
  let R = weightedMean(bestR, tokenWeights(ref, nR))
  let F = (2 * P * R) / (P + R)
  const hypEmpty = isEmpty(hyp.special)
  const refEmpty = isEmpty(ref.special)
  if (hypEmpty || refEmpty) {
    P = 0
    R = 0
  }
  const empty = hypEmpty && refEmpty ? 'both' : hypEmpty ? 'hypothesis' : refEmpty ? 'reference' : null
  let zeroed = false
  if (options.undefinedAs === 'zero' && (Number.isNaN(P) || Number.isNaN(R) || Number.isNaN(F))) {
    zeroed = true
    if (Number.isNaN(P)) P = 0
    if (Number.isNaN(R)) R = 0
    if (Number.isNaN(F)) F = 0
  }
  return { precision: P, recall: R, f1: F, empty, zeroed }
}

/** bert_score's baseline rescaling, (score - b) / (1 - b); NaN stays NaN. */
export function rescale(score: number, baseline: number): number {
  return (score - baseline) / (1 - baseline)
}

/** Baselines of P, R and F, one row of bert_score's rescale_baseline/<lang>/<model>.tsv. */
export interface BertScoreBaseline {
  P: number
  R: number
  F: number
}

/** A score with each of P, R, F rescaled by its own baseline. */
export function rescaleBertScore(score: BertScore, baseline: BertScoreBaseline): BertScore {
  return { ...score, precision: rescale(score.precision, baseline.P), recall: rescale(score.recall, baseline.R), f1: rescale(score.f1, baseline.F) }
}

export interface BertScoreSettings {
  /** Model name as the user declared it (e.g. `dmis-lab/biobert-base-cased-v1.1`) plus its file hash if known. */
  model: string
  /** Hidden layer whose output is used (bert_score's num_layers: 0 = embeddings). */
  layer: number
  idf: boolean
  rescale: boolean
  baseline?: BertScoreBaseline
  undefinedAs?: 'nan' | 'zero'
}

/** The settings in one line, in the spirit of bert_score's hash (`model_L9_idf_..._rescaled`). */
export function bertscoreSignature(s: BertScoreSettings): string {
  if (s.rescale && !s.baseline) {
    throw new PipelineError('E_CONFIG_VALUE', 'bertscore: rescaling needs a baseline {P, R, F}; give one (bert_score ships them per model and layer) or turn rescaling off', { field: 'baseline' })
  }
  const parts = [`bertscore:${s.model}`, `L${s.layer}`, s.idf ? 'idf' : 'no-idf']
  parts.push(s.rescale && s.baseline ? `rescaled(P=${s.baseline.P},R=${s.baseline.R},F=${s.baseline.F})` : 'raw')
  parts.push(`undefined=${s.undefinedAs ?? 'nan'}`, 'greedy_cos_idf@bert_score-19e7f55')
  return parts.join('|')
}

function checkSide(side: TokenEmbeddings, name: string): number {
  const { vectors, dims, special, weights } = side
  if (!Number.isInteger(dims) || dims < 1 || vectors.length % dims !== 0) {
    throw new PipelineError('E_INTERNAL', `bertscore: ${name} embeddings of length ${vectors.length} are not rows of ${dims} numbers; pass rows x dims values`, { field: 'dims' })
  }
  const n = vectors.length / dims
  if (n === 0 || special.length !== n || (weights && weights.length !== n)) {
    throw new PipelineError('E_INTERNAL', `bertscore: ${name} has ${n} token rows, ${special.length} special flags and ${weights?.length ?? n} weights; expected one of each per token, with at least [CLS] and [SEP]`, { field: name })
  }
  return n
}

// Like torch's x.div_(x.norm(dim=-1)): a zero row gives NaN, as in bert_score.
function unitRows(v: Float32Array | Float64Array, n: number, d: number): Float64Array {
  const out = new Float64Array(n * d)
  for (let i = 0; i < n; i++) {
    let ss = 0
    for (let k = 0; k < d; k++) ss += v[i * d + k] * v[i * d + k]
    const norm = Math.sqrt(ss)
    for (let k = 0; k < d; k++) out[i * d + k] = v[i * d + k] / norm
  }
  return out
}

function tokenWeights(side: TokenEmbeddings, n: number): Float64Array {
  const w = new Float64Array(n)
  for (let i = 0; i < n; i++) w[i] = side.special[i] ? 0 : side.weights ? side.weights[i] : 1
  return w
}

// sum(best * w / sum(w)), normalising first as bert_score does; all-zero weights give NaN.
function weightedMean(best: Float64Array, w: Float64Array): number {
  let total = 0
  for (let i = 0; i < w.length; i++) total += w[i]
  let s = 0
  for (let i = 0; i < w.length; i++) s += best[i] * (w[i] / total)
  return s
}

function isEmpty(special: Uint8Array): boolean {
  for (let i = 0; i < special.length; i++) if (!special[i]) return false
  return true
}
