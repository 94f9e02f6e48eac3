// BERTScore matching (F1-Bio, issue 15): parity with bert_score's greedy_cos_idf on the shared
// golden (43 pairs, plain and idf, raw and rescaled, to 1e-6), then hand-checked unit cases.
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { computeIdf, idfWeights, type IdfTable } from '../../src/metrics/bertscore-idf.ts'
import {
  type BertScore, type BertScoreBaseline, bertscoreMatch, bertscoreSignature, rescale, rescaleBertScore, type TokenEmbeddings,
} from '../../src/metrics/bertscore-match.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

interface Triple { P: number; R: number; F: number | null }
interface GoldenPair {
  hypothesis_tokens: string[]
  reference_tokens: string[]
  hypothesis_embeddings: number[][]
  reference_embeddings: number[][]
  plain: Triple & { rescaled: Triple }
  idf: Triple & { rescaled: Triple }
}
interface Golden { dim: number; baseline: BertScoreBaseline; idf: Record<string, number>; idf_unseen: number; pairs: GoldenPair[] }

const SPECIAL = ['[CLS]', '[SEP]']
const TOL = 1e-6

function side(tokens: string[], rows: number[][], dims: number, Arr: Float32ArrayConstructor | Float64ArrayConstructor, idf?: IdfTable<string>): TokenEmbeddings {
  return {
    vectors: Arr.from(rows.flat()),
    dims,
    special: Uint8Array.from(tokens, (t) => (SPECIAL.includes(t) ? 1 : 0)),
    weights: idf ? idfWeights(idf, tokens) : undefined,
  }
}

// Largest |ours - golden| over P, R, F; a null golden F must be NaN here.
function deviation(got: BertScore, want: Triple): number {
  if (want.F === null) expect(got.f1).toBeNaN()
  const diffs = [got.precision - want.P, got.recall - want.R, want.F === null ? 0 : got.f1 - want.F]
  return Math.max(...diffs.map(Math.abs))
}

describeShared('bertscore matching equals bert_score greedy_cos_idf on the golden pairs', () => {
  let golden: Golden
  let idf: IdfTable<string>
  beforeAll(() => {
    golden = JSON.parse(readFileSync(sharedPath('golden/metrics/bertscore-matching.json'), 'utf8')) as Golden
    idf = computeIdf(golden.pairs.map((p) => p.reference_tokens), SPECIAL)
  })

  it('rebuilds the golden idf table from the 43 references', () => {
    expect(golden.pairs).toHaveLength(43)
    expect(idf.documents).toBe(43)
    expect(new Set(idf.idf.keys())).toEqual(new Set(Object.keys(golden.idf)))
    for (const [token, value] of Object.entries(golden.idf)) expect(Math.abs(idf.idf.get(token)! - value), token).toBeLessThan(1e-12)
    expect(idf.unseen).toBeCloseTo(golden.idf_unseen, 12)
  })

  for (const [label, Arr] of [['Float64Array', Float64Array], ['Float32Array', Float32Array]] as const) {
    for (const mode of ['plain', 'idf'] as const) {
      it(`${mode}, raw and rescaled, within 1e-6 (${label} input)`, () => {
        let worst = 0
        golden.pairs.forEach((p, i) => {
          const table = mode === 'idf' ? idf : undefined
          const got = bertscoreMatch(
            side(p.hypothesis_tokens, p.hypothesis_embeddings, golden.dim, Arr, table),
            side(p.reference_tokens, p.reference_embeddings, golden.dim, Arr, table),
          )
          const raw = deviation(got, p[mode])
          const scaled = deviation(rescaleBertScore(got, golden.baseline), p[mode].rescaled)
          expect(raw, `pair ${i} raw`).toBeLessThan(TOL)
          expect(scaled, `pair ${i} rescaled`).toBeLessThan(TOL)
          worst = Math.max(worst, raw, scaled)
        })
        console.log(`bertscore golden ${mode} (${label}): max deviation ${worst.toExponential(2)}`)
      })
    }
  }

  it('reports the empty hypothesis (pair 40) as bert_score does, or as 0 with a flag', () => {
    const p = golden.pairs[40]
    expect(p.hypothesis_tokens).toEqual(['[CLS]', '[SEP]'])
    const hyp = side(p.hypothesis_tokens, p.hypothesis_embeddings, golden.dim, Float64Array)
    const ref = side(p.reference_tokens, p.reference_embeddings, golden.dim, Float64Array)
    expect(bertscoreMatch(hyp, ref)).toMatchObject({ precision: 0, recall: 0, f1: NaN, empty: 'hypothesis', zeroed: false })
    expect(bertscoreMatch(hyp, ref, { undefinedAs: 'zero' })).toMatchObject({ precision: 0, recall: 0, f1: 0, empty: 'hypothesis', zeroed: true })
  })
})

// Rows of unit-ish vectors; `special` marks [CLS]/[SEP].
function emb(rows: number[][], special: number[], weights?: number[]): TokenEmbeddings {
  return { vectors: Float64Array.from(rows.flat()), dims: rows[0].length, special: Uint8Array.from(special), weights: weights && Float64Array.from(weights) }
}
const axis = (k: number, d = 8) => Array.from({ length: d }, (_, i) => (i === k ? 1 : 0))

describe('bertscoreMatch', () => {
  const text = emb([[1, 0, 0], [0.3, 2, -1], [1, 1, 1], [-0.5, 0.2, 3], [0, 0, 1]], [1, 0, 0, 0, 1])

  it('gives 1 for identical texts, with and without idf, whatever the vector lengths', () => {
    const scaled = { ...text, vectors: text.vectors.map((x, i) => x * (1 + Math.floor(i / 3))) }
    for (const r of [bertscoreMatch(text, text), bertscoreMatch({ ...text, weights: Float64Array.of(0, 2, 0.5, 3, 0) }, scaled)]) {
      expect(r.precision).toBeCloseTo(1, 12)
      expect(r.recall).toBeCloseTo(1, 12)
      expect(r.f1).toBeCloseTo(1, 12)
      expect(r.empty).toBeNull()
    }
  })

  it('gives P = R = 0 for orthogonal texts, F undefined (NaN, or 0 flagged)', () => {
    const hyp = emb([axis(0), axis(1), axis(2), axis(3)], [1, 0, 0, 1])
    const ref = emb([axis(4), axis(5), axis(6), axis(7)], [1, 0, 0, 1])
    expect(bertscoreMatch(hyp, ref)).toMatchObject({ precision: 0, recall: 0, f1: NaN, empty: null, zeroed: false })
    expect(bertscoreMatch(hyp, ref, { undefinedAs: 'zero' })).toMatchObject({ precision: 0, recall: 0, f1: 0, zeroed: true })
  })

  it('lets [CLS]/[SEP] be matched but not counted', () => {
    // The hypothesis word points like the reference's [CLS]: its precision is 1; the reference
    // word is orthogonal to everything in the hypothesis: recall 0.
    const hyp = emb([[1, 0], [1, 0], [1, 0]], [1, 0, 1])
    const ref = emb([[1, 0], [0, 1], [1, 0]], [1, 0, 1])
    expect(bertscoreMatch(hyp, ref)).toMatchObject({ precision: 1, recall: 0, f1: 0 })
  })

  it('weighs best matches by idf / sum(idf) and keeps negative cosines (no batch padding)', () => {
    const hyp = emb([[1, 0], [0, 1], [-1, 0], [1, 0]], [1, 0, 0, 1], [0, 1, 3, 0])
    const ref = emb([[1, 0], [0, 1], [1, 0]], [1, 0, 1], [5, 2, 5])
    // hyp [0,1] -> 1; hyp [-1,0] -> best of (-1, 0, -1) = 0.   P = (1*1 + 0*3) / 4
    // ref [0,1] -> 1 (specials weigh 0 whatever their idf).      R = 1
    const r = bertscoreMatch(hyp, ref)
    expect(r.precision).toBeCloseTo(0.25, 15)
    expect(r.recall).toBeCloseTo(1, 15)
    expect(r.f1).toBeCloseTo(0.4, 15)
    // [-1, -1] is at 135 degrees from the reference's [1, 0] and 180 from [1, 1]: its best is -0.707.
    const neg = bertscoreMatch(emb([[1, 0], [-1, -1], [1, 0]], [1, 0, 1]), emb([[1, 0], [1, 1], [1, 0]], [1, 0, 1]))
    expect(neg.precision).toBeCloseTo(-Math.SQRT1_2, 15)
  })

  it('handles empty texts as bert_score: P = R = 0, F = NaN', () => {
    const empty = emb([[1, 0], [0, 1]], [1, 1])
    const words = emb([[1, 0], [1, 1], [0, 1]], [1, 0, 1])
    expect(bertscoreMatch(empty, words)).toMatchObject({ precision: 0, recall: 0, f1: NaN, empty: 'hypothesis' })
    expect(bertscoreMatch(words, empty)).toMatchObject({ precision: 0, recall: 0, f1: NaN, empty: 'reference' })
    expect(bertscoreMatch(empty, empty, { undefinedAs: 'zero' })).toMatchObject({ precision: 0, recall: 0, f1: 0, empty: 'both', zeroed: true })
  })

  it('gives NaN precision when every hypothesis token has idf 0, as bert_score does', () => {
    const words = emb([[1, 0], [1, 1], [0, 1]], [1, 0, 1], [0, 0, 0])
    const ref = emb([[1, 0], [1, 1], [0, 1]], [1, 0, 1])
    expect(bertscoreMatch(words, ref).precision).toBeNaN()
    const zeroed = bertscoreMatch(words, ref, { undefinedAs: 'zero' })
    expect(zeroed).toMatchObject({ precision: 0, f1: 0, zeroed: true })
    expect(zeroed.recall).toBeCloseTo(1, 15)
  })

  it('rejects embeddings that do not fit their dims, masks or each other', () => {
    expect(() => bertscoreMatch(emb([[1, 0]], [1]), emb([[1, 0, 0]], [1]))).toThrow(/differ in width/)
    expect(() => bertscoreMatch({ vectors: new Float32Array(5), dims: 2, special: new Uint8Array(2) }, text)).toThrow(/rows of 2/)
    expect(() => bertscoreMatch(emb([[1, 0], [0, 1]], [1]), emb([[1, 0]], [1]))).toThrow(/2 token rows, 1 special flags/)
  })
})

describe('rescale and signature', () => {
  it('rescales as (x - b) / (1 - b), each score with its own baseline, NaN kept', () => {
    expect(rescale(0.62, 0.62)).toBe(0)
    expect(rescale(1, 0.62)).toBeCloseTo(1, 15)
    expect(rescale(0, 0.62)).toBeCloseTo(-1.631578947368421, 15)
    expect(rescale(NaN, 0.5)).toBeNaN()
    const r = rescaleBertScore({ precision: 0.8, recall: 0.7, f1: 0.75, empty: null, zeroed: false }, { P: 0.5, R: 0.4, F: 0.45 })
    expect([r.precision, r.recall, r.f1].map((x) => +x.toFixed(12))).toEqual([0.6, 0.5, 0.545454545455])
  })

  it('names model, layer, idf, rescaling with its baseline, and the empty-text rule', () => {
    expect(bertscoreSignature({ model: 'biobert-v1.1', layer: 9, idf: true, rescale: true, baseline: { P: 0.62, R: 0.61, F: 0.615 } }))
      .toBe('bertscore:biobert-v1.1|L9|idf|rescaled(P=0.62,R=0.61,F=0.615)|undefined=nan|greedy_cos_idf@bert_score-19e7f55')
    expect(bertscoreSignature({ model: 'm', layer: 0, idf: false, rescale: false, undefinedAs: 'zero' })).toBe('bertscore:m|L0|no-idf|raw|undefined=zero|greedy_cos_idf@bert_score-19e7f55')
    expect(() => bertscoreSignature({ model: 'm', layer: 1, idf: false, rescale: true })).toThrow(/needs a baseline/)
  })
})
