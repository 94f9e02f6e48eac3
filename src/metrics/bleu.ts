// BLEU as sacrebleu 2.x computes it (benchmark-spec "BLEU-1 / BLEU-4"):
// 13a tokens, mixed case, one reference, clipped n-gram counts, brevity penalty
// exp(1 - ref/sys) when the hypothesis is shorter, and "exp" smoothing (NIST / mteval-v13a: the
// k-th order with no match gets precision 100 / (2^k * total)). Scores are on sacrebleu's 0-100
// scale. Sentence BLEU uses effective order (the mean of logs stops at the highest order the
// hypothesis has n-grams for), corpus BLEU sums the statistics over segments without it, which
// are sacrebleu's defaults for `sentence_bleu` and `corpus_bleu`.
// Empty text: an empty hypothesis scores 0 (sacrebleu's "no match" early stop). sacrebleu
// refuses an empty reference (RuntimeError "Empty or `None` reference sentence found"); here it
// is a reference of 0 tokens, so that segment scores 0 (what the golden file records for it)
// and, in a corpus, adds its hypothesis length and n-grams with no matches.
import { PipelineError } from '../core/errors.ts'
import { tokenize13a } from './tokenize-13a.ts'

export interface BleuOptions {
  /** Highest n-gram order: 4 for BLEU-4 (sacrebleu's default), 1 for BLEU-1. */
  maxOrder: number
}

/** A BLEU score with its sufficient statistics, named like sacrebleu's BLEUScore fields. */
export interface BleuScore {
  score: number
  /** Clipped matches per order, 1..maxOrder. */
  counts: number[]
  /** Hypothesis n-grams per order, 1..maxOrder. */
  totals: number[]
  /** Per-order precision, 0-100 (smoothed where a sentence had no match). */
  precisions: number[]
  bp: number
  sysLen: number
  refLen: number
}

/** Matches and totals of one segment, the numbers that add up over a corpus. */
export interface BleuStats {
  counts: number[]
  totals: number[]
  sysLen: number
  refLen: number
}

const IMPL = 'holter-pipeline-1'
/** What sacrebleu's my_log returns for log(0), so an order with precision 0 zeroes the score. */
const LOG_ZERO = -9999999999

function checkOptions(opts: BleuOptions): number {
  const n = opts?.maxOrder
  if (!Number.isInteger(n) || n < 1 || n > 9) {
    throw new PipelineError('E_CONFIG_VALUE', `BLEU maxOrder must be an integer from 1 to 9 (1 for BLEU-1, 4 for BLEU-4), got ${String(n)}`, { field: 'maxOrder' })
  }
  return n
}

/**
 * n-gram counts per order (index 0 = unigrams) of numbered tokens (ids from 1). A key is the ids
 * as digits in base `base`, exact while base^maxOrder < 2^53 (up to ~9,700 distinct tokens per
 * pair for BLEU-4), which counts several times faster than string keys; past that, strings.
 */
function ngramCounts(ids: number[], base: number, maxOrder: number): Array<Map<number | string, number>> {
  const exact = base ** maxOrder < Number.MAX_SAFE_INTEGER
  const byOrder = Array.from({ length: maxOrder }, () => new Map<number | string, number>())
  for (let i = 0; i < ids.length; i++) {
    let num = 0
    let str = ''
    for (let n = 0; n < maxOrder && i + n < ids.length; n++) {
      if (exact) num = num * base + ids[i + n]
      else str += `${ids[i + n]},`
      const key = exact ? num : str
      byOrder[n].set(key, (byOrder[n].get(key) ?? 0) + 1)
    }
  }
  return byOrder
}

function segmentStats(hyp: string, ref: string, maxOrder: number): BleuStats {
  const hypTokens = tokenize13a(hyp)
  const refTokens = tokenize13a(ref)
  const vocabulary = new Map<string, number>()
  const toIds = (tokens: string[]) => tokens.map((t) => vocabulary.get(t) ?? vocabulary.set(t, vocabulary.size + 1).size)
  const hypIds = toIds(hypTokens)
  const refIds = toIds(refTokens)
  const base = vocabulary.size + 1
  const hypCounts = ngramCounts(hypIds, base, maxOrder)
  const refCounts = ngramCounts(refIds, base, maxOrder)
  const counts = new Array<number>(maxOrder).fill(0)
  const totals = new Array<number>(maxOrder).fill(0)
  for (let n = 0; n < maxOrder; n++) {
    for (const [key, count] of hypCounts[n]) {
      totals[n] += count
      counts[n] += Math.min(count, refCounts[n].get(key) ?? 0)
    }
  }
  return { counts, totals, sysLen: hypTokens.length, refLen: refTokens.length }
}

/** sacrebleu's compute_bleu with smooth_method "exp", on summed statistics. */
function scoreFromStats(stats: BleuStats, maxOrder: number, effectiveOrder: boolean): BleuScore {
  const { counts, totals, sysLen, refLen } = stats
  const bp = sysLen < refLen ? (sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0) : 1
  const precisions = new Array<number>(maxOrder).fill(0)
  const result = { counts: [...counts], totals: [...totals], precisions, bp, sysLen, refLen }
  if (!counts.some((c) => c > 0)) return { score: 0, ...result }
  let smooth = 1
  let order = maxOrder
  for (let n = 1; n <= maxOrder; n++) {
    if (totals[n - 1] === 0) break
    if (effectiveOrder) order = n
    if (counts[n - 1] === 0) {
      smooth *= 2
      precisions[n - 1] = 100 / (smooth * totals[n - 1])
    } else {
      precisions[n - 1] = (100 * counts[n - 1]) / totals[n - 1]
    }
  }
  let logSum = 0
  for (const p of precisions.slice(0, order)) logSum += p === 0 ? LOG_ZERO : Math.log(p)
  return { score: bp * Math.exp(logSum / order), ...result }
}

/** Sentence BLEU of one hypothesis against one reference: sacrebleu `BLEU(max_ngram_order=n, effective_order=True).sentence_score`. */
export function sentenceBleu(hyp: string, ref: string, opts: BleuOptions): BleuScore {
  const maxOrder = checkOptions(opts)
  return scoreFromStats(segmentStats(hyp, ref, maxOrder), maxOrder, true)
}

/** BLEU from sufficient statistics (a segment's, or several summed), of order `maxOrder` (<= the statistics' own). */
export function bleuFromStats(stats: BleuStats, opts: BleuOptions & { effectiveOrder: boolean }): BleuScore {
  const maxOrder = checkOptions(opts)
  if (stats.counts.length < maxOrder) throw new PipelineError('E_INTERNAL', `BLEU-${maxOrder} needs statistics of ${maxOrder} orders, got ${stats.counts.length}`, { field: 'maxOrder' })
  return scoreFromStats({ counts: stats.counts.slice(0, maxOrder), totals: stats.totals.slice(0, maxOrder), sysLen: stats.sysLen, refLen: stats.refLen }, maxOrder, opts.effectiveOrder)
}

/** Corpus BLEU (one reference per hypothesis): sacrebleu `BLEU(max_ngram_order=n).corpus_score` with its defaults. */
export function corpusBleu(hyps: readonly string[], refs: readonly string[], opts: BleuOptions): BleuScore {
  const maxOrder = checkOptions(opts)
  if (hyps.length !== refs.length) {
    throw new PipelineError('E_INTERNAL', `corpus BLEU needs one reference per hypothesis: got ${hyps.length} hypotheses and ${refs.length} references; pair them before scoring`, { field: 'refs' })
  }
  const sum: BleuStats = { counts: new Array<number>(maxOrder).fill(0), totals: new Array<number>(maxOrder).fill(0), sysLen: 0, refLen: 0 }
  for (let i = 0; i < hyps.length; i++) {
    const s = segmentStats(hyps[i], refs[i], maxOrder)
    for (let n = 0; n < maxOrder; n++) {
      sum.counts[n] += s.counts[n]
      sum.totals[n] += s.totals[n]
    }
    sum.sysLen += s.sysLen
    sum.refLen += s.refLen
  }
  return scoreFromStats(sum, maxOrder, false)
}

/** What was computed, in the form of sacrebleu's signature plus the order and this implementation. */
export function bleuSignature(opts: BleuOptions & { effectiveOrder?: boolean }): string {
  const maxOrder = checkOptions(opts)
  const eff = opts.effectiveOrder === false ? 'no' : 'yes'
  return `nrefs:1|case:mixed|eff:${eff}|tok:13a|smooth:exp|order:${maxOrder}|impl:${IMPL}`
}
