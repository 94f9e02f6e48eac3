// Inverse document frequency over the references, as bert_score's get_idf_dict computes it:
// each of the M references counts a token once (a set), idf = ln((M + 1) / (df + 1)), and a
// token no reference holds gets ln(M + 1). References are token sequences as the tokenizer
// gives them, [CLS] and [SEP] included; every reference holds those, so their idf is
// ln((M+1)/(M+1)) = 0, which is how bert_score weighs them 0 with idf. `special` forces 0 for
// them anyway, so sequences given without [CLS]/[SEP] weigh them 0 too. Duplicate references
// count as separate documents, as in bert_score (M is the length of its refs list).

/** An idf table: idf per token seen in the references, and the idf of any other token. */
export interface IdfTable<T> {
  documents: number
  idf: Map<T, number>
  unseen: number
}

/** idf of every token of the reference token sequences (ids or strings), bert_score's formula. */
export function computeIdf<T>(references: Iterable<ArrayLike<T>>, special: Iterable<T> = []): IdfTable<T> {
  const df = new Map<T, number>()
  let documents = 0
  for (const ref of references) {
    documents++
    for (const token of new Set(Array.from(ref))) df.set(token, (df.get(token) ?? 0) + 1)
  }
  const idf = new Map<T, number>()
  for (const [token, count] of df) idf.set(token, Math.log((documents + 1) / (count + 1)))
  for (const token of special) idf.set(token, 0)
  return { documents, idf, unseen: Math.log(documents + 1) }
}

/** Per-token weights of one token sequence from an idf table (unseen tokens get `table.unseen`). */
export function idfWeights<T>(table: IdfTable<T>, tokens: ArrayLike<T>): Float64Array {
  const w = new Float64Array(tokens.length)
  for (let i = 0; i < tokens.length; i++) w[i] = table.idf.get(tokens[i]) ?? table.unseen
  return w
}
