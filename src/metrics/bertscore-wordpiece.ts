// BERT's WordPiece tokenizer (Hugging Face BertTokenizer, the slow one bert_score uses by
// default), pure, from the text of a vocab.txt: clean the text (drop NUL, U+FFFD and control
// characters, map whitespace to spaces), put spaces around CJK ideographs, NFC, split on
// whitespace, lower-case and strip accents when the model is uncased, split off every
// punctuation character, then split each word greedily into the longest vocabulary pieces
// ("##" marks a continuation); a word longer than 100 characters or with no split is [UNK].
// encode() adds [CLS]/[SEP] and truncates like bert_score's sent_encode (strip; empty text is
// [CLS] [SEP]; at most maxLength tokens in all). Not handled: special-token literals inside
// the text (Hugging Face keeps "[SEP]" typed in a text as one token; here it is split).
import { PipelineError } from '../core/errors.ts'

export interface WordPieceOptions {
  /** True for uncased models (bert-base-uncased, SciBERT uncased); BioBERT v1.1 is cased. */
  lowerCase: boolean
  /** Strip accents; by default as lowerCase (Hugging Face's strip_accents=None). */
  stripAccents?: boolean
  /** Tokens per text including [CLS] and [SEP] (the model's max_position_embeddings, 512 for BERT). */
  maxLength?: number
}

export interface Encoded {
  tokens: string[]
  ids: Int32Array
}

export interface WordPiece {
  encode(text: string): Encoded
  ids: { cls: number; sep: number; pad: number; unk: number }
}

/** A tokenizer over a vocab.txt's text (one token per line, id = line number from 0). */
export function createWordPiece(vocabText: string, options: WordPieceOptions): WordPiece {
  const lines = vocabText.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const vocab = new Map<string, number>()
  lines.forEach((token, id) => vocab.set(token, id))
  const idOf = (t: string) => {
    const id = vocab.get(t)
    if (id === undefined) throw new PipelineError('E_CONFIG_VALUE', `vocab.txt has no ${t} token; give the vocab.txt exported with the model (one token per line)`, { field: 'vocab' })
    return id
  }
  const ids = { cls: idOf('[CLS]'), sep: idOf('[SEP]'), pad: idOf('[PAD]'), unk: idOf('[UNK]') }
  const maxLength = options.maxLength ?? 512
  const strip = options.stripAccents ?? options.lowerCase
  return {
    ids,
    encode(text) {
      const pieces = basicTokens(text.trim(), options.lowerCase, strip).flatMap((w) => wordPieces(w, vocab))
      const tokens = ['[CLS]', ...pieces.slice(0, Math.max(0, maxLength - 2)), '[SEP]']
      return { tokens, ids: Int32Array.from(tokens, (t) => vocab.get(t) ?? ids.unk) }
    },
  }
}

function basicTokens(text: string, lowerCase: boolean, stripAccents: boolean): string[] {
  let clean = ''
  for (const ch of text) {
    const cp = ch.codePointAt(0)!
    if (cp === 0 || cp === 0xfffd || isControl(ch)) continue
    clean += isWhitespace(ch) ? ' ' : isCjk(cp) ? ` ${ch} ` : ch
  }
  const out: string[] = []
  for (let word of clean.normalize('NFC').split(/\s+/u).filter(Boolean)) {
    if (lowerCase) word = word.toLowerCase()
    if (stripAccents) word = word.normalize('NFD').replace(/\p{Mn}/gu, '')
    let current = ''
    for (const ch of word) {
      if (isPunctuation(ch)) {
        if (current) out.push(current)
        out.push(ch)
        current = ''
      } else current += ch
    }
    if (current) out.push(current)
  }
  return out
}

function wordPieces(word: string, vocab: Map<string, number>): string[] {
  const chars = Array.from(word)
  if (chars.length > 100) return ['[UNK]']
  const pieces: string[] = []
  for (let start = 0; start < chars.length;) {
    let end = chars.length
    let found: string | undefined
    for (; start < end; end--) {
      const sub = (start > 0 ? '##' : '') + chars.slice(start, end).join('')
      if (vocab.has(sub)) {
        found = sub
        break
      }
    }
    if (found === undefined) return ['[UNK]']
    pieces.push(found)
    start = end
  }
  return pieces
}

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || /\p{Zs}/u.test(ch)
}

function isControl(ch: string): boolean {
  return ch !== '\t' && ch !== '\n' && ch !== '\r' && /[\p{Cc}\p{Cf}]/u.test(ch)
}

function isPunctuation(ch: string): boolean {
  const cp = ch.codePointAt(0)!
  return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126) || /\p{P}/u.test(ch)
}

function isCjk(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) || (cp >= 0x2b740 && cp <= 0x2b81f) || (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x2f800 && cp <= 0x2fa1f)
}
