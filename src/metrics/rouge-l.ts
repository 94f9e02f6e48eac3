// ROUGE-L as Google's rouge-score computes `rougeL` (not `rougeLsum`): the longest common
// subsequence of the token lists, precision = LCS / hypothesis tokens, recall = LCS / reference
// tokens, F = 2PR / (P + R); 0, 0, 0 when either side has no token ("Metrics").
// Two tokenizers:
//   - 'rouge-score' (default, for parity): lower-case, every character outside [a-z0-9] becomes a
//     space, split; with stemming, nltk's Porter stemmer on tokens longer than 3 characters.
//     Non-ASCII letters are dropped, so a Chinese answer has no tokens and scores 0 even when it
//     equals the reference (the golden file records exactly that).
//   - 'unicode' (ours, so non-ASCII text is not silently scored 0): lower-case, tokens are runs of
//     Unicode letters, digits and combining marks (\p{L}\p{N}\p{M}, so "é" written as e + U+0301
//     stays one word), except that Han, Hiragana and Katakana characters are one token each
//     (those scripts put no spaces between words; a character per token is the usual unit for
//     Chinese and Japanese ROUGE). On ASCII text it gives the same tokens as 'rouge-score'.
//     Stemming, when asked, applies only to ASCII tokens longer than 3 characters: the Porter
//     stemmer is for English.
import { PipelineError } from '../core/errors.ts'
import { porterStem } from './porter-stemmer.ts'

export type RougeTokenizer = 'rouge-score' | 'unicode'

export interface RougeOptions {
  /** Porter-stem tokens longer than 3 characters (rouge-score's `use_stemmer`). Default false. */
  stem?: boolean
  /** Default 'rouge-score' (parity); 'unicode' keeps non-ASCII letters and digits. */
  tokenizer?: RougeTokenizer
}

/** Precision, recall and F-measure, each in [0, 1]. */
export interface RougeScore {
  precision: number
  recall: number
  f: number
}

const IMPL = 'holter-pipeline-1'
const NON_ALPHANUMERIC = /[^a-z0-9]+/g
const ASCII_TOKEN = /^[a-z0-9]+$/
const UNICODE_TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}])+/gu

function checkOptions(opts: RougeOptions = {}): Required<RougeOptions> {
  const tokenizer = opts.tokenizer ?? 'rouge-score'
  if (tokenizer !== 'rouge-score' && tokenizer !== 'unicode') {
    throw new PipelineError('E_CONFIG_VALUE', `ROUGE-L tokenizer must be 'rouge-score' or 'unicode', got ${JSON.stringify(tokenizer)}`, { field: 'tokenizer' })
  }
  return { stem: opts.stem === true, tokenizer }
}

function stemToken(token: string): string {
  return token.length > 3 && ASCII_TOKEN.test(token) ? porterStem(token) : token
}

/** The tokens ROUGE-L compares, for either tokenizer. */
export function rougeTokens(text: string, opts: RougeOptions = {}): string[] {
  const { stem, tokenizer } = checkOptions(opts)
  const lower = text.toLowerCase()
  const raw = tokenizer === 'unicode' ? (lower.match(UNICODE_TOKEN) ?? []) : lower.replace(NON_ALPHANUMERIC, ' ').split(' ')
  const tokens = stem ? raw.map(stemToken) : raw
  // rouge-score's last check drops empty and non-[a-z0-9] tokens; unicode tokens are never empty.
  return tokens.filter((t) => t !== '' && (tokenizer === 'unicode' || ASCII_TOKEN.test(t)))
}

/** Length of the longest common subsequence, in two rows of the usual table. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Uint32Array(b.length + 1)
  let row = new Uint32Array(b.length + 1)
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], row[j - 1])
    }
    ;[prev, row] = [row, prev]
  }
  return prev[b.length]
}

/** ROUGE-L of a hypothesis against one reference, equal to rouge-score's `rougeL` by default. */
export function rougeL(hyp: string, ref: string, opts: RougeOptions = {}): RougeScore {
  const hypTokens = rougeTokens(hyp, opts)
  const refTokens = rougeTokens(ref, opts)
  if (hypTokens.length === 0 || refTokens.length === 0) return { precision: 0, recall: 0, f: 0 }
  const lcs = lcsLength(refTokens, hypTokens)
  const precision = lcs / hypTokens.length
  const recall = lcs / refTokens.length
  const f = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
  return { precision, recall, f }
}

/** What was computed: variant, tokenizer, stemming and this implementation. */
export function rougeSignature(opts: RougeOptions = {}): string {
  const { stem, tokenizer } = checkOptions(opts)
  return `rougeL|tok:${tokenizer}|stem:${stem ? 'porter-nltk' : 'no'}|impl:${IMPL}`
}
