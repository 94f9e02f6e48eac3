// BERTScore of many (hypothesis, reference) pairs through an embedder (F1-Bio): the
// texts of a call are embedded once each (the references of one item repeat across the models
// scored, and many short answers repeat), then each pair is matched by bertscoreMatch, with idf
// weights from a table when one is given, and rescaled when a baseline is given. The embedder is
// passed in (bertscore-model.ts in use, any function of texts in tests), so this file holds no
// I/O of its own.
import type { BertEmbedder } from './bertscore-model.ts'
import { computeIdf, idfWeights, type IdfTable } from './bertscore-idf.ts'
import { bertscoreMatch, rescaleBertScore, type BertScore, type BertScoreBaseline, type BertScoreOptions } from './bertscore-match.ts'

export interface PairOptions extends BertScoreOptions {
  /** idf weights over the references (referenceIdf); none: every token weighs 1. */
  idf?: IdfTable<number>
  /** Rescale P, R and F by this baseline. */
  baseline?: BertScoreBaseline
}

/** The idf table of the references, as bert_score's get_idf_dict: one document per reference, [CLS]/[SEP] 0. */
export function referenceIdf(embedder: Pick<BertEmbedder, 'tokenize' | 'specialIds'>, references: readonly string[]): IdfTable<number> {
  return computeIdf(embedder.tokenize(references), embedder.specialIds)
}

/** BERTScore of each pair, in order. */
export async function scoreBertPairs(embedder: Pick<BertEmbedder, 'embed'>, pairs: readonly { hyp: string; ref: string }[], o: PairOptions = {}, signal?: AbortSignal): Promise<BertScore[]> {
  const index = new Map<string, number>()
  for (const p of pairs) {
    if (!index.has(p.hyp)) index.set(p.hyp, index.size)
    if (!index.has(p.ref)) index.set(p.ref, index.size)
  }
  const embedded = await embedder.embed([...index.keys()], signal)
  const side = (text: string) => {
    const e = embedded[index.get(text)!]
    return o.idf ? { ...e.embeddings, weights: idfWeights(o.idf, e.ids) } : e.embeddings
  }
  return pairs.map((p) => {
    const s = bertscoreMatch(side(p.hyp), side(p.ref), o)
    return o.baseline ? rescaleBertScore(s, o.baseline) : s
  })
}
